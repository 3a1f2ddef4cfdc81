/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerLogTest {

    @TempDir
    Path dir;

    // nginx 1.22's own words (ngx_drain_connections, ngx_event_accept, ngx_http_limit_*, upstream).
    private static final String REUSING =
            "2026/11/22 23:41:07 [warn] 2211#2211: 19000 worker_connections are not enough, reusing connections";
    private static final String NOT_ENOUGH =
            "2026/11/22 23:41:08 [alert] 2211#2211: 16 worker_connections are not enough";
    private static final String NOFILE =
            "2026/11/22 23:41:09 [crit] 2212#2212: accept4() failed (24: Too many open files)";

    @Test
    void eachLineCountsForTheFirstEventWhoseWordsItHas() {
        assertEquals(Optional.of(ServerLogEvent.REUSING_CONNECTIONS), ServerLogEvent.of(REUSING));
        assertEquals(Optional.of(ServerLogEvent.WORKER_CONNECTIONS), ServerLogEvent.of(NOT_ENOUGH));
        assertEquals(Optional.of(ServerLogEvent.TOO_MANY_OPEN_FILES), ServerLogEvent.of(NOFILE));
        assertEquals(Optional.of(ServerLogEvent.LIMIT_CONN), ServerLogEvent.of(
                "2026/11/22 23:41:09 [error] 7#7: *9 limiting connections by zone \"addr\", client: 127.0.0.1"));
        assertEquals(Optional.empty(), ServerLogEvent.of("2026/11/22 23:40:00 [notice] 1#1: start worker processes"));
    }

    @Test
    void onlyLinesWrittenAfterTheWatchStartedAreCounted() throws Exception {
        Path log = dir.resolve("error.log");
        Files.write(log, List.of(REUSING, REUSING, NOFILE));
        ServerLog watch = ServerLog.watch(log);
        Files.write(log, List.of(REUSING, NOT_ENOUGH, REUSING, "[notice] signal process started"),
                StandardOpenOption.APPEND);
        ServerLogFindings f = watch.read();
        assertEquals(2, f.count(ServerLogEvent.REUSING_CONNECTIONS));
        assertEquals(1, f.count(ServerLogEvent.WORKER_CONNECTIONS));
        assertEquals(0, f.count(ServerLogEvent.TOO_MANY_OPEN_FILES));
        assertTrue(f.any());
        assertEquals(List.of("\"reusing connections\" 2 times: " + ServerLogEvent.REUSING_CONNECTIONS.meaning(),
                "\"worker_connections are not enough\" 1 time: " + ServerLogEvent.WORKER_CONNECTIONS.meaning()),
                f.lines());
    }

    @Test
    void aLogCreatedOrRotatedDuringTheRunIsReadFromItsStart() throws Exception {
        Path missing = dir.resolve("later.log");
        ServerLog watch = ServerLog.watch(missing);
        assertFalse(watch.read().any());
        Files.write(missing, List.of(NOFILE));
        assertEquals(1, watch.read().count(ServerLogEvent.TOO_MANY_OPEN_FILES));

        Path rotated = dir.resolve("rotated.log");
        Files.write(rotated, List.of(REUSING, REUSING, REUSING, REUSING));
        ServerLog before = ServerLog.watch(rotated);
        Files.write(rotated, List.of(NOT_ENOUGH));
        ServerLogFindings f = before.read();
        assertEquals(1, f.count(ServerLogEvent.WORKER_CONNECTIONS));
        assertEquals(0, f.count(ServerLogEvent.REUSING_CONNECTIONS));
    }
}
