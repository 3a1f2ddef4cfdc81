/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The XMPP benchmark's users and login rate divided over its engines, one engine per ejabberd node: engine i logs in
 * users user1..userK of node i at its own whole number of logins per second (the plan's ramp is users × 1000 ÷ rate
 * in whole milliseconds, so a rate must be whole). The rate is divided as shares divide whole numbers (the remainder
 * one each to the first engines: 100/s over 6 is 17, 17, 17, 17, 16, 16) and the users in proportion to each
 * engine's rate, in whole JMeter threads, so every engine ramps over the same time and the engines together log in
 * at the rate asked. Each engine and its node hold one socket per user, so a part must fit the per-process file
 * limit with {@link #FILES_TO_SPARE} to spare (jars, logs, the node's own files).
 *
 * @param parts each engine's users and logins per second, in engine order
 */
record XmppSplit(List<Part> parts) {
    /** Files an engine (JMeter's jars and logs) or a node (its database, logs, listeners) holds besides its users. */
    static final int FILES_TO_SPARE = 1000;

    /** One engine's (and its node's) users and logins per second. */
    record Part(int users, int loginRate) {
        long rampMillis() {
            return users * 1000L / loginRate;
        }
    }

    XmppSplit {
        parts = List.copyOf(parts);
    }

    /**
     * Divides {@code users} in JMeter threads of {@code perThread} sessions and {@code loginRate} over {@code engines}
     * engines; refuses, naming the option and the fix, a split that leaves an engine without a thread or a login per
     * second, or gives an engine more users than {@code fileLimit} less {@link #FILES_TO_SPARE}, or not more than
     * {@code onlineContacts} (the users of the test in each roster live on the same node).
     */
    static XmppSplit of(int users, int perThread, int loginRate, int engines, long fileLimit, int onlineContacts) {
        if (engines < 1) {
            throw new IllegalArgumentException("--nodes must be at least 1, got " + engines);
        }
        if (perThread < 1 || users % perThread != 0) {
            throw new IllegalArgumentException("--users " + users + " must be a multiple of --sessions-per-thread "
                    + perThread);
        }
        if (loginRate < engines) {
            throw new IllegalArgumentException("--login-rate " + loginRate + " gives less than one login per second "
                    + "to some of the " + engines + " engines: ask at least " + engines + "/s");
        }
        int threads = users / perThread;
        if (threads < engines) {
            throw new IllegalArgumentException("--users " + users + " in threads of --sessions-per-thread " + perThread
                    + " are " + threads + " JMeter threads, fewer than the " + engines + " engines: give more users or "
                    + "fewer sessions per thread");
        }
        int[] rates = new int[engines];
        int[] parts = new int[engines];
        long[] remainders = new long[engines];
        int given = 0;
        for (int i = 0; i < engines; i++) {
            rates[i] = loginRate / engines + (i < loginRate % engines ? 1 : 0);
            long exact = (long) threads * rates[i];
            parts[i] = (int) (exact / loginRate);
            remainders[i] = exact % loginRate;
            given += parts[i];
        }
        // Largest remainder first (the earlier engine on a tie), one thread each, until every thread has an engine.
        for (; given < threads; given++) {
            int best = 0;
            for (int i = 1; i < engines; i++) {
                if (remainders[i] > remainders[best]) {
                    best = i;
                }
            }
            parts[best]++;
            remainders[best] = -1;
        }
        List<Part> list = new ArrayList<>();
        for (int i = 0; i < engines; i++) {
            int n = parts[i] * perThread;
            if (n + FILES_TO_SPARE > fileLimit) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "--users %d over --nodes %d puts %,d "
                        + "users on engine and node %d: with %d files to spare that does not fit the per-process file "
                        + "limit of %d (ulimit -n); use --nodes %d or more", users, engines, n, i + 1, FILES_TO_SPARE,
                        fileLimit, nodesNeeded(users, fileLimit)));
            }
            if (n <= onlineContacts) {
                throw new IllegalArgumentException("--users " + users + " over --nodes " + engines + " puts " + n
                        + " users on node " + (i + 1) + ", not more than --online-contacts " + onlineContacts
                        + " (each roster's users of the test are on the same node): give more users or fewer nodes");
            }
            list.add(new Part(n, rates[i]));
        }
        return new XmppSplit(list);
    }

    /** The fewest nodes (and engines) that hold {@code users} under the file limit. */
    static int nodesNeeded(long users, long fileLimit) {
        long perNode = fileLimit - FILES_TO_SPARE;
        return perNode <= 0 ? Integer.MAX_VALUE : (int) ((users + perNode - 1) / perNode);
    }

    int engines() {
        return parts.size();
    }

    String describe() {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            Part p = parts.get(i);
            s.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%d: %,d users at %d/s over %.1f s", i + 1,
                    p.users(), p.loginRate(), p.rampMillis() / 1000.0));
        }
        return s.toString();
    }
}
