/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Child processes: stops one together with everything it started (JMeter and nginx both have children), and sends
 * signals (a frozen server, load generators taking turns).
 */
public final class ProcessTrees {

    private ProcessTrees() {
    }

    public static List<ProcessHandle> withDescendants(ProcessHandle root) {
        List<ProcessHandle> all = new ArrayList<>();
        all.add(root);
        root.descendants().forEach(all::add);
        return all;
    }

    /** {@code kill -SIGNAL} (e.g. STOP, CONT) to the processes; false if kill failed or took over 10 s. */
    public static boolean signal(String signal, List<ProcessHandle> processes) {
        if (processes.isEmpty()) {
            return true;
        }
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
        processes.forEach(p -> command.add(Long.toString(p.pid())));
        try {
            Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
            return kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * SIGKILL to the process and its descendants, the process first, then waits (bounded) for it to be reaped. The
     * parent goes first because an nginx master that sees a worker die starts a new one, which would outlive it.
     */
    public static void kill(Process process) {
        // Collect the tree first: once the parent dies its children are re-parented and no longer found from it.
        List<ProcessHandle> tree = withDescendants(process.toHandle());
        tree.forEach(ProcessHandle::destroyForcibly);
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
