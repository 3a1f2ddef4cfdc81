/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.ArrayList;
import java.util.List;

/** Checks and summary facts collected by the check groups for one report; one per examination. */
final class Findings {

    static final String SYSCTL_FILE = "/etc/sysctl.d/90-stampede-injector.conf";

    final List<Check> checks = new ArrayList<>();
    final List<String> facts = new ArrayList<>();

    void add(Check check) {
        checks.add(check);
    }

    void add(String id, String title, String value, Verdict verdict, String detail, List<String> remedy) {
        checks.add(new Check(id, title, value, verdict, detail, remedy));
    }

    void fact(String fact) {
        facts.add(fact);
    }

    /** "net.ipv4.x = v  (in /etc/sysctl.d/90-stampede-injector.conf, then: sysctl --system)". */
    static String sysctlLine(String key, Object value) {
        return key + " = " + value + "   (in " + SYSCTL_FILE + ", then: sysctl --system)";
    }
}
