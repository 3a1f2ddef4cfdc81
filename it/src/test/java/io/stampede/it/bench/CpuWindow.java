/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import java.util.List;
import java.util.function.Supplier;

/** CPU counters read at the start of the measured window, closed into a {@link Measurement} at its end. */
final class CpuWindow {

    private final CpuTimes cpu;
    private final Supplier<Double> loadGenerator;
    private final List<ProcessHandle> nginx;
    private final long startMillis;
    private final double loadGeneratorStart;
    private final double nginxStart;
    private final double machineStart;
    private final double stealStart;

    private CpuWindow(CpuTimes cpu, Supplier<Double> loadGenerator, List<ProcessHandle> nginx) {
        this.cpu = cpu;
        this.loadGenerator = loadGenerator;
        this.nginx = nginx;
        this.startMillis = System.currentTimeMillis();
        this.loadGeneratorStart = loadGenerator.get();
        this.nginxStart = cpu.processesSeconds(nginx);
        this.machineStart = cpu.machineBusySeconds();
        this.stealStart = cpu.machineStealSeconds();
    }

    static CpuWindow open(CpuTimes cpu, Supplier<Double> loadGeneratorSeconds, List<ProcessHandle> nginx) {
        return new CpuWindow(cpu, loadGeneratorSeconds, nginx);
    }

    long startMillis() {
        return startMillis;
    }

    /** Reads the counters again; {@code requests} and {@code errors} are the tool's own count for the window. */
    Ended end() {
        long endMillis = System.currentTimeMillis();
        return new Ended(startMillis, endMillis, loadGenerator.get() - loadGeneratorStart,
                cpu.processesSeconds(nginx) - nginxStart, cpu.machineBusySeconds() - machineStart,
                cpu.machineStealSeconds() - stealStart);
    }

    record Ended(long startMillis, long endMillis, double loadGeneratorCpu, double nginxCpu, double machineCpu,
            double stealCpu) {
        Measurement measurement(String tool, long requests, long errors) {
            return new Measurement(tool, requests, errors, (endMillis - startMillis) / 1000.0, loadGeneratorCpu,
                    nginxCpu, machineCpu, stealCpu);
        }
    }
}
