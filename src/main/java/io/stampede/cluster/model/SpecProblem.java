/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

/** One refusal of a cluster description: the field (as a YAML path), what is wrong, and how to fix it. */
public record SpecProblem(String field, String problem, String fix) {

    @Override
    public String toString() {
        return field + ": " + problem + " -- fix: " + fix;
    }
}
