/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.bench.framer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads Stampede's classes ({@code io.stampede.*}) itself, from its own folders, and everything else (Netty, the JDK)
 * from the parent: two of these hold two versions of the same framer class side by side in one JVM.
 */
final class IsolatingLoader extends ClassLoader {
    private final Path[] folders;

    IsolatingLoader(Path... folders) {
        super("framer " + folders[folders.length - 1], IsolatingLoader.class.getClassLoader());
        this.folders = folders;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith("io.stampede.")) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                c = findClass(name);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        String file = name.replace('.', '/') + ".class";
        for (Path folder : folders) {
            Path p = folder.resolve(file);
            if (Files.isRegularFile(p)) {
                try {
                    byte[] bytes = Files.readAllBytes(p);
                    return defineClass(name, bytes, 0, bytes.length);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new ClassNotFoundException(name + " (not in " + String.join(", ",
                java.util.Arrays.stream(folders).map(Path::toString).toList()) + ")");
    }
}
