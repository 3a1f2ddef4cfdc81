/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import io.stampede.cli.ExitCodes;
import java.util.Locale;

/** A check's outcome; the order is the severity. */
public enum Verdict {
    OK,
    WARN,
    FAIL;

    /** The command's exit status for this verdict, from the one set in {@link ExitCodes}. */
    public int exitCode() {
        return switch (this) {
            case OK -> ExitCodes.OK;
            case WARN -> ExitCodes.WARNINGS;
            case FAIL -> ExitCodes.CHECK_FAILED;
        };
    }

    public Verdict worst(Verdict other) {
        return other.ordinal() > ordinal() ? other : this;
    }

    /** "ok", "warn", "fail". */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
