/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** stampede cluster lab FILE (placeholder until the lab lands). */
@Command(name = "lab", mixinStandardHelpOptions = true, description = "Prove a cluster description in namespaces.")
final class LabCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE")
    Path file;

    @Override
    public Integer call() {
        return 1;
    }
}
