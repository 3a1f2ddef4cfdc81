/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.validate;

import io.stampede.cluster.sys.Exec;
import io.stampede.cluster.sys.ExecResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Runs an installed validator (keepalived -t, haproxy -c, nginx -t, nft -c, systemd-analyze verify) on a file; a
 * validator that is not installed yields SKIPPED, never a pass.
 */
public final class ToolValidator implements FileValidator {

    private final String program;
    private final List<String> before;
    private final List<String> after;
    private final Predicate<Path> accepts;
    private final boolean stderrFails;

    /**
     * @param stderrFails keepalived -t exits 0 on some problems (a missing file) and 5 on warnings, so any
     *                    output counts as a failure there
     */
    public ToolValidator(String program, List<String> before, List<String> after, Predicate<Path> accepts,
            boolean stderrFails) {
        this.program = program;
        this.before = List.copyOf(before);
        this.after = List.copyOf(after);
        this.accepts = accepts;
        this.stderrFails = stderrFails;
    }

    @Override
    public boolean accepts(Path file) {
        return accepts.test(file);
    }

    @Override
    public Verdict check(Path file, String shownName) {
        String label = program + " " + String.join(" ", before);
        Path exe = Exec.locate(program);
        if (exe == null) {
            return new Verdict(shownName, label.strip(), Verdict.Status.SKIPPED, program + " is not installed here");
        }
        if (!Files.isRegularFile(file)) {
            return new Verdict(shownName, label.strip(), Verdict.Status.FAIL, "file is missing");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(exe.toString());
        cmd.addAll(before);
        cmd.add(file.toAbsolutePath().toString());
        cmd.addAll(after);
        ExecResult r = Exec.run(Duration.ofSeconds(30), cmd);
        boolean ok = r.ok() && !(stderrFails && !r.stderr().isBlank());
        String detail = ok ? "" : (r.timedOut() ? "timed out after 30 s\n" : "exit " + r.exitCode() + "\n") + r.output();
        return new Verdict(shownName, label.strip(), ok ? Verdict.Status.OK : Verdict.Status.FAIL, detail);
    }
}
