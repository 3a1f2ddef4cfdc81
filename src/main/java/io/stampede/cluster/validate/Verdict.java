/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.validate;

/** The outcome for one file: which validator judged it, and how. */
public record Verdict(String file, String validator, Status status, String detail) {

    public enum Status { OK, FAIL, SKIPPED, NOT_CHECKED }

    @Override
    public String toString() {
        String head = switch (status) {
            case OK -> "OK     ";
            case FAIL -> "FAIL   ";
            case SKIPPED -> "SKIPPED";
            case NOT_CHECKED -> "-      ";
        };
        String text = head + " " + file + "  [" + validator + "]";
        return detail.isBlank() ? text : text + "\n          " + detail.strip().replace("\n", "\n          ");
    }
}
