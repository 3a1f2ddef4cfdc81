/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

import java.nio.file.Path;

/**
 * Where a host's files live. Production output uses the real paths ({@link #SYSTEM}); the lab renders the very
 * same files under a per-host directory so that several nginx or HAProxy instances can run on one machine.
 */
public record Layout(String root) {

    public static final Layout SYSTEM = new Layout("");

    /**
     * The path a file with the given absolute production path has under this layout. Under a lab root the result
     * must stay inside the root: the lab writes there as root, so a path climbing out with ".." is refused even if
     * a description that the reader refuses reached this far.
     */
    public String path(String absolute) {
        String placed = root + absolute;
        if (!root.isEmpty() && !Path.of(placed).normalize().startsWith(Path.of(root).normalize())) {
            throw new IllegalArgumentException("'" + absolute + "' leads outside the lab folder " + root);
        }
        return placed;
    }
}
