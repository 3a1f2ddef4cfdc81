/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.validate;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** sysctl.d(5) lines: comments, blank lines and "[-]key = value" with a dotted or slashed key. */
public final class SysctlSyntax {

    private static final Pattern LINE = Pattern.compile("-?[a-z0-9_]+([./][A-Za-z0-9_.-]+)+\\s*=\\s*\\S.*");

    public List<String> check(String text) {
        List<String> problems = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (!LINE.matcher(line).matches()) {
                problems.add("line " + (i + 1) + ": expected 'key = value', got '" + line + "'");
            } else if (line.contains("tcp_tw_recycle")) {
                problems.add("line " + (i + 1) + ": tcp_tw_recycle was removed in Linux 4.12");
            }
        }
        return problems;
    }
}
