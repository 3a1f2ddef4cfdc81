/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.injector;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.OperatingSystemMXBean;
import io.stampede.engine.Engine;
import io.stampede.names.PluginNames;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.locks.LockSupport;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What only the injector knows about its own time, written once a second to a CSV file while JMeter runs: the
 * JMeter process's CPU and the machine's, in cores, against the cores the JVM sees; GC pause time from the JVM's
 * GC notifications; the longest stall of a probe thread that asks to wake every millisecond (jHiccup's idea: when
 * it wakes late, every thread of the JVM, event loops and JMeter threads alike, could not run either); used heap;
 * the longest lag of the Stampede engine's own event loops ({@link LoopLagProbe}: a task queued on each loop
 * every 100 ms, timed until it runs), empty while no engine runs (a plan of stock samplers, or before the first
 * Stampede sample).
 *
 * <p>Started at the test's start by {@link InjectorMonitorAtStart}, which `stampede run` adds to every plan it runs,
 * so it runs for any plan, stock samplers too, in a non-GUI run, in each share and in each engine of a distributed
 * run (which then also sends its rows to the controller of the test running, {@link CollectorPush}).
 * Its threads are daemons: the JVM's exit ends them.
 */
public final class InjectorMonitor {
    private static final Logger LOG = LoggerFactory.getLogger(InjectorMonitor.class);
    static final String HEADER = PluginNames.INJECTOR_SERIES_HEADER;
    /**
     * The stall probe's sleep. 5 ms, not 1: a wake-up every millisecond cost 2.4 % of a loaded JMeter's CPU (issue 13's
     * profile), and the stalls worth naming (50 ms, {@code InjectorThresholds}) are still seen whole.
     */
    private static final long PROBE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final Path file;
    private final DoubleAdder gcPauseMs = new DoubleAdder();
    private final AtomicLong gcCount = new AtomicLong();
    private final AtomicLong stallMaxNanos = new AtomicLong();
    private final MachineCpu machine = new MachineCpu();
    private final LoopLagProbe loops = new LoopLagProbe(Engine::forEachLoop);

    private final CollectorPush push;

    private InjectorMonitor(Path file, CollectorPush push) {
        this.file = file;
        this.push = push;
    }

    /**
     * Starts the monitor writing to the file {@code props} name in {@value PluginNames#INJECTOR_CSV}, unless one runs
     * already: an engine runs test after test, and one series covers them all. JMeter's properties, the process's
     * own, keep the mark ({@value PluginNames#INJECTOR_MONITOR_RUNNING}), so no field of this class has to. Nothing
     * without the property.
     *
     * @return true when this call started it
     */
    static boolean startOnce(Properties props) {
        String csv = props.getProperty(PluginNames.INJECTOR_CSV);
        if (csv == null || csv.isBlank() || props.putIfAbsent(PluginNames.INJECTOR_MONITOR_RUNNING, csv) != null) {
            return false;
        }
        start(csv);
        return true;
    }

    private static void start(String csv) {
        InjectorMonitor m = new InjectorMonitor(Path.of(csv), CollectorPush.ofJMeter());
        m.listenToGc();
        daemon(m::probe, "stampede-injector-stall-probe");
        daemon(m.loops::run, "stampede-injector-loop-probe");
        daemon(m::write, "stampede-injector-monitor");
        LOG.info("Stampede injector monitor: writing {} once a second", csv);
    }

    private static void daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    private void listenToGc() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            // Concurrent cycles (G1's on Java 20+, ZGC, Shenandoah) do not stop the threads; only pauses count.
            if (gc.getName().contains("Concurrent") || !(gc instanceof NotificationEmitter emitter)) {
                continue;
            }
            emitter.addNotificationListener((n, handback) -> {
                if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                    GarbageCollectionNotificationInfo info =
                            GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                    gcPauseMs.add(info.getGcInfo().getDuration());
                    gcCount.incrementAndGet();
                }
            }, null, null);
        }
    }

    /** Asks to wake every 5 ms and keeps the longest oversleep since the last row. */
    private void probe() {
        while (true) {
            long t0 = System.nanoTime();
            LockSupport.parkNanos(PROBE_NANOS);
            long late = System.nanoTime() - t0 - PROBE_NANOS;
            stallMaxNanos.accumulateAndGet(late, Math::max);
        }
    }

    private void write() {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        int cores = Runtime.getRuntime().availableProcessors();
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
        } catch (IOException e) {
            LOG.warn("Stampede injector monitor: cannot create the folder of {}: {}", file, e.toString());
            return;
        }
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.US_ASCII))) {
            out.println(HEADER);
            out.flush();
            long start = System.nanoTime();
            long lastWall = start;
            long lastCpu = os.getProcessCpuTime();
            machine.sample();
            for (int second = 0; ; second++) {
                long next = start + TimeUnit.SECONDS.toNanos(second + 1);
                long wait;
                while ((wait = next - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
                long wall = System.nanoTime();
                long cpu = os.getProcessCpuTime();
                double processCores = (double) (cpu - lastCpu) / (wall - lastWall);
                lastWall = wall;
                lastCpu = cpu;
                double machineCores = machine.sample() * cores;
                long loopLag = loops.takeMaxNanos();
                String row = String.format(Locale.ROOT, "%d,%.3f,%.3f,%d,%.1f,%d,%.2f,%.1f,%s", second,
                        processCores, machineCores, cores, gcPauseMs.sumThenReset(), gcCount.getAndSet(0),
                        stallMaxNanos.getAndSet(0) / 1e6, memory.getHeapMemoryUsage().getUsed() / 1048576.0,
                        loopLag < 0 ? "" : String.format(Locale.ROOT, "%.2f", loopLag / 1e6));
                out.println(row);
                out.flush();
                push.send(HEADER, row);
            }
        } catch (IOException e) {
            LOG.warn("Stampede injector monitor: cannot write {}: {}", file, e.toString());
        }
    }

    /** The machine's busy share since the last call, from /proc/stat; NaN where there is none. */
    static final class MachineCpu {
        private long lastBusy = -1;
        private long lastTotal = -1;

        double sample() {
            long[] t = read();
            if (t == null) {
                return Double.NaN;
            }
            long busy = t[0];
            long total = t[1];
            double share = lastTotal < 0 || total == lastTotal ? Double.NaN
                    : (double) (busy - lastBusy) / (total - lastTotal);
            lastBusy = busy;
            lastTotal = total;
            return share;
        }

        /** {busy, total} jiffies of the "cpu" line: idle and iowait are not busy. */
        private static long[] read() {
            try {
                String line = Files.readAllLines(Path.of("/proc/stat")).get(0);
                String[] f = line.trim().split("\\s+");
                long total = 0;
                for (int i = 1; i < Math.min(f.length, 9); i++) { // user..steal; guest is inside user already
                    total += Long.parseLong(f[i]);
                }
                long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
                return new long[] {total - idle, total};
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }
    }
}
