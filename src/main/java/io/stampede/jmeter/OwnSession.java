/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A JMeter the CLI starts in a session of its own, through setsid: a Ctrl-C in the terminal then reaches the CLI
 * only, whose stop hook ends JMeter in order (a test with StopTestNow, a controller after its engines, an engine with
 * SIGTERM first), instead of the terminal killing JMeter mid-write along with the CLI. A child of the CLI leads no
 * process group, so setsid execs JMeter without a fork, and the process the hook signals is JMeter itself.
 */
public final class OwnSession {

    /** util-linux's, part of every Debian. */
    private static final Path SETSID = Path.of("/usr/bin/setsid");

    private OwnSession() {}

    /** {@code cmd} run through setsid when setsid is there, else as it is (JMeter then shares the CLI's group). */
    public static List<String> command(List<String> cmd) {
        if (!Files.isExecutable(SETSID)) {
            return cmd;
        }
        List<String> session = new ArrayList<>(cmd);
        session.add(0, SETSID.toString());
        return session;
    }
}
