/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.List;
import java.util.Objects;

/**
 * One finding: what was looked at, the value found, the verdict, why, and the exact remedy lines
 * (a sysctl.d line, a LimitNOFILE, a plan change) when the verdict is not ok.
 */
public record Check(String id, String title, String value, Verdict verdict, String detail, List<String> remedy) {

    public Check {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(verdict, "verdict");
        detail = detail == null ? "" : detail;
        remedy = List.copyOf(remedy);
    }

    static Check ok(String id, String title, String value, String detail) {
        return new Check(id, title, value, Verdict.OK, detail, List.of());
    }

    /** One line for summaries: "FAIL new connections/s: value". */
    public String line() {
        return verdict.name() + " " + title + ": " + value;
    }
}
