/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import io.stampede.it.support.ProcessTrees;
import java.util.List;

/**
 * Two load generators, both started and warm, taking turns on one nginx: one runs for a slice while the other is
 * stopped (SIGSTOP), then the other, for a number of slices each. A slow minute of a shared machine then falls on
 * both tools alike, where back-to-back runs of 30 s put it on one of them. Requests are nginx's own count
 * ({@link NginxStatus}) over each tool's slices; CPU is each process's, nginx's and the machine's over the same
 * slices, each slice ending after a settle time in which nginx finishes the stopped tool's requests in flight.
 */
final class TakingTurns {
    private static final long SETTLE_MILLIS = 200;

    private final CpuTimes cpu;
    private final List<ProcessHandle> nginx;
    private final NginxStatus status;

    TakingTurns(CpuTimes cpu, List<ProcessHandle> nginx, NginxStatus status) {
        this.cpu = cpu;
        this.nginx = nginx;
        this.status = status;
    }

    /**
     * Both processes must be stopped on entry; they are stopped on return. Tool {@code a} goes first; the caller
     * changes which one that is from round to round.
     */
    Measurement[] run(String nameA, long pidA, String nameB, long pidB, int slices, double sliceSeconds)
            throws InterruptedException {
        Totals a = new Totals();
        Totals b = new Totals();
        // Strictly ABAB: two slices in a row would stop the other tool for twice a slice, and a JMeter stopped
        // past its response timeout (10 s in the benchmark's plan) fails the streams it had in flight.
        for (int i = 0; i < slices; i++) {
            turn(pidA, a, sliceSeconds);
            turn(pidB, b, sliceSeconds);
        }
        return new Measurement[] {a.measurement(nameA), b.measurement(nameB)};
    }

    private void turn(long pid, Totals totals, double sliceSeconds) throws InterruptedException {
        long requests = status.requests();
        double tool = cpu.processSeconds(pid);
        double server = cpu.processesSeconds(nginx);
        double machine = cpu.machineBusySeconds();
        double steal = cpu.machineStealSeconds();
        long start = System.nanoTime();
        signal("CONT", pid);
        Thread.sleep((long) (sliceSeconds * 1000));
        signal("STOP", pid);
        long end = System.nanoTime();
        Thread.sleep(SETTLE_MILLIS);
        // minus 1: the closing reading counts its own request
        totals.requests += status.requests() - requests - 1;
        totals.seconds += (end - start) / 1e9;
        totals.tool += cpu.processSeconds(pid) - tool;
        totals.nginx += cpu.processesSeconds(nginx) - server;
        totals.machine += cpu.machineBusySeconds() - machine;
        totals.steal += cpu.machineStealSeconds() - steal;
    }

    static void signal(String signal, long pid) {
        if (!ProcessTrees.signal(signal, List.of(ProcessHandle.of(pid).orElseThrow(
                () -> new IllegalStateException("process " + pid + " is gone"))))) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
        }
    }

    private static final class Totals {
        long requests;
        double seconds;
        double tool;
        double nginx;
        double machine;
        double steal;

        Measurement measurement(String name) {
            return new Measurement(name, requests, 0, seconds, tool, nginx, machine, steal);
        }
    }
}
