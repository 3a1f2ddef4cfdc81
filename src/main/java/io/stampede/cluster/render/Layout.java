/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

/**
 * Where a host's files live. Production output uses the real paths ({@link #SYSTEM}); the lab renders the very
 * same files under a per-host directory so that several nginx or HAProxy instances can run on one machine.
 */
public record Layout(String root) {

    public static final Layout SYSTEM = new Layout("");

    /** The path a file with the given absolute production path has under this layout. */
    public String path(String absolute) {
        return root + absolute;
    }
}
