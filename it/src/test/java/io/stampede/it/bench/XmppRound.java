/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import java.util.Locale;

/**
 * What one tool's round of the XMPP benchmark measured, for the side-by-side table.
 *
 * @param usersHeld users logged in at once, at the most
 * @param cpuSeconds the tool's CPU over the whole round (logins, TLS, messages, logouts)
 * @param windowCpuSeconds the tool's CPU in the steady window (everyone online, messages flowing)
 * @param windowMessages messages sent in that window
 * @param rssStartKb resident memory before the first login (Stampede) or at the tool's first second (Tsung)
 * @param rssOnlineKb resident memory with every user online
 */
record XmppRound(String tool, long usersHeld, long errors, long sent, long received, double cpuSeconds,
                 double windowCpuSeconds, long windowMessages, long rssStartKb, long rssOnlineKb) {

    static String header() {
        return String.format(Locale.ROOT, "| %-8s | %10s | %6s | %17s | %9s | %14s | %12s | %14s | %12s |", "tool",
                "users held", "errors", "messages sent/rcvd", "CPU s all", "CPU ms/message", "RSS online",
                "RSS/user above", "users per GB");
    }

    String row() {
        double perUserKb = usersHeld == 0 ? 0 : (rssOnlineKb - rssStartKb) / (double) usersHeld;
        double perGb = rssOnlineKb == 0 ? 0 : usersHeld / (rssOnlineKb / 1024.0 / 1024.0);
        return String.format(Locale.ROOT, "| %-8s | %,10d | %,6d | %,8d/%,8d | %9.1f | %14.3f | %9.0f MB | %11.1f KB | %,12.0f |",
                tool, usersHeld, errors, sent, received, cpuSeconds,
                windowMessages == 0 ? 0 : windowCpuSeconds * 1000 / windowMessages, rssOnlineKb / 1024.0, perUserKb,
                perGb);
    }
}
