/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.merge;

import io.stampede.share.ShareRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The folders given to `stampede merge`, checked: each holds a share's results, all of one plan run with the same
 * settings, no share twice. What is missing (a share that did not run) is said, not refused: the merge then covers
 * the shares given.
 */
record ShareFolders(List<ShareFolder> folders, List<String> notes) {

    static ShareFolders check(List<Path> dirs) {
        List<ShareFolder> folders = new ArrayList<>();
        for (Path given : dirs) {
            Path dir = given.toAbsolutePath().normalize();
            if (!Files.isDirectory(dir)) {
                throw new MergeRefusal(given + " is not a folder: give the results folders of `stampede run --share`");
            }
            for (String file : new String[] {ShareRecord.FILE, "results.jtl", "latency.hlog"}) {
                if (!Files.isRegularFile(dir.resolve(file))) {
                    throw new MergeRefusal(given + " has no " + file + ": give folders written by `stampede run"
                            + " --share I/N` that finished (a run without --share is a whole plan, not a share)");
                }
            }
            try {
                folders.add(new ShareFolder(dir, ShareRecord.read(dir)));
            } catch (IOException | IllegalArgumentException e) {
                throw new MergeRefusal(given + ": " + ShareRecord.FILE + " cannot be read (" + e.getMessage()
                        + "); it is written by `stampede run --share`, do not edit it");
            }
        }
        ShareFolder first = folders.get(0);
        Map<Integer, ShareFolder> byIndex = new TreeMap<>();
        for (ShareFolder f : folders) {
            ShareRecord r = f.record();
            ShareRecord r0 = first.record();
            if (!r.plan().equals(r0.plan()) || !r.planDigest().equals(r0.planDigest())) {
                throw new MergeRefusal(f.dir() + " ran " + r.plan() + " and " + first.dir() + " ran " + r0.plan()
                        + (r.plan().equals(r0.plan()) ? " with other content" : "") + ": different plans; merge the"
                        + " shares of one plan only");
            }
            if (!r.propertiesDigest().equals(r0.propertiesDigest())) {
                throw new MergeRefusal(f.dir() + " and " + first.dir() + " ran " + r.plan() + " with different -J"
                        + " properties: different tests; merge the shares of one run only");
            }
            if (r.share().count() != r0.share().count()) {
                throw new MergeRefusal(f.dir() + " is share " + r.share() + " and " + first.dir() + " share "
                        + r0.share() + ": the plan was divided in different ways; merge the shares of one run only");
            }
            ShareFolder same = byIndex.put(r.share().index(), f);
            if (same != null) {
                throw new MergeRefusal(same.dir() + " and " + f.dir() + " are both share " + r.share()
                        + ": overlapping shares would count that share's load twice; give each share once");
            }
        }
        List<String> notes = new ArrayList<>();
        int n = first.record().share().count();
        if (byIndex.size() < n) {
            List<Integer> missing = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                if (!byIndex.containsKey(i)) {
                    missing.add(i);
                }
            }
            notes.add("merging " + byIndex.size() + " of " + n + " shares: share(s) " + missing + " not given, so"
                    + " this is not the whole plan's load");
        }
        List<ShareFolder> sorted = new ArrayList<>(folders);
        sorted.sort(Comparator.comparingInt(f -> f.record().share().index()));
        return new ShareFolders(List.copyOf(sorted), List.copyOf(notes));
    }
}
