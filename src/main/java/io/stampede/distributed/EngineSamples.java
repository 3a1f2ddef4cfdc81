/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import io.stampede.results.JtlTail;
import io.stampede.results.Sample;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The samples a `stampede server --metrics` engine spools (io.stampede.remote.EngineSampleSpool in the plugin), fed
 * to its metrics: once a second, each stream's files in order, every row once ({@link JtlTail}, as `stampede run`
 * reads its JTL); a file is deleted once a later one of its stream exists or the stream's end is marked, so the
 * folder never holds more than about a file a stream.
 */
final class EngineSamples implements AutoCloseable {
    static final String ROWS = ".jtl";
    static final String END = ".end";
    private static final long POLL_MS = 1000;

    private final Path dir;
    private final Consumer<Sample> sink;
    private final PrintWriter err;
    /** The file each stream is being read from, by stream. */
    private final Map<String, Reading> reading = new HashMap<>();
    private Thread poller;
    private boolean closed;
    private String lastFailure;

    private record Reading(String file, JtlTail tail) {}

    EngineSamples(Path dir, Consumer<Sample> sink, PrintWriter err) {
        this.dir = dir;
        this.sink = sink;
        this.err = err;
    }

    /** Reads the folder once a second from a daemon thread until closed. */
    static EngineSamples start(Path dir, Consumer<Sample> sink, PrintWriter err) {
        EngineSamples s = new EngineSamples(dir, sink, err);
        s.poller = new Thread(s::pollUntilClosed, "stampede-server-samples");
        s.poller.setDaemon(true);
        s.poller.start();
        return s;
    }

    private void pollUntilClosed() {
        try {
            while (!isClosed()) {
                poll();
                Thread.sleep(POLL_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    /** One pass over the folder: every complete row read so far goes to the metrics; a failure is said once. */
    synchronized void poll() {
        try {
            pollFolder();
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            String why = e.toString();
            if (!why.equals(lastFailure)) {
                lastFailure = why;
                err.println("stampede server: the engine's samples for --metrics cannot be read from " + dir + " ("
                        + why + "); the metrics may miss samples");
                err.flush();
            }
        }
    }

    private void pollFolder() throws IOException {
        Map<String, List<String>> files = new TreeMap<>();
        TreeSet<String> ended = new TreeSet<>();
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : entries.sorted(Comparator.comparing(Path::toString)).toList()) {
                String name = p.getFileName().toString();
                if (name.endsWith(ROWS) && name.lastIndexOf('-') > 0) {
                    files.computeIfAbsent(name.substring(0, name.lastIndexOf('-')), k -> new ArrayList<>()).add(name);
                } else if (name.endsWith(END)) {
                    ended.add(name.substring(0, name.length() - END.length()));
                }
            }
        }
        TreeSet<String> streams = new TreeSet<>(files.keySet());
        streams.addAll(ended);
        for (String stream : streams) {
            List<String> names = files.getOrDefault(stream, List.of());
            for (int i = 0; i < names.size(); i++) {
                Reading r = reading.get(stream);
                if (r == null || !r.file().equals(names.get(i))) {
                    if (r != null) {
                        finish(stream, r);
                    }
                    r = new Reading(names.get(i), new JtlTail(dir.resolve(names.get(i))));
                    reading.put(stream, r);
                }
                r.tail().poll(sink);
                if (i + 1 < names.size()) {
                    finish(stream, r); // the spool closed it before it started the next one
                }
            }
            if (ended.contains(stream)) {
                Reading r = reading.get(stream);
                if (r != null) {
                    finish(stream, r);
                }
                Files.deleteIfExists(dir.resolve(stream + END));
            }
        }
    }

    /** The file's last rows read, then the file closed and deleted. */
    private void finish(String stream, Reading r) throws IOException {
        r.tail().poll(sink);
        r.tail().close();
        Files.deleteIfExists(dir.resolve(r.file()));
        reading.remove(stream);
    }

    /** The last rows read, the thread stopped and the folder deleted; safe to call twice (Ctrl-C and the end). */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (poller != null) {
            poller.interrupt();
            try {
                poller.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            poll();
            for (Reading r : reading.values()) {
                try {
                    r.tail().close();
                } catch (IOException e) {
                    // the folder goes next
                }
            }
            reading.clear();
            try (Stream<Path> entries = Files.list(dir)) {
                for (Path p : entries.toList()) {
                    Files.deleteIfExists(p);
                }
                Files.deleteIfExists(dir);
            } catch (IOException e) {
                err.println("stampede server: cannot remove " + dir + ": " + e.getMessage());
                err.flush();
            }
        }
    }
}
