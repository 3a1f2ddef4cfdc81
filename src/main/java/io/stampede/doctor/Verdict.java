/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.Locale;

/** A check's outcome; the order is the severity, and the ordinal is the command's exit status. */
public enum Verdict {
    OK,
    WARN,
    FAIL;

    /** 0 ok, 1 warnings, 2 a check that will fail the test. */
    public int exitCode() {
        return ordinal();
    }

    public Verdict worst(Verdict other) {
        return other.ordinal() > ordinal() ? other : this;
    }

    /** "ok", "warn", "fail". */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
