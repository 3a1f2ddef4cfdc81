/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import java.util.List;

/** Thrown when a cluster description is refused; carries every problem found, not just the first. */
public final class SpecException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient List<SpecProblem> problems;

    public SpecException(List<SpecProblem> problems) {
        super(problems.size() + " problem(s) in the cluster description:\n  " + String.join("\n  ",
                problems.stream().map(SpecProblem::toString).toList()));
        this.problems = List.copyOf(problems);
    }

    public List<SpecProblem> problems() {
        return problems;
    }
}
