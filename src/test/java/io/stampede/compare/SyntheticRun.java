/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import io.stampede.results.LatencyHistogramFile;
import io.stampede.results.RunStatistics;
import io.stampede.results.Sample;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/** A result folder as `stampede run` writes it (results.jtl, latency.hlog, summary.txt), from known numbers. */
final class SyntheticRun {
    static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
            + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,"
            + "\"stampede_open_connections\",\"stampede_elapsed_us\",\"stampede_corrected_us\"";

    private SyntheticRun() {}

    /**
     * {@code seconds} × {@code perSecond} samples over two labels, 800 µs + an exponential tail (mean 400 µs) +
     * {@code shiftUs}; every 500th sample of label "POST /b" fails with a reset; corrected = elapsed + 100 µs.
     */
    static Path write(Path dir, long seed, long shiftUs, int seconds, int perSecond) throws IOException {
        Files.createDirectories(dir);
        SplittableRandom r = new SplittableRandom(seed);
        RunStatistics stats = new RunStatistics();
        long t0 = 1_700_000_000_000L;
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve(RunFolder.JTL)))) {
            w.println(HEADER);
            int n = 0;
            for (int s = 0; s < seconds; s++) {
                for (int i = 0; i < perSecond; i++) {
                    long us = 800 + (long) (-400 * Math.log(1 - r.nextDouble())) + shiftUs;
                    long ts = t0 + s * 1000L + (i * 1000L / perSecond);
                    String label = i % 2 == 0 ? "GET /a" : "POST /b";
                    boolean fail = label.startsWith("POST") && ++n % 250 == 0;
                    String code = fail ? "Non HTTP response code: java.net.SocketException" : "200";
                    String msg = fail ? "Non HTTP response message: Connection reset" : "OK";
                    w.printf("%d,%d,%s,%s,%s,t 1-1,text,%s,,83,71,1,1,http://h/,%d,0,0,1,%d,%d%n", ts, us / 1000,
                            label, code, msg, !fail, us / 1000, us, us + 100);
                    stats.add(new Sample(ts, us / 1000, label, code, msg, !fail, 1, 1, us, us + 100));
                }
            }
        }
        LatencyHistogramFile.write(dir.resolve(RunFolder.HLOG), stats, stats.firstStartMillis(),
                stats.firstStartMillis() + stats.spanMs());
        Files.writeString(dir.resolve(RunFolder.SUMMARY), "stampede run: synthetic.jmx against 127.0.0.1:1\n");
        return dir;
    }
}
