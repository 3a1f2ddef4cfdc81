/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether JMeter wrote every sample it recorded. JMeter's JTL writer is a PrintWriter, which swallows write errors:
 * on a full disk the run goes on, exits 0, and the JTL just stops growing, often in the middle of a row. So the free
 * space of the results folder's disk is watched at every progress tick, and the JTL's end is read once JMeter has
 * exited; either sign means samples are missing and no summary may be computed from the file.
 */
final class JtlWriteCheck {

    /** JMeter's writer flushes a buffer of 8 KiB at a time: with less room than that, a flush may have failed. */
    static final long LOW_WATER_BYTES = 8 * 1024;

    private final RunFiles files;
    private long leastFree = Long.MAX_VALUE;
    private boolean endsMidRow;

    JtlWriteCheck(RunFiles files) {
        this.files = files;
    }

    /**
     * Notes the free space now (called while JMeter runs and once after); the first time it is below the low water
     * mark, returns the warning to print at once, so the user can free space or stop the run.
     */
    Optional<String> sample() {
        boolean wasFull = leastFree < LOW_WATER_BYTES;
        try {
            leastFree = Math.min(leastFree, Files.getFileStore(files.dir()).getUsableSpace());
        } catch (IOException e) {
            return Optional.empty(); // the folder is unreadable now: the JTL's end is still checked
        }
        if (wasFull || leastFree >= LOW_WATER_BYTES) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "stampede run: WARNING: the disk holding %s is full (%,d bytes"
                + " free): JMeter cannot write its samples to %s and they are being lost", files.dir(), leastFree,
                files.jtl().getFileName()));
    }

    /** JMeter has exited and the JTL was read to its end, which was inside a row when {@code midRow}. */
    void jtlEnded(boolean midRow) {
        endsMidRow = midRow;
        sample();
    }

    /** Nothing when the JTL is whole; else the message for the user, saying what was kept and what to do. */
    Optional<String> lost(long samplesRead) {
        boolean full = leastFree < LOW_WATER_BYTES;
        if (!full && !endsMidRow) {
            return Optional.empty();
        }
        String cause = full
                ? String.format(Locale.ROOT, "the disk holding %s ran full (%,d bytes free at the lowest)", files.dir(),
                        leastFree)
                : files.jtl() + " ends in the middle of a row: JMeter could not write all of it";
        return Optional.of(String.format(Locale.ROOT, "stampede run: %s. JMeter's JTL writer drops what it cannot "
                + "write without failing the run, so %s holds only the first %,d samples and the rest are lost; no "
                + "summary is computed from it. Free space there (df -h %s) or give --out a folder on a disk with "
                + "room, and run the plan again.", cause, files.jtl().getFileName(), samplesRead, files.dir()));
    }
}
