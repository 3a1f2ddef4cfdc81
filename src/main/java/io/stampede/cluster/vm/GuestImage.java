/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.vm;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The guest the VM lab boots: Debian's kernel and a debootstrap root, built by the recipe build-guest.sh once per
 * recipe and kept in a cache folder named after the recipe's hash, so that a changed recipe builds a new guest and
 * an unchanged one is reused. Two runs building at once wait for each other (a file lock).
 */
public final class GuestImage {

    static final String RESOURCES = "/io/stampede/cluster/vm/";
    private static final List<String> RECIPE = List.of("build-guest.sh", "init");
    /** The host programs the recipe and the run need (Debian packages qemu-system-x86, debootstrap, kmod, cpio). */
    public static final List<String> HOST_TOOLS = List.of("qemu-system-x86_64", "debootstrap", "depmod", "modprobe",
            "cpio", "mkfs.ext4", "apt-get", "dpkg-deb", "timeout");

    private final Path dir;

    private GuestImage(Path dir) {
        this.dir = dir;
    }

    /** The default cache: $STAMPEDE_VM_CACHE, else ~/.cache/stampede/vm. */
    public static Path defaultCache() {
        String env = System.getenv("STAMPEDE_VM_CACHE");
        return env != null && !env.isBlank() ? Path.of(env)
                : Path.of(System.getProperty("user.home"), ".cache", "stampede", "vm");
    }

    /** The folder this recipe's guest lives in (whether built yet or not). */
    public static Path folder(Path cache) {
        return cache.resolve("guest-" + recipeHash());
    }

    /** The guest of this recipe when it has been built, else null (validate --vm uses only an existing one). */
    public static GuestImage existing(Path cache) {
        Path d = folder(cache);
        return Files.exists(d.resolve("ready")) ? new GuestImage(d) : null;
    }

    /** The guest of this recipe, built now when the cache has none (minutes: kernel download, debootstrap). */
    @SuppressWarnings("try") // the file lock is only held, never used: it keeps a second build out
    public static GuestImage obtain(Path cache, PrintWriter out) throws IOException, VmException {
        GuestImage ready = existing(cache);
        if (ready != null) {
            return ready;
        }
        Files.createDirectories(cache);
        try (FileChannel ch = FileChannel.open(cache.resolve(".lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock lock = ch.lock()) {
            ready = existing(cache);
            if (ready != null) {
                return ready;
            }
            return build(folder(cache), out);
        }
    }

    private static GuestImage build(Path target, PrintWriter out) throws IOException, VmException {
        Path work = Files.createTempDirectory(target.getParent(), target.getFileName() + ".building-");
        try {
            Path recipe = work.resolve("recipe");
            Files.createDirectories(recipe);
            for (String name : RECIPE) {
                Path p = recipe.resolve(name);
                Files.write(p, resource(name));
                p.toFile().setExecutable(true);
            }
            Path image = work.resolve("image");
            Files.createDirectories(image);
            out.println("vm: building the guest (Debian kernel + debootstrap root) under " + target
                    + "; once per recipe");
            out.flush();
            long start = System.nanoTime();
            int rc = Shell.stream(List.of("timeout", "-k", "10", "1200", "bash", recipe.resolve("build-guest.sh")
                    .toString(), image.toString()), line -> {
                        out.println("vm: " + line);
                        out.flush();
                    }, () -> deleteQuietly(work));
            if (rc != 0) {
                throw new VmException("building the guest failed (exit " + rc + "); the recipe's output is above");
            }
            Files.writeString(image.resolve("ready"), "built in " + (System.nanoTime() - start) / 1_000_000_000
                    + " s\n");
            Files.move(image, target, StandardCopyOption.ATOMIC_MOVE);
            out.println("vm: guest built in " + (System.nanoTime() - start) / 1_000_000_000 + " s");
            return new GuestImage(target);
        } finally {
            deleteQuietly(work);
        }
    }

    Path kernel() {
        return dir.resolve("vmlinuz");
    }

    Path baseInitramfs() {
        return dir.resolve("base.cpio");
    }

    Path rootDisk() {
        return dir.resolve("root.img");
    }

    static byte[] resource(String name) {
        try (InputStream in = GuestImage.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCES + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SHA-256 of the recipe files, 12 hex digits: a changed recipe means a new guest. */
    static String recipeHash() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String name : RECIPE) {
                md.update(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                md.update(resource(name));
            }
            return HexFormat.of().formatHex(md.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Held while a tree is removed: see {@link #deleteQuietly}. */
    private static final Object REMOVING = new Object();

    /**
     * Removes a tree and returns only once it is gone. The Ctrl-C hook and the run's own clean-up may both be at
     * it, and the JVM halts the moment the hook returns: a remover that gave up because the other one emptied
     * folders under its walk left half a run folder behind (CI, VmLabIT). So removers take turns, and a file
     * already gone is no reason to stop.
     */
    static void deleteQuietly(Path p) {
        synchronized (REMOVING) {
            for (int attempt = 0; attempt < 5 && Files.exists(p, LinkOption.NOFOLLOW_LINKS); attempt++) {
                remove(p);
            }
        }
    }

    private static void remove(Path p) {
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            List<Path> entries;
            try (Stream<Path> s = Files.list(p)) {
                entries = s.toList();
            } catch (IOException | UncheckedIOException gone) {
                entries = List.of();
            }
            entries.forEach(GuestImage::remove);
        }
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // not empty yet (something still writes into it): the next attempt takes it
        }
    }

    /** The missing host programs, for a clear refusal before anything starts. */
    public static List<String> missingTools() {
        List<String> missing = new ArrayList<>();
        for (String t : HOST_TOOLS) {
            if (!io.stampede.cluster.sys.Exec.available(t)) {
                missing.add(t);
            }
        }
        return missing;
    }
}
