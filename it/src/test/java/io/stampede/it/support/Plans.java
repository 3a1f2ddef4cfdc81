/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.nio.file.Files;
import java.nio.file.Path;

/** The .jmx plans under it/src/test/resources/plans, by file name. */
public final class Plans {

    private Plans() {
    }

    public static Path get(String fileName) {
        Path plan = JMeterHome.stampedeRoot().resolve("it/src/test/resources/plans").resolve(fileName);
        if (!Files.isRegularFile(plan)) {
            throw new IllegalArgumentException("no plan " + plan);
        }
        return plan;
    }
}
