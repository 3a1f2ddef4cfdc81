/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One namespace lab per machine. Every lab names its namespaces stl-* and removes all of them before and after a
 * run (leftovers of an interrupted run included), so a second lab would tear down the first one's cluster. The
 * kernel drops the lock when the process ends, however it ends, so a crashed lab never blocks the next one.
 */
final class LabLock implements AutoCloseable {

    static final Path DEFAULT = Path.of("/run/stampede-cluster-lab.lock");

    private final FileChannel channel;
    private final FileLock lock;

    private LabLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock, or says who holds it. */
    static LabLock take(Path file) throws LabException {
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException sameProcess) {
                lock = null;
            }
            if (lock == null) {
                String holder = Files.readString(file).strip();
                channel.close();
                throw new LabException("another cluster lab is running on this machine (" + (holder.isEmpty()
                        ? "" : "pid " + holder + ", ") + "lock " + file + "); it uses the stl-* namespaces this"
                        + " lab would make. Wait for it to end or stop it with Ctrl-C, then start this one again");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
            return new LabLock(channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new LabException("cannot take the lab lock " + file + ": " + e.getMessage());
        }
    }

    @Override
    public void close() {
        try {
            channel.truncate(0);
            lock.release();
        } catch (IOException e) {
            // the process ends soon and the kernel drops the lock with it
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException e) {
                // nothing held any more
            }
        }
    }
}
