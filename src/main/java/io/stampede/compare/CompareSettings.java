/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

/** How the intervals are computed and judged. */
public record CompareSettings(int replicates, long seed, Margin margin, int warmupSeconds) {
    public static final int DEFAULT_REPLICATES = 1000;

    public CompareSettings {
        if (replicates < 100) {
            throw new IllegalArgumentException("--replicates " + replicates + ": give at least 100");
        }
    }
}
