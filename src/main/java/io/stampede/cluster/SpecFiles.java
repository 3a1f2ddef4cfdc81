/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster;

import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.SpecException;
import io.stampede.cluster.model.SpecReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/** Loads a description file for a command, printing refusals in one place. */
final class SpecFiles {

    private SpecFiles() {
    }

    /** The description, or null after printing why it was refused. */
    static ClusterSpec load(Path file, PrintWriter err) {
        try {
            return new SpecReader().read(Files.readString(file));
        } catch (IOException e) {
            err.println("cannot read " + file + ": " + e.getMessage());
        } catch (SpecException e) {
            err.println(file + ": refused, nothing was written.");
            e.problems().forEach(p -> err.println("  " + p));
        }
        return null;
    }
}
