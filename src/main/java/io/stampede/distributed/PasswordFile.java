/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * A password kept in a file only its owner can read (mode 0600 or stricter), so that it shows neither in
 * {@code ps} nor to other users of the machine. The first line is the password.
 */
public final class PasswordFile {

    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private PasswordFile() {}

    /**
     * The password in {@code file}, given with {@code option}; refused when the file is missing, empty, or open to
     * its group or others.
     */
    public static String read(Path file, String option) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(option + " " + file + " is not a file: give the file holding the"
                    + " password (`stampede server create-keystore DIR` writes one)");
        }
        try {
            Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
            Set<PosixFilePermission> open = EnumSet.noneOf(PosixFilePermission.class);
            open.addAll(mode);
            open.retainAll(OTHERS);
            if (!open.isEmpty()) {
                throw new IllegalArgumentException(option + " " + file + " can be read by other users (mode "
                        + PosixFilePermissions.toString(mode) + "): run `chmod 600 " + file + "`");
            }
            String text = Files.readString(file, StandardCharsets.UTF_8);
            String password = text.lines().findFirst().orElse("");
            if (password.isEmpty()) {
                throw new IllegalArgumentException(option + " " + file + " is empty: write the password on its"
                        + " first line");
            }
            return password;
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + file + ": cannot read it (" + e.getMessage() + ")");
        }
    }
}
