/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A load generator's processes watched once a second while it runs: their CPU seconds (utime + stime, summed) and
 * resident memory (VmRSS, summed), each reading stamped with the wall clock, so a window of the run can be read
 * afterwards (after the processes are gone, when /proc has nothing left to say). A process that ended keeps its last
 * CPU seconds in the sum: of several engines, the first to finish does not take its work out of the total.
 */
final class ProcessWatch implements AutoCloseable {
    /** One reading: wall-clock milliseconds, CPU seconds so far, resident KB now. */
    record Reading(long millis, double cpuSeconds, long rssKb) {
    }

    private final CpuTimes cpu = CpuTimes.linux();
    private final Supplier<List<ProcessHandle>> processes;
    private final List<Reading> readings = new ArrayList<>();
    private final Map<Long, Double> cpuByPid = new HashMap<>();
    private final Thread thread;
    private volatile boolean stopped;

    private ProcessWatch(Supplier<List<ProcessHandle>> processes) {
        this.processes = processes;
        this.thread = new Thread(this::run, "process-watch");
        this.thread.setDaemon(true);
    }

    /** Starts watching the processes {@code processes} names at each reading (a tree's members come and go). */
    static ProcessWatch start(Supplier<List<ProcessHandle>> processes) {
        ProcessWatch w = new ProcessWatch(processes);
        w.read();
        w.thread.start();
        return w;
    }

    private void run() {
        while (!stopped) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
            read();
        }
    }

    /** Takes a reading now (also between the periodic ones, e.g. at the edges of a window). */
    Reading read() {
        List<ProcessHandle> ps = processes.get();
        long rss = 0;
        double seconds;
        synchronized (cpuByPid) {
            for (ProcessHandle p : ps) {
                // A process gone between the listing and the reading reads 0: keep what it had.
                cpuByPid.merge(p.pid(), cpu.processSeconds(p.pid()), Math::max);
                rss += rssKb(p.pid());
            }
            seconds = cpuByPid.values().stream().mapToDouble(Double::doubleValue).sum();
        }
        Reading r = new Reading(System.currentTimeMillis(), seconds, rss);
        if (!ps.isEmpty() && rss > 0) {
            synchronized (readings) {
                readings.add(r);
            }
        }
        return r;
    }

    /** The last reading taken at or before {@code millis} (the first one if none is that early). */
    Reading at(long millis) {
        synchronized (readings) {
            Reading best = readings.isEmpty() ? new Reading(millis, 0, 0) : readings.get(0);
            for (Reading r : readings) {
                if (r.millis() <= millis) {
                    best = r;
                }
            }
            return best;
        }
    }

    /** The last reading while the processes were alive. */
    Reading last() {
        return at(Long.MAX_VALUE);
    }

    /** The first reading. */
    Reading first() {
        return at(Long.MIN_VALUE);
    }

    long maxRssKb() {
        synchronized (readings) {
            return readings.stream().mapToLong(Reading::rssKb).max().orElse(0);
        }
    }

    static long rssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.substring(6).replace("kB", "").trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0; // gone between the listing and the reading
        }
        return 0;
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
    }
}
