/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.vm;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Writes a directory tree as a "newc" cpio archive, the format the kernel unpacks into its initramfs. The kernel
 * unpacks archives concatenated one after another, so a run's files go in a small archive appended to the
 * cached one. Entries keep their absolute path (the run's files sit at the same path in the guest as here).
 */
final class Cpio {

    private final OutputStream out;
    private long written;
    private int inode = 1;

    Cpio(OutputStream out) {
        this.out = out;
    }

    /** Every parent of dir (as directories), dir itself, and everything under it, owned by root. */
    void tree(Path dir) throws IOException {
        Path abs = dir.toAbsolutePath().normalize();
        for (int i = 1; i < abs.getNameCount(); i++) {
            directory(abs.getRoot().resolve(abs.subpath(0, i)));
        }
        List<Path> all;
        try (Stream<Path> s = Files.walk(abs)) {
            all = s.sorted().toList();
        }
        for (Path p : all) {
            if (Files.isDirectory(p)) {
                directory(p);
            } else {
                file(p.toString().substring(1), Files.readAllBytes(p), Files.isExecutable(p) ? 0755 : 0644);
            }
        }
    }

    void file(String name, byte[] data, int permissions) throws IOException {
        entry(name, 0100000 | permissions, data);
    }

    private void directory(Path p) throws IOException {
        entry(p.toString().substring(1), 040755, new byte[0]);
    }

    void finish() throws IOException {
        entry("TRAILER!!!", 0, new byte[0]);
        out.flush();
    }

    private void entry(String name, int mode, byte[] data) throws IOException {
        byte[] n = (name + "\0").getBytes(StandardCharsets.UTF_8);
        StringBuilder h = new StringBuilder("070701");
        long[] fields = {name.equals("TRAILER!!!") ? 0 : inode++, mode, 0, 0, (mode & 040000) != 0 ? 2 : 1, 0,
            data.length, 0, 0, 0, 0, n.length, 0};
        for (long f : fields) {
            h.append(String.format("%08x", f));
        }
        write(h.toString().getBytes(StandardCharsets.US_ASCII));
        write(n);
        pad();
        write(data);
        pad();
    }

    private void write(byte[] b) throws IOException {
        out.write(b);
        written += b.length;
    }

    private void pad() throws IOException {
        while (written % 4 != 0) {
            write(new byte[] {0});
        }
    }
}
