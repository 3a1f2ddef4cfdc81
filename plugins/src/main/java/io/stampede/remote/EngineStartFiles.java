/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.remote;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the private folder `stampede server` writes an engine's start files into (its start script, the RMI
 * keystore's password), from that start script, once JMeter has read them: so even a SIGKILL of the CLI leaves none
 * behind. The folder is flat (the CLI writes files only).
 *
 * <p>It is Java, not a line of Groovy, because the script must name no JDK class: JMeter 5.6.3's Groovy 3.0.20
 * resolves a class name by reading its class file with an ASM that cannot read Java 25's ("Unsupported class file
 * major version 69"), and the failed script ends the engine. Stampede's own classes are Java 17 class files.
 */
public final class EngineStartFiles {
    private static final Logger LOG = LoggerFactory.getLogger(EngineStartFiles.class);

    private EngineStartFiles() {}

    /** Deletes {@code dir}'s files and then {@code dir}; what cannot be deleted is logged, the engine goes on. */
    public static void remove(String dir) {
        Path folder = Path.of(dir);
        try {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
                for (Path f : files) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(folder);
        } catch (IOException e) {
            LOG.warn("Stampede: cannot remove the engine's start files in {}: {}", dir, e.toString());
        }
    }
}
