/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

/**
 * What one tool achieved over the measured window: requests completed, wall seconds, CPU seconds of the load
 * generator, of nginx and of the whole machine (the rest is other people's work on a shared box), and the steal:
 * time the hypervisor gave to other guests while this one wanted to run.
 */
record Measurement(String tool, long requests, long errors, double seconds, double loadGeneratorCpu,
        double nginxCpu, double machineCpu, double stealCpu) {

    /** The same window with the tool's error count (when counted apart from the window's requests). */
    Measurement withErrors(long n) {
        return new Measurement(tool, requests, n, seconds, loadGeneratorCpu, nginxCpu, machineCpu, stealCpu);
    }

    double requestsPerSecond() {
        return requests / seconds;
    }

    double cores() {
        return loadGeneratorCpu / seconds;
    }

    double cpuMicrosPerRequest() {
        return requests == 0 ? Double.NaN : loadGeneratorCpu * 1e6 / requests;
    }

    double nginxCores() {
        return nginxCpu / seconds;
    }

    /** Busy cores not used by the load generator or nginx during the window (steal not included). */
    double otherCores() {
        return Math.max(0, (machineCpu - stealCpu - loadGeneratorCpu - nginxCpu) / seconds);
    }

    /** Cores' worth of time the hypervisor ran someone else while this machine wanted the CPU. */
    double stealCores() {
        return stealCpu / seconds;
    }
}
