/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.validate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/** A validator implemented here (ipvsadm-restore grammar, sysctl.d syntax), for files no installed tool checks. */
public final class GrammarValidator implements FileValidator {

    private final String label;
    private final Predicate<Path> accepts;
    private final Function<String, List<String>> checker;

    public GrammarValidator(String label, Predicate<Path> accepts, Function<String, List<String>> checker) {
        this.label = label;
        this.accepts = accepts;
        this.checker = checker;
    }

    @Override
    public boolean accepts(Path file) {
        return accepts.test(file);
    }

    @Override
    public Verdict check(Path file, String shownName) {
        try {
            List<String> problems = checker.apply(Files.readString(file));
            return new Verdict(shownName, label, problems.isEmpty() ? Verdict.Status.OK : Verdict.Status.FAIL,
                    String.join("\n", problems));
        } catch (IOException e) {
            return new Verdict(shownName, label, Verdict.Status.FAIL, "cannot read: " + e.getMessage());
        }
    }
}
