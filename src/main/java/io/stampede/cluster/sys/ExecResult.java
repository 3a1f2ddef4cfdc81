/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.sys;

/** What a finished (or timed-out) command left: exit code, output and whether it had to be killed. */
public record ExecResult(int exitCode, String stdout, String stderr, boolean timedOut) {

    public boolean ok() {
        return exitCode == 0 && !timedOut;
    }

    /** stdout and stderr together, trimmed, for messages. */
    public String output() {
        return (stdout.strip() + "\n" + stderr.strip()).strip();
    }
}
