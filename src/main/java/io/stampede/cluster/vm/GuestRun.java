/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.vm;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * One boot of the guest under qemu's software emulation (TCG; KVM hangs on these machines) with a run's files:
 * they travel as a cpio archive appended to the cached initramfs, are copied to the same path in the guest, and
 * guest.sh runs there as the first process. It reports on the serial console in lines starting with "STL ";
 * the root disk is opened as a snapshot, so nothing the guest writes reaches the cached image.
 */
final class GuestRun {

    static final String REPORT = "STL ";

    /** What the guest said: its reports (prefix removed), whether it reached its end, and its last lines. */
    record Outcome(int qemuExit, List<String> reports, boolean ended, List<String> tail, long millis) {
    }

    private GuestRun() {
    }

    /**
     * A new folder for one boot's files (the run folder and the initramfs beside it), readable by its owner alone:
     * they include HAProxy's configuration, which may hold a stats password. Inside the guest the files get modes of their
     * own ({@link Cpio}), so the guest's services can still read them.
     */
    static Path newFolder() throws IOException {
        return Files.createTempDirectory("stl-vm-", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
    }

    /**
     * Boots the guest with everything under runDir (guest.sh is added; runDir must already hold run.env) and
     * returns when the guest powers off or limitSeconds pass. runDir's parent holds the temporary initramfs.
     */
    static Outcome boot(GuestImage image, Path runDir, int limitSeconds, Consumer<String> onReport)
            throws IOException, VmException {
        Path guestScript = runDir.resolve("guest.sh");
        Files.write(guestScript, GuestImage.resource("guest.sh"));
        guestScript.toFile().setExecutable(true);
        Path initrd = runDir.getParent().resolve("initrd.cpio");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(initrd))) {
            Files.copy(image.baseInitramfs(), out);
            Cpio cpio = new Cpio(out);
            cpio.file("run.path", runDir.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8), 0644);
            cpio.tree(runDir);
            cpio.finish();
        }
        List<String> command = List.of("timeout", "-k", "5", String.valueOf(limitSeconds), "qemu-system-x86_64",
                "-accel", "tcg", "-m", "1024", "-smp", "1", "-nodefaults", "-display", "none", "-monitor", "none",
                "-serial", "stdio", "-no-reboot",
                "-kernel", image.kernel().toString(), "-initrd", initrd.toString(),
                "-append", "console=ttyS0 quiet panic=-1",
                "-drive", "file=" + image.rootDisk() + ",format=raw,if=virtio,snapshot=on");
        List<String> reports = new ArrayList<>();
        Deque<String> tail = new ArrayDeque<>();
        boolean[] ended = {false};
        long start = System.nanoTime();
        int rc = Shell.stream(command, raw -> {
            String line = raw.replace("\r", "");
            int at = line.indexOf(REPORT);
            if (at >= 0) {
                String report = line.substring(at + REPORT.length());
                reports.add(report);
                ended[0] |= report.equals("END");
                onReport.accept(report);
            }
            tail.addLast(line);
            if (tail.size() > 40) {
                tail.removeFirst();
            }
        }, () -> GuestImage.deleteQuietly(runDir.getParent()));
        return new Outcome(rc, reports, ended[0], List.copyOf(tail), (System.nanoTime() - start) / 1_000_000);
    }
}
