/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The lab's folder, which holds haproxy.cfg (with the stats password) and TLS keys, written as root. Nobody but
 * root may list or enter it, except nginx's workers: they run as www-data and must pass through to the document
 * root, so the folder belongs to the group www-data with execute only (0710), and every generated file is 0600.
 */
final class LabFolder {

    /** The group of nginx's worker processes (the rendered nginx.conf says user www-data). */
    static final String WORKER_GROUP = "www-data";
    static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    static final Set<PosixFilePermission> FOLDER = PosixFilePermissions.fromString("rwx--x---");

    private LabFolder() {
    }

    /** A new folder under the system's temporary folder, 0710 root:www-data (0700 where www-data is unknown). */
    static Path create() throws IOException {
        Path dir = Files.createTempDirectory("stl-lab-"); // 0700 from the start: never readable by others
        try {
            GroupPrincipal workers = dir.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByGroupName(WORKER_GROUP);
            Files.getFileAttributeView(dir, PosixFileAttributeView.class).setGroup(workers);
            Files.setPosixFilePermissions(dir, FOLDER);
        } catch (IOException e) {
            // no www-data group (no nginx: the lab refuses to run before it needs the workers' way in) or not
            // allowed to give the folder to it: the folder stays 0700
        }
        return dir;
    }

    /** Writes a file that only its owner may read, without a moment in which it is readable by others. */
    static void writeSecret(Path file, String content) throws IOException {
        if (!Files.exists(file)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } else {
            ownerOnly(file);
        }
        Files.writeString(file, content, StandardOpenOption.TRUNCATE_EXISTING);
    }

    static void ownerOnly(Path file) throws IOException {
        Files.setPosixFilePermissions(file, OWNER_ONLY);
    }
}
