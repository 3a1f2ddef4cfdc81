/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Read-only access to the kernel's and the system's files by absolute path ("/proc/sys/...", "/etc/...").
 *
 * <p>An interface so that tests can point the doctor at a directory of fixture files instead of the live
 * machine; {@link #under(Path)} with "/" is the real thing.
 */
public interface SystemFiles {

    /** The whole file, or empty when it does not exist or cannot be read. */
    Optional<String> read(String absolutePath);

    /** Names of the entries in a directory, sorted; empty when it does not exist. */
    List<String> list(String absoluteDir);

    /** The target of a symbolic link (e.g. "/proc/self/ns/net"), or empty. */
    Optional<String> readLink(String absolutePath);

    /** Files below {@code root}: "/proc/sys/x" is read as root/proc/sys/x. */
    static SystemFiles under(Path root) {
        return new RootedFiles(root);
    }
}
