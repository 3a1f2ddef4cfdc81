/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Users and rosters written straight into the SQLite database ejabberd reads (its own schema, shipped with the
 * Debian package), before the node starts: two INSERT ... SELECT statements over a counter, so 19,000 users with
 * 150 contacts each take seconds, with no registration request and no ejabberdctl call per user.
 */
public final class EjabberdUsers {

    private EjabberdUsers() {
    }

    /** The password of user{@code i}. */
    public static String password(int i) {
        return "pw" + i;
    }

    /**
     * Creates {@code db} with ejabberd's schema, users user1..user{@code users} (plain passwords, so the server offers
     * both PLAIN and SCRAM-SHA-1) and for each the next {@code rosterSize} users as contacts, subscription both, plus
     * {@code ghosts} contacts that are no user (they never come online: a roster of which only a share is online).
     */
    public static void provision(Path db, Path schema, int users, int rosterSize, int ghosts, String domain)
            throws IOException, InterruptedException {
        String sql = Files.readString(schema) + "\n"
                + "PRAGMA journal_mode = OFF;\nPRAGMA synchronous = OFF;\n" // a file made once, before the node starts
                + "BEGIN;\n"
                + "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + users + ")\n"
                + "INSERT INTO users(username, password) SELECT 'user' || i, 'pw' || i FROM n;\n"
                + "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + users + "),\n"
                + " k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < " + rosterSize + ")\n"
                + "INSERT INTO rosterusers(username, jid, nick, subscription, ask, askmessage, server, subscribe, type)\n"
                + " SELECT 'user' || i, 'user' || (((i - 1 + j) % " + users + ") + 1) || '@" + domain + "',"
                + " '', 'B', 'N', '', 'N', '', 'item' FROM n, k WHERE " + rosterSize + " > 0;\n"
                + "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + users + "),\n"
                + " k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < " + ghosts + ")\n"
                + "INSERT INTO rosterusers(username, jid, nick, subscription, ask, askmessage, server, subscribe, type)\n"
                + " SELECT 'user' || i, 'ghost' || i || '-' || j || '@" + domain + "',"
                + " '', 'B', 'N', '', 'N', '', 'item' FROM n, k WHERE " + ghosts + " > 0;\n"
                + "COMMIT;\n";
        Path script = db.resolveSibling("provision.sql");
        Files.writeString(script, sql);
        Path out = db.resolveSibling("sqlite3.out");
        Process p = new ProcessBuilder("sqlite3", db.toString())
                .redirectInput(script.toFile()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("sqlite3 could not provision the users (install the Debian package "
                    + "sqlite3): " + Folders.readQuietly(out));
        }
    }
}
