/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** CPU time from /proc: of one process (utime + stime), of a process group, and of the whole machine. */
final class CpuTimes {

    private final long ticksPerSecond;

    CpuTimes(long ticksPerSecond) {
        this.ticksPerSecond = ticksPerSecond;
    }

    /** Linux's USER_HZ from {@code getconf CLK_TCK}; 100 on every mainstream kernel if getconf is missing. */
    static CpuTimes linux() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor();
            return new CpuTimes(Long.parseLong(out));
        } catch (IOException | NumberFormatException e) {
            return new CpuTimes(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new CpuTimes(100);
        }
    }

    long ticksPerSecond() {
        return ticksPerSecond;
    }

    /** utime + stime of one process, in seconds; 0 if it is gone. */
    double processSeconds(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            return 0;
        }
        // Fields after the command name, which is in parentheses and may hold spaces: state is field 3.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long utime = Long.parseLong(f[11]); // field 14
        long stime = Long.parseLong(f[12]); // field 15
        return (utime + stime) / (double) ticksPerSecond;
    }

    double processesSeconds(List<ProcessHandle> processes) {
        return processes.stream().mapToDouble(p -> processSeconds(p.pid())).sum();
    }

    /** Busy CPU seconds of the whole machine (all cores; everything but idle and iowait). */
    double machineBusySeconds() {
        String[] f = machineLine();
        long total = 0;
        for (int i = 1; i < f.length && i <= 8; i++) { // user nice system idle iowait irq softirq steal
            total += Long.parseLong(f[i]);
        }
        long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
        return (total - idle) / (double) ticksPerSecond;
    }

    /**
     * CPU seconds the hypervisor gave to others while this machine's cores wanted to run (steal, all cores): a
     * window with steal ran on less CPU than its figures assume.
     */
    double machineStealSeconds() {
        String[] f = machineLine();
        return f.length > 8 ? Long.parseLong(f[8]) / (double) ticksPerSecond : 0;
    }

    /** The "cpu" line of /proc/stat (all cores), split into its fields. */
    private static String[] machineLine() {
        try {
            return Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/stat", e);
        }
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
