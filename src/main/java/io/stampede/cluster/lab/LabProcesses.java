/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The daemons the lab started (in the foreground, so each is our child); stopped on every way out. */
final class LabProcesses {

    private final List<Process> started = new ArrayList<>();

    synchronized Process start(String ns, Path log, List<String> command) throws LabException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        cmd.addAll(command);
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            started.add(p);
            return p;
        } catch (IOException e) {
            throw new LabException("cannot start " + String.join(" ", command) + ": " + e.getMessage());
        }
    }

    /** SIGTERM, then SIGKILL after a bounded wait; children (nginx workers, keepalived's VRRP child) too. */
    static void stop(Process p) {
        List<ProcessHandle> children = p.descendants().toList();
        p.destroy();
        try {
            if (!p.waitFor(3, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(2, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
        children.forEach(ProcessHandle::destroyForcibly);
    }

    synchronized void stopAll() {
        for (Process p : started) {
            if (p.isAlive()) {
                stop(p);
            }
        }
        started.clear();
    }
}
