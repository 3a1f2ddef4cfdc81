/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * async-profiler attached to a running JMeter JVM through jcmd, as it/bench/classic-benchmark.sh does: cpu samples
 * every millisecond (or another event's, e.g. alloc) from {@link #start} to {@link #stop}, written as collapsed
 * stacks (flame graph input).
 */
record Profiler(Path agent, Path folder) {

    /** From -Dstampede.bench.profiler (the agent library) and -Dstampede.bench.profile (a folder); null if unset. */
    static Profiler fromSystemProperties() {
        String agent = System.getProperty("stampede.bench.profiler", "");
        String folder = System.getProperty("stampede.bench.profile", "");
        return agent.isEmpty() || folder.isEmpty() ? null : new Profiler(Path.of(agent), Path.of(folder));
    }

    void start(long pid) {
        // alloc (-Dstampede.bench.profile.event=alloc): where the bytes allocated per request come from.
        String event = System.getProperty("stampede.bench.profile.event", "cpu");
        jcmd(pid, event.equals("cpu") ? "start,event=cpu,interval=1ms" : "start,event=" + event);
    }

    void stop(long pid, String name) {
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create " + folder, e);
        }
        // total: an allocation profile counts bytes, not samples
        String total = System.getProperty("stampede.bench.profile.event", "cpu").equals("cpu") ? "" : ",total";
        jcmd(pid, "stop,file=" + folder.resolve(name.replace('/', '-') + ".collapsed") + total);
    }

    private void jcmd(long pid, String command) {
        long java = javaPid(pid);
        try {
            Process p = new ProcessBuilder(List.of("jcmd", Long.toString(java), "JVMTI.agent_load",
                    agent.toString(), '"' + command + '"')).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0) {
                System.out.println("  profiler: jcmd " + command + " failed: " + out.trim());
            }
        } catch (IOException e) {
            System.out.println("  profiler: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** JMeter's JVM: the process itself when it is java, else its first java descendant (bin/jmeter is a script). */
    private static long javaPid(long pid) {
        ProcessHandle self = ProcessHandle.of(pid).orElseThrow();
        if (isJava(self)) {
            return pid;
        }
        return self.descendants().filter(Profiler::isJava).findFirst().map(ProcessHandle::pid).orElse(pid);
    }

    private static boolean isJava(ProcessHandle h) {
        return h.info().command().map(c -> c.endsWith("/java")).orElse(false);
    }
}
