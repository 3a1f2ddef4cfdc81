/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster;

import io.stampede.cli.ExitCodes;
import io.stampede.cluster.validate.ClusterValidator;
import io.stampede.cluster.validate.Verdict;
import io.stampede.cluster.vm.VmLabOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine;
import io.stampede.cluster.vm.VmValidation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** stampede cluster validate DIR. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Run every validator installed here on a rendered tree and print each file's verdict:",
            "keepalived -t (any output or exit 4/5/6 fails), haproxy -c -f, nginx -t, nft -c -f,",
            "systemd-analyze verify, and Stampede's own ipvsadm-restore and sysctl.d checkers.",
            "A validator that is not installed is reported as SKIPPED.",
            "--vm: also load every ipvsadm.rules with the real ipvsadm-restore and ipvsadm -R on a real IPVS",
            "kernel, in the qemu guest that 'cluster lab FILE --vm' built (SKIPPED while there is none)."})
final class ValidateCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "DIR", description = "a directory written by 'stampede cluster render'")
    Path dir;

    @Mixin
    VmLabOptions vm;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        if (!Files.isDirectory(dir)) {
            spec.commandLine().getErr().println("validate: " + dir + " is not a directory");
            return ExitCodes.BAD_INPUT;
        }
        List<Verdict> verdicts;
        try {
            verdicts = new ArrayList<>(new ClusterValidator().validate(dir));
            if (vm.enabled()) {
                verdicts.addAll(new VmValidation(out).validate(dir, vm.cache()));
            }
        } catch (IOException e) {
            spec.commandLine().getErr().println("validate: " + e.getMessage());
            return ExitCodes.CANNOT_RUN;
        }
        verdicts.forEach(out::println);
        long failed = verdicts.stream().filter(v -> v.status() == Verdict.Status.FAIL).count();
        long ok = verdicts.stream().filter(v -> v.status() == Verdict.Status.OK).count();
        long skipped = verdicts.stream().filter(v -> v.status() == Verdict.Status.SKIPPED).count();
        out.println(ok + " ok, " + failed + " failed, " + skipped + " skipped (validator missing), "
                + (verdicts.size() - ok - failed - skipped) + " without a validator");
        return failed > 0 ? ExitCodes.CHECK_FAILED : ExitCodes.OK;
    }
}
