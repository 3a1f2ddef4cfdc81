/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.validate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * keepalived 2.2.7 (Debian 12) kills its own config test with SIGTERM when it checks a script that runs as a
 * user other than root (keepalived issue 2617, fixed in 2.2.8); the daemon itself runs such scripts. A file killed
 * that way is checked again as a copy with script_user root, and the verdict says so: everything but the script
 * user is still judged by the real keepalived.
 */
final class ScriptUserValidator extends CopyCheckingValidator {

    /** Exit code of a process ended by SIGTERM, as Java reports it (128 + 15). */
    static final int KILLED_BY_TERM = 143;
    private static final Pattern SCRIPT_USER = Pattern.compile("(?m)^(\\s*script_user\\s+)(\\S+)");

    ScriptUserValidator(ToolValidator tool) {
        super(tool);
    }

    @Override
    public Verdict check(Path file, String shownName) {
        Verdict first = tool.check(file, shownName);
        if (first.status() != Verdict.Status.FAIL || !first.detail().startsWith("exit " + KILLED_BY_TERM)) {
            return first;
        }
        String content;
        try {
            content = Files.readString(file);
        } catch (IOException e) {
            return first;
        }
        Matcher m = SCRIPT_USER.matcher(content);
        if (!m.find() || m.group(2).equals("root")) {
            return first;
        }
        String user = m.group(2);
        String note = "keepalived -t was killed (exit 143), as keepalived 2.2.7 does when it checks a script that"
                + " runs as " + user + " (its issue 2617, fixed in 2.2.8); checked again with script_user root."
                + " The daemon runs the script as " + user;
        try {
            return checkCopy(file, shownName, dir -> m.replaceFirst("$1root"), note);
        } catch (IOException e) {
            return first;
        }
    }
}
