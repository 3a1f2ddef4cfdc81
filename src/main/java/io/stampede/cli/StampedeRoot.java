/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cli;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The repository checkout the CLI runs from: plans, templates and the bundled JMeter live under it. */
public final class StampedeRoot {

    private StampedeRoot() {}

    /**
     * From -Dstampede.root (set by the launchers), else the folder above the CLI jar that holds plans/: one up in an
     * unpacked release archive (lib/stampede.jar), two up in a checkout (src/target/stampede.jar).
     */
    public static Path locate() {
        String prop = System.getProperty(CliNames.ROOT);
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop).toAbsolutePath().normalize();
        }
        try {
            Path jar = Path.of(StampedeRoot.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path release = jar.getParent().getParent();
            for (Path candidate : new Path[] {release, release == null ? null : release.getParent()}) {
                if (candidate != null && Files.isDirectory(candidate.resolve("plans"))) {
                    return candidate;
                }
            }
        } catch (URISyntaxException | NullPointerException e) {
            // fall through to the working directory
        }
        return Path.of("").toAbsolutePath();
    }
}
