/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import io.stampede.it.support.NginxServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * wrk with the same connections against the same nginx: a warm-up invocation, then the measured one. wrk's CPU
 * comes from its parent shell's cutime/cstime after wrk exits, so the whole measured process is counted.
 */
final class WrkLoad {

    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in ");
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
    private static final Pattern SOCKET_ERRORS =
            Pattern.compile("Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
    private static final Pattern CHILD_CPU = Pattern.compile("CHILD_CPU_TICKS (\\d+) (\\d+)");
    /** Runs wrk, then prints the shell's reaped-children CPU (fields 16 and 17 of /proc/self/stat). */
    private static final String WRAPPER = "wrk \"$@\"; rc=$?; read -r -a s < /proc/$$/stat;"
            + " echo \"CHILD_CPU_TICKS ${s[15]} ${s[16]}\"; exit $rc";

    private final NginxServer nginx;
    private final CpuTimes cpu;
    private final BenchOptions options;
    private final Path workDir;

    WrkLoad(NginxServer nginx, CpuTimes cpu, BenchOptions options, Path workDir) {
        this.nginx = nginx;
        this.cpu = cpu;
        this.options = options;
        this.workDir = workDir;
    }

    Measurement measure() throws IOException, InterruptedException {
        if (options.warmupSeconds() > 0) {
            run(options.warmupSeconds(), "wrk-warmup.out");
        }
        CpuWindow window = CpuWindow.open(cpu, () -> 0.0, nginx.processes());
        String out = run(options.measuredSeconds(), "wrk.out");
        CpuWindow.Ended ended = window.end();
        long requests = Long.parseLong(find(REQUESTS, out, 1));
        long errors = 0;
        Matcher non2xx = NON_2XX.matcher(out);
        if (non2xx.find()) {
            errors += Long.parseLong(non2xx.group(1));
        }
        Matcher socket = SOCKET_ERRORS.matcher(out);
        if (socket.find()) {
            for (int g = 1; g <= 4; g++) {
                errors += Long.parseLong(socket.group(g));
            }
        }
        Matcher ticks = CHILD_CPU.matcher(out);
        if (!ticks.find()) {
            throw new IllegalStateException("wrk's CPU time is missing from its output:\n" + out);
        }
        double wrkCpu = (Long.parseLong(ticks.group(1)) + Long.parseLong(ticks.group(2))) / (double) cpu.ticksPerSecond();
        return new Measurement("wrk", requests, errors, (ended.endMillis() - ended.startMillis()) / 1000.0, wrkCpu,
                ended.nginxCpu(), ended.machineCpu(), ended.stealCpu());
    }

    private String run(int seconds, String outputName) throws IOException, InterruptedException {
        int threads = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), options.connections()));
        Path output = workDir.resolve(outputName);
        Files.createDirectories(workDir);
        Process wrk = new ProcessBuilder(List.of("bash", "-c", WRAPPER, "wrk", "-t" + threads,
                "-c" + options.connections(), "-d" + seconds + "s", nginx.url("/test.txt")))
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        if (!wrk.waitFor(seconds + 60L, TimeUnit.SECONDS)) {
            wrk.descendants().forEach(ProcessHandle::destroyForcibly);
            wrk.destroyForcibly();
            throw new IllegalStateException("wrk did not finish within " + (seconds + 60) + " s");
        }
        String out = Files.readString(output);
        if (wrk.exitValue() != 0) {
            throw new IllegalStateException("wrk exited with " + wrk.exitValue() + ":\n" + out);
        }
        return out;
    }

    private static String find(Pattern pattern, String text, int group) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("unexpected wrk output (no '" + pattern + "'):\n" + text);
        }
        return m.group(group);
    }
}
