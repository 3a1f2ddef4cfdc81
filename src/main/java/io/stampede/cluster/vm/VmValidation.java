/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.vm;

import io.stampede.cluster.validate.Verdict;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * validate --vm: every ipvsadm.rules of a rendered tree loaded by the real ipvsadm-restore and ipvsadm -R on a real
 * IPVS kernel, in the guest the VM lab built (one boot for the whole tree, an empty table for each load).
 */
public final class VmValidation {

    private static final int LIMIT_SECONDS = 240;

    private final PrintWriter out;

    public VmValidation(PrintWriter out) {
        this.out = out;
    }

    /** The verdicts of the real tools; SKIPPED when no guest has been built or qemu is missing. */
    public List<Verdict> validate(Path dir, Path cache) throws IOException {
        List<Path> rules;
        try (Stream<Path> s = Files.walk(dir)) {
            rules = s.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".rules")).sorted()
                    .toList();
        }
        if (rules.isEmpty()) {
            return List.of();
        }
        GuestImage image = GuestImage.existing(cache);
        String skip = image == null ? "no guest built in " + cache + " yet: run 'stampede cluster lab FILE --vm' once"
                : !io.stampede.cluster.sys.Exec.available("qemu-system-x86_64") ? "qemu-system-x86_64 is not installed"
                : null;
        if (skip != null) {
            return rules.stream().map(r -> new Verdict(dir.relativize(r).toString(), "real ipvsadm in the VM",
                    Verdict.Status.SKIPPED, skip)).toList();
        }
        Path top = GuestRun.newFolder();
        try {
            Path run = top.resolve("run");
            for (Path r : rules) {
                Path copy = run.resolve("tree").resolve(dir.relativize(r).toString());
                Files.createDirectories(copy.getParent());
                Files.copy(r, copy);
            }
            Files.writeString(run.resolve("run.env"), "MODE='validate'\nGUEST_LIMIT='" + (LIMIT_SECONDS - 20) + "'\n");
            out.println("validate --vm: loading " + rules.size() + " ipvsadm.rules file(s) with the real tools on"
                    + " Debian's kernel under qemu ...");
            out.flush();
            List<Verdict> verdicts = new ArrayList<>();
            GuestRun.Outcome o = GuestRun.boot(image, run, LIMIT_SECONDS, report -> {
                if (report.startsWith("VERDICT ")) {
                    verdicts.add(verdict(report.substring("VERDICT ".length())));
                }
            });
            if (!o.ended() || verdicts.size() != 2 * rules.size()) {
                verdicts.add(new Verdict(dir.toString(), "real ipvsadm in the VM", Verdict.Status.FAIL,
                        "the guest stopped before it finished; its last lines:\n" + String.join("\n", o.tail())));
            }
            return verdicts;
        } catch (VmException e) {
            return List.of(new Verdict(dir.toString(), "real ipvsadm in the VM", Verdict.Status.FAIL, e.getMessage()));
        } finally {
            GuestImage.deleteQuietly(top);
        }
    }

    /** "FILE|VALIDATOR|OK or FAIL|DETAIL" from the guest. */
    static Verdict verdict(String line) {
        String[] f = line.split("\\|", 4);
        if (f.length < 4) {
            return new Verdict(line, "real ipvsadm in the VM", Verdict.Status.FAIL, "unreadable report from the guest");
        }
        return new Verdict(f[0], f[1], f[2].equals("OK") ? Verdict.Status.OK : Verdict.Status.FAIL, f[3]);
    }
}
