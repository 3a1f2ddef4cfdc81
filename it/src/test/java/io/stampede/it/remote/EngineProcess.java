/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.remote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One `stampede server` on loopback, started the way a user starts it, with the PIDs of the CLI and of the
 * JMeter engine it runs, so the test can prove both are gone and kill them if they are not.
 */
public final class EngineProcess implements AutoCloseable {

    private final Process cli;
    private final List<ProcessHandle> tree;
    private final int port;
    private final Path console;

    private EngineProcess(Process cli, List<ProcessHandle> tree, int port, Path console) {
        this.cli = cli;
        this.tree = tree;
        this.port = port;
        this.console = console;
    }

    /** Starts the engine and waits until it says it is ready (it prints that once its RMI object is exported). */
    public static EngineProcess start(Path root, Path dir, int port, int rmiPort, Duration timeout, String... extra)
            throws IOException, InterruptedException {
        Path console = dir.resolve("engine-" + port + ".out");
        List<String> args = new ArrayList<>(List.of("server", "--port", Integer.toString(port),
                "--rmi-port", Integer.toString(rmiPort), "--heap", "512m",
                "--log", dir.resolve("engine-" + port + ".log").toString()));
        args.addAll(List.of(extra));
        Process p = new ProcessBuilder(StampedeCli.command(root, args.toArray(String[]::new)))
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(console.toFile()).start();
        List<ProcessHandle> tree = new ArrayList<>(List.of(p.toHandle()));
        EngineProcess engine = new EngineProcess(p, tree, port, console);
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (!engine.output().contains("stampede server: ready")) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("stampede server --port " + port + " did not become ready:\n"
                            + engine.output());
                }
                Thread.sleep(200);
            }
            p.descendants().forEach(tree::add);
            return engine;
        } catch (RuntimeException | InterruptedException e) {
            engine.close();
            throw e;
        }
    }

    public String address() {
        return "127.0.0.1:" + port;
    }

    public String output() throws IOException {
        return Files.exists(console) ? Files.readString(console) : "";
    }

    /** The CLI and the JMeter engine under it. */
    List<ProcessHandle> processes() {
        return List.copyOf(tree);
    }

    boolean awaitExit(Duration timeout) throws InterruptedException {
        return cli.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    int exitValue() {
        return cli.exitValue();
    }

    /** SIGKILL to whatever is left of the engine's process tree. */
    @Override
    public void close() {
        cli.descendants().forEach(tree::add);
        tree.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle h : tree) {
            try {
                h.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                // reported by the caller's "all gone" check
            }
        }
    }
}
