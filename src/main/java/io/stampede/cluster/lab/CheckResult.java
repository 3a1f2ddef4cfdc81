/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

/** The verdict of one lab check, with what was observed. */
public record CheckResult(int number, String title, Status status, String detail) {

    public enum Status { PASS, FAIL, SKIP }

    static CheckResult of(int number, String title, boolean pass, String detail) {
        return new CheckResult(number, title, pass ? Status.PASS : Status.FAIL, detail);
    }

    static CheckResult skip(int number, String title, String why) {
        return new CheckResult(number, title, Status.SKIP, why);
    }

    @Override
    public String toString() {
        return "check " + number + " " + status + ": " + title + "\n    " + detail.replace("\n", "\n    ");
    }
}
