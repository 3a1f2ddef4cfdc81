/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.injectorhealth;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The injector's own share of a run's time: schedule lag from the JTL, and the time series the agent inside
 * JMeter wrote (CPU, GC pauses, thread stalls). Names the injector as a suspect past {@link InjectorThresholds}.
 */
public record InjectorShare(long scheduled, long late, long maxLagUs, Optional<InjectorSeries> series,
                            long runMillis) {

    public static InjectorShare of(ScheduleLag lag, Optional<InjectorSeries> series, long runMillis) {
        return new InjectorShare(lag.scheduled(), lag.late(), lag.maxLagUs(), series, runMillis);
    }

    public double lateShare() {
        return scheduled == 0 ? 0 : (double) late / scheduled;
    }

    /** One clause per threshold crossed; empty when the injector is not a suspect. */
    public List<String> suspicions() {
        List<String> s = new ArrayList<>();
        if (scheduled > 0 && lateShare() >= InjectorThresholds.LATE_SHARE) {
            s.add(String.format(Locale.ROOT, "%.1f %% of samples were sent more than %d ms late", 100 * lateShare(),
                    InjectorThresholds.LATE_SEND_US / 1000));
        }
        series.ifPresent(x -> {
            double gcMs = x.gcPauseMs();
            if (runMillis > 0 && gcMs >= InjectorThresholds.GC_SHARE * runMillis) {
                s.add(String.format(Locale.ROOT, "GC paused %.1f s in all (%.1f %% of the run)", gcMs / 1000,
                        100 * gcMs / runMillis));
            }
            if (x.maxStallMs() >= InjectorThresholds.STALL_MS) {
                s.add(String.format(Locale.ROOT, "threads waited up to %.0f ms for the CPU", x.maxStallMs()));
            }
            if (x.maxLoopLagAfterStartMs() >= InjectorThresholds.LOOP_LAG_MS) {
                s.add(String.format(Locale.ROOT, "the event loops ran tasks up to %.0f ms late",
                        x.maxLoopLagAfterStartMs()));
            }
            if (x.cores() > 0 && x.meanMachineCpu() >= InjectorThresholds.MACHINE_CPU_SHARE * x.cores()) {
                s.add(String.format(Locale.ROOT, "CPU %.2f of %d cores busy (JMeter %.2f)", x.meanMachineCpu(),
                        x.cores(), x.meanProcessCpu()));
            }
        });
        return s;
    }

    public boolean suspect() {
        return !suspicions().isEmpty();
    }

    /** The summary's line: the figures, and the warning when a threshold was crossed. */
    public String line() {
        List<String> parts = new ArrayList<>();
        if (scheduled > 0) {
            parts.add(String.format(Locale.ROOT, "%.1f %% sent >%d ms late (max %.1f ms)", 100 * lateShare(),
                    InjectorThresholds.LATE_SEND_US / 1000, maxLagUs / 1000.0));
        }
        series.ifPresent(x -> parts.add(String.format(Locale.ROOT,
                "CPU JMeter %.2f, machine %.2f of %d cores; GC %.2f s; stalls p90 %.1f ms, max %.0f ms; %s",
                x.meanProcessCpu(), x.meanMachineCpu(), x.cores(), x.gcPauseMs() / 1000, x.p90StallMs(),
                x.maxStallMs(), x.hasLoopLag() ? String.format(Locale.ROOT, "event loops lag p90 %.1f ms, max %.0f ms",
                        x.p90LoopLagMs(), x.maxLoopLagMs()) : "event loops not probed (no Stampede engine ran)")));
        if (parts.isEmpty()) {
            return "injector: no schedule and no injector.csv: nothing measured";
        }
        String figures = "injector: " + String.join("; ", parts);
        List<String> s = suspicions();
        return s.isEmpty() ? figures + " (below the thresholds)"
                : figures + "\n  SUSPECT injector: " + String.join("; ", s)
                + " - the latencies above include the injector's own delay";
    }
}
