/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.Optional;
import java.util.OptionalLong;

/** sysctl values by their dotted names, read from /proc/sys of the network namespace we run in. */
final class Kernel {

    private final SystemFiles files;

    Kernel(SystemFiles files) {
        this.files = files;
    }

    static String path(String key) {
        return "/proc/sys/" + key.replace('.', '/');
    }

    Optional<String> text(String key) {
        return files.read(path(key)).map(String::trim);
    }

    OptionalLong number(String key) {
        Optional<String> text = text(key);
        if (text.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(text.get().split("\\s+")[0]));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** Whether this kernel (and the modules loaded now) has the key at all. */
    boolean has(String key) {
        // Listing the parent, not reading the file: some keys (net.ipv4.route.flush) are write-only.
        String path = path(key);
        int slash = path.lastIndexOf('/');
        return files.list(path.substring(0, slash)).contains(path.substring(slash + 1));
    }

    SystemFiles files() {
        return files;
    }
}
