/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.scale;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One look at a JVM's footprint: Java heap in use right after a full GC (jcmd GC.run, then GC.heap_info), resident
 * memory, OS threads and open sockets from /proc.
 */
public record ProcessMemory(long heapUsedBytes, long rssBytes, int threads, int sockets) {

    // Java 17: "heap total 1048576K, used 1234K"; Java 25: "heap total reserved 8388608K, committed 1048576K, used ...".
    private static final Pattern HEAP_USED = Pattern.compile("heap\\s+total (?:reserved \\d+K, committed )?\\d+K, used (\\d+)K");
    private static final Pattern STATUS = Pattern.compile("(?m)^(VmRSS|Threads):\\s+(\\d+)");

    public static ProcessMemory of(long pid) throws IOException, InterruptedException {
        return of(pid, Path.of(System.getProperty("java.home")));
    }

    /** For a JVM of another Java installation: its own jcmd attaches to it. */
    public static ProcessMemory of(long pid, Path javaHome) throws IOException, InterruptedException {
        jcmd(javaHome, pid, "GC.run");
        Matcher heap = HEAP_USED.matcher(jcmd(javaHome, pid, "GC.heap_info"));
        if (!heap.find()) {
            throw new IllegalStateException("jcmd GC.heap_info of " + pid + " shows no heap usage");
        }
        long rss = 0;
        int threads = 0;
        Matcher m = STATUS.matcher(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
        while (m.find()) {
            if (m.group(1).equals("VmRSS")) {
                rss = Long.parseLong(m.group(2)) * 1024;
            } else {
                threads = Integer.parseInt(m.group(2));
            }
        }
        return new ProcessMemory(Long.parseLong(heap.group(1)) * 1024, rss, threads, sockets(pid));
    }

    /** Sockets among the process's file descriptors. */
    public static int sockets(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return (int) fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().startsWith("socket:");
                } catch (IOException e) {
                    return false; // closed meanwhile
                }
            }).count();
        } catch (IOException e) {
            return 0;
        }
    }

    private static String jcmd(Path javaHome, long pid, String command) throws IOException, InterruptedException {
        Path jcmd = javaHome.resolve("bin").resolve("jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("jcmd " + pid + " " + command + " failed:\n" + out);
        }
        return out;
    }
}
