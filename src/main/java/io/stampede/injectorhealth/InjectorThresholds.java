/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.injectorhealth;

/**
 * When a run's summary names the injector as a suspect (docs/injector.md). Each threshold is
 * a point past which the injector, not the server, can account for the latencies seen on loopback or a LAN.
 */
public final class InjectorThresholds {
    /**
     * Schedule lag is counted from 5 s after the first sample: a JMeter thread's first request pays for class
     * loading and the first connection (about 1 s here), and its schedule catches up after it; that start-up
     * would otherwise flag every run.
     */
    public static final long WARMUP_MS = 5_000;
    /** A scheduled sample counts as sent late past 10 ms after its intended send time. */
    public static final long LATE_SEND_US = 10_000;
    /** Suspect when at least 1 % of the scheduled samples were sent late. */
    public static final double LATE_SHARE = 0.01;
    /** Suspect when GC paused the JMeter JVM for at least 2 % of the run's time. */
    public static final double GC_SHARE = 0.02;
    /** Suspect when one second held a thread stall of at least 50 ms (a thread asking to wake in 5 ms woke 50 ms late). */
    public static final double STALL_MS = 50;
    /**
     * Suspect when one second held an event-loop lag of at least 50 ms: a task queued on one of the engine's loops
     * ran 50 ms later, so every response and write on that loop could wait as long. The engine's first second
     * (starting: class loading, first connects) is shown but not judged.
     */
    public static final double LOOP_LAG_MS = 50;
    /** Suspect when the machine's CPU was, on average over the run, at least 90 % busy. */
    public static final double MACHINE_CPU_SHARE = 0.90;

    private InjectorThresholds() {}
}
