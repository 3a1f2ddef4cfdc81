/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.Locale;
import java.util.Optional;

/**
 * A line of a server's error log that explains connections closed or refused by the server. The words are nginx's
 * own (ngx_event_accept / ngx_drain_connections / limit_conn / limit_req / the upstream module); a line matches the
 * first event whose words it contains.
 */
public enum ServerLogEvent {
    REUSING_CONNECTIONS("reusing connections", "nginx closed idle keep-alive connections to make room for new ones:"
            + " a worker reached its worker_connections; raise worker_connections or worker_processes, and add"
            + " reuseport to every listen so the kernel spreads connections evenly over the workers"),
    WORKER_CONNECTIONS("worker_connections are not enough", "nginx had no free connection and dropped new ones:"
            + " raise worker_connections (per worker) or worker_processes"),
    TOO_MANY_OPEN_FILES("too many open files", "the server ran out of file descriptors: raise worker_rlimit_nofile"
            + " (nginx) and LimitNOFILE (systemd) or ulimit -n"),
    LIMIT_CONN("limiting connections by zone", "nginx's limit_conn refused connections over its limit"),
    LIMIT_REQ("limiting requests", "nginx's limit_req refused requests over its rate"),
    UPSTREAM_TIMED_OUT("upstream timed out", "a backend behind nginx did not answer within proxy_read_timeout"),
    UPSTREAM_CLOSED("upstream prematurely closed", "a backend behind nginx closed its connection early"),
    NO_LIVE_UPSTREAMS("no live upstreams", "nginx had no healthy backend left");

    private final String words;
    private final String meaning;

    ServerLogEvent(String words, String meaning) {
        this.words = words;
        this.meaning = meaning;
    }

    /** The words the server writes, as they appear in the log (lower case). */
    public String words() {
        return words;
    }

    /** What it means and what to change. */
    public String meaning() {
        return meaning;
    }

    public static Optional<ServerLogEvent> of(String line) {
        String l = line.toLowerCase(Locale.ROOT);
        for (ServerLogEvent e : values()) {
            if (l.contains(e.words)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }
}
