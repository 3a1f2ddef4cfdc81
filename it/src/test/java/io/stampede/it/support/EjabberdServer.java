/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The Debian ejabberd, started as a child Erlang node from a temporary folder of its own: its own configuration,
 * SQLite database, Mnesia spool, log, node name, cookie and ports (a free c2s port on loopback, a free distribution
 * port without epmd), so it never meets the system service (stopped, or started by the package's postinst on a fresh
 * machine on 5222 as {@code ejabberd@localhost}).
 *
 * <p>Users are provisioned in bulk before the node starts: the SQLite file ejabberd reads is filled by one
 * {@code sqlite3} statement ({@link EjabberdUsers}), so a test of 19,000 users costs no registration request.
 * {@link #close()} stops the node and deletes the folder; a shutdown hook does the same if a test aborts.
 */
public final class EjabberdServer implements AutoCloseable {

    /** The XMPP domain served. */
    public static final String DOMAIN = "stampede.test";

    private static final String ERL = "/usr/bin/erl";
    private static final String SCHEMA = "/usr/share/ejabberd/sql/lite.sql";
    private static final String LIBS = "/usr/lib/x86_64-linux-gnu";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final int START_ATTEMPTS = 3;

    private final Path dir;
    private final int port;
    private final int webSocketPort;
    private final int secureWebSocketPort;
    private final Process process;
    private final Thread shutdownHook;

    private EjabberdServer(Path dir, int port, int webSocketPort, int secureWebSocketPort, Process process) {
        this.dir = dir;
        this.port = port;
        this.webSocketPort = webSocketPort;
        this.secureWebSocketPort = secureWebSocketPort;
        this.process = process;
        this.shutdownHook = new Thread(this::stopAndDelete, "ejabberd-cleanup-" + port);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * What to start.
     *
     * @param users users user1..userN, password {@link EjabberdUsers#password(int)}
     * @param rosterSize contacts per user that are users of the test (the next users, subscription both)
     * @param rosterGhosts further contacts per user that never log in (a roster of which only a share is online)
     * @param starttlsRequired whether the server refuses to authenticate before STARTTLS
     * @param maxStanzaSize bytes; a larger stanza is a policy-violation stream error
     */
    public record Options(int users, int rosterSize, int rosterGhosts, boolean starttlsRequired, int maxStanzaSize) {
        public Options {
            if (users < 1) {
                throw new IllegalArgumentException("users must be at least 1, got " + users);
            }
            if (rosterSize < 0 || rosterSize >= users) {
                throw new IllegalArgumentException("rosterSize must be between 0 and users - 1, got " + rosterSize);
            }
        }

        public static Options of(int users, int rosterSize) {
            return new Options(users, rosterSize, 0, true, 65536);
        }
    }

    public static EjabberdServer start(Options options) {
        Path dir;
        try {
            dir = Files.createTempDirectory("stampede-ejabberd-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary folder for ejabberd", e);
        }
        try {
            TestCertificate cert = TestCertificate.make(dir, DOMAIN);
            Files.writeString(dir.resolve("server.pem"),
                    Files.readString(cert.certificate()) + Files.readString(cert.key()));
            Files.writeString(dir.resolve("inetrc"), "");
            EjabberdUsers.provision(dir.resolve("ejabberd.db"), Path.of(SCHEMA), options.users(),
                    options.rosterSize(), options.rosterGhosts(), DOMAIN);
            IllegalStateException last = null;
            for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
                int c2s = FreePort.loopback();
                int dist = FreePort.loopback();
                int ws = FreePort.loopback();
                int wss = FreePort.loopback();
                try {
                    return launch(options, dir, c2s, dist, ws, wss);
                } catch (IllegalStateException e) {
                    last = e; // usually a port taken between FreePort and ejabberd's bind: try others
                }
            }
            throw last;
        } catch (IOException e) {
            Folders.deleteQuietly(dir);
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Folders.deleteQuietly(dir);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while preparing ejabberd", e);
        } catch (RuntimeException e) {
            Folders.deleteQuietly(dir);
            throw e;
        }
    }

    private static EjabberdServer launch(Options options, Path dir, int c2s, int dist, int ws, int wss)
            throws IOException {
        Files.writeString(dir.resolve("ejabberd.yml"), config(options, dir, c2s, ws, wss));
        String node = "stampede" + dist + "@localhost";
        ProcessBuilder b = new ProcessBuilder(ERL, "-sname", node, "-setcookie", UUID.randomUUID().toString(),
                "+K", "true", "+P", "1000000", "+Q", "65536",
                "-erl_epmd_port", Integer.toString(dist), "-start_epmd", "false",
                "-kernel", "inet_dist_use_interface", "{127,0,0,1}",
                "-mnesia", "dir", "\"" + dir.resolve("spool") + "\"", "-noinput", "-s", "ejabberd")
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("erl.out").toFile());
        b.environment().put("EJABBERD_CONFIG_PATH", dir.resolve("ejabberd.yml").toString());
        b.environment().put("EJABBERD_LOG_PATH", dir.resolve("ejabberd.log").toString());
        b.environment().put("ERL_LIBS", LIBS);
        b.environment().put("ERL_INETRC", dir.resolve("inetrc").toString());
        b.environment().put("ERL_CRASH_DUMP", dir.resolve("erl_crash.dump").toString());
        b.environment().put("ERL_DIST_PORT", Integer.toString(dist));
        b.environment().put("ERL_MAX_PORTS", "65536");
        // Every collection a full sweep: a session's process keeps the heap its login grew (the roster, the presence
        // probes), about 400 KB, until it is swept; with this a node holds about a third of the memory per online
        // user, so 100,000 users on six nodes fit 24 GB.
        b.environment().put("ERL_FULLSWEEP_AFTER", "0");
        b.environment().put("HOME", dir.toString());
        Process process;
        try {
            process = b.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + ERL + " (install the Debian package ejabberd)", e);
        }
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("ejabberd exited with " + process.exitValue() + ": "
                        + Folders.readQuietly(dir.resolve("erl.out")) + Folders.readQuietly(dir.resolve("ejabberd.log")));
            }
            if (FreePort.accepts(c2s) && FreePort.accepts(ws) && FreePort.accepts(wss) && XmppLoginProbe.authenticates(
                    "ws://127.0.0.1:" + ws + "/ws", DOMAIN, "user1", EjabberdUsers.password(1))) {
                return new EjabberdServer(dir, c2s, ws, wss, process);
            }
            sleep(100);
        }
        ProcessTrees.kill(process);
        throw new IllegalStateException("ejabberd did not accept on 127.0.0.1:" + c2s + " and log user1 in within "
                + START_TIMEOUT
                + ": " + Folders.readQuietly(dir.resolve("erl.out")));
    }

    static String config(Options options, Path dir, int c2s, int ws, int wss) {
        return String.join("\n",
                "hosts: [\"" + DOMAIN + "\"]",
                "loglevel: warning",
                "certfiles: [\"" + dir.resolve("server.pem") + "\"]",
                "sql_type: sqlite",
                "sql_database: \"" + dir.resolve("ejabberd.db") + "\"",
                "sql_pool_size: 1",
                "default_db: sql",
                "auth_method: sql",
                "auth_password_format: plain",
                // Logins at 100/s and tens of thousands of sessions: no shaper, no per-IP limits of the defaults.
                "shaper: {}",
                "shaper_rules: {}",
                "max_fsm_queue: 100000",
                "listen:",
                "  - port: " + c2s,
                "    ip: \"127.0.0.1\"",
                "    module: ejabberd_c2s",
                "    backlog: 4096",
                "    starttls: true",
                "    starttls_required: " + options.starttlsRequired(),
                "    max_stanza_size: " + options.maxStanzaSize(),
                // XMPP over WebSocket (RFC 7395), in cleartext and in TLS (wss): no STARTTLS there.
                "  - port: " + ws,
                "    ip: \"127.0.0.1\"",
                "    module: ejabberd_http",
                "    backlog: 4096",
                "    request_handlers:",
                "      /ws: ejabberd_http_ws",
                "  - port: " + wss,
                "    ip: \"127.0.0.1\"",
                "    module: ejabberd_http",
                "    backlog: 4096",
                "    tls: true",
                "    request_handlers:",
                "      /ws: ejabberd_http_ws",
                "modules:",
                "  mod_roster: {versioning: false}",
                "  mod_disco: {}",
                "  mod_ping: {}",
                "");
    }

    /** The c2s port on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** XMPP over WebSocket in cleartext: ws://127.0.0.1:PORT/ws. */
    public String webSocketUrl() {
        return "ws://127.0.0.1:" + webSocketPort + "/ws";
    }

    /** XMPP over WebSocket in TLS (the test certificate; trust-all): wss://127.0.0.1:PORT/ws. */
    public String secureWebSocketUrl() {
        return "wss://127.0.0.1:" + secureWebSocketPort + "/ws";
    }

    public Path dir() {
        return dir;
    }

    /** The Erlang VM's process (SIGSTOP/SIGCONT for a server that stops answering). */
    public List<ProcessHandle> processes() {
        return ProcessTrees.withDescendants(process.toHandle());
    }

    /** What ejabberd logged, for assertion messages. */
    public String log() {
        return Folders.readQuietly(dir.resolve("ejabberd.log")) + Folders.readQuietly(dir.resolve("erl.out"));
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook runs anyway
        }
        stopAndDelete();
    }

    private void stopAndDelete() {
        // A frozen node (a test's SIGSTOP) would ignore the SIGKILL's siblings: continue it first.
        ProcessTrees.signal("CONT", processes());
        ProcessTrees.kill(process);
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Folders.deleteQuietly(dir);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting ejabberd", e);
        }
    }
}
