/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.FreePort;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The built-in target as a user runs it, in its own process, against a client that pipelines requests and never
 * reads an answer: the target must stop reading that client instead of queueing answers until it runs out of
 * memory. Measured from outside, as an operator would: the bytes the target accepted and its resident memory.
 */
class BuiltInTargetFloodIT {
    private static final Path ROOT = Path.of(System.getProperty("stampede.root", "..")).toAbsolutePath().normalize();
    private static final byte[] GET = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    /** Far more requests than the kernel's buffers hold; a target that keeps reading takes them all. */
    private static final long OFFERED = 256L * 1024 * 1024;
    private static final long WATCH_MS = 12_000;
    /** A target that paused the connection takes nothing more; one that reads on takes megabytes. */
    private static final long TAKEN_AT_MOST = 512 * 1024;
    private static final long RSS_GROWTH_AT_MOST_KB = 150 * 1024;

    @Test
    void aClientThatPipelinesAndNeverReadsStallsInsteadOfGrowingTheTarget() throws Exception {
        int port = FreePort.loopback();
        Process target = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dstampede.root=" + ROOT, "-jar", ROOT.resolve("src/target/stampede.jar").toString(), "target",
                "--port", Integer.toString(port))).redirectErrorStream(true).start();
        try {
            String line = new String(target.getInputStream().readNBytes(40), StandardCharsets.UTF_8);
            assertTrue(line.startsWith("stampede target: serving"), line);
            long rssBefore = rssKb(target.pid());
            AtomicLong written = new AtomicLong();
            try (Socket s = new Socket()) {
                s.setReceiveBufferSize(4096);
                s.connect(new InetSocketAddress("127.0.0.1", port));
                Thread writer = pipeline(s, written);
                // The kernel's buffers take a few MB before any target pushes back; wait until the writes stall
                // (2 s without a byte more; at most 30 s), then watch whether the target takes more.
                long last = -1;
                for (int still = 0, ticks = 0; still < 10 && ticks < 150; ticks++) {
                    Thread.sleep(200);
                    long now = written.get();
                    still = now == last ? still + 1 : 0;
                    last = now;
                }
                long stalledAt = written.get();
                Thread.sleep(WATCH_MS);
                long takenSince = written.get() - stalledAt;
                long growth = rssKb(target.pid()) - rssBefore;
                s.close();
                writer.join(10_000);
                assertTrue(takenSince < TAKEN_AT_MOST, "the target kept reading a client that never reads: "
                        + takenSince / 1024 + " KB of requests more in " + WATCH_MS / 1000 + " s after "
                        + stalledAt / 1024 + " KB, resident memory +" + growth / 1024 + " MB");
                assertTrue(growth < RSS_GROWTH_AT_MOST_KB, "the target's resident memory grew by " + growth / 1024
                        + " MB for one client that never reads");
            }
        } finally {
            target.destroy();
            if (!target.waitFor(10, TimeUnit.SECONDS)) {
                target.destroyForcibly();
            }
        }
    }

    private static Thread pipeline(Socket s, AtomicLong written) {
        byte[] batch = new byte[GET.length * 1024];
        for (int i = 0; i < 1024; i++) {
            System.arraycopy(GET, 0, batch, i * GET.length, GET.length);
        }
        Thread writer = new Thread(() -> {
            try {
                OutputStream out = s.getOutputStream();
                while (written.get() < OFFERED) {
                    out.write(batch);
                    written.addAndGet(batch.length);
                }
            } catch (IOException e) {
                // the test closed the socket under the blocked write
            }
        }, "pipelining-client");
        writer.setDaemon(true);
        writer.start();
        return writer;
    }

    private static long rssKb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no VmRSS for process " + pid);
    }
}
