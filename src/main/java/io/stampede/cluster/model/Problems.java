/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import java.util.ArrayList;
import java.util.List;

/** Collects refusals while a description is read, so the user sees all of them in one run. */
final class Problems {

    private final List<SpecProblem> list = new ArrayList<>();

    void add(String field, String problem, String fix) {
        list.add(new SpecProblem(field, problem, fix));
    }

    boolean isEmpty() {
        return list.isEmpty();
    }

    void throwIfAny() throws SpecException {
        if (!list.isEmpty()) {
            throw new SpecException(list);
        }
    }
}
