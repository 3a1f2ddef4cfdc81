/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Read-only checks of the machine and network namespace an injector runs in, against a planned load.
 *
 * <p>Used by `stampede doctor` and, before a load test, by `stampede run`; {@link #timeWait} lets the run
 * sample TIME_WAIT to the target before and after, for {@link RunDiagnosis}.
 */
public final class Doctor {

    private final SystemFiles files;
    private final String osName;
    /** This machine's ss, for TIME_WAIT counts during a run; empty for fixture trees and where ss is missing. */
    private final Optional<SocketStats> socketStats;

    /**
     * @param files where /proc and /etc are read
     * @param osName as System.getProperty("os.name"); "Windows ..." gets explanations instead of readings
     */
    public Doctor(SystemFiles files, String osName) {
        this(files, osName, Optional.empty());
    }

    private Doctor(SystemFiles files, String osName, Optional<SocketStats> socketStats) {
        this.files = files;
        this.osName = osName;
        this.socketStats = socketStats;
    }

    /** The machine and namespace this JVM runs in. */
    public static Doctor forThisMachine() {
        String os = System.getProperty("os.name", "");
        return new Doctor(SystemFiles.under(Path.of("/")), os,
                os.toLowerCase(Locale.ROOT).startsWith("linux") ? SocketStats.find() : Optional.empty());
    }

    public DoctorReport examine(Optional<Target> target, PlannedLoad load) {
        Findings findings = new Findings();
        List<String> context = new ArrayList<>();
        Optional<PortBudget> budget = Optional.empty();
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.startsWith("windows")) {
            context.add("stampede doctor on " + osName + " (the JVM cannot read Windows' TCP settings: defaults and commands follow)");
            new WindowsChecks(load).addTo(findings);
        } else if (os.startsWith("linux")) {
            Kernel kernel = new Kernel(files);
            context.add("stampede doctor on Linux " + kernel.text("kernel.osrelease").orElse("?") + ", network namespace "
                    + files.readLink("/proc/self/ns/net").orElse("?"));
            budget = PortBudget.read(kernel, target);
            Examination examination = new Examination(kernel, target, load);
            new PortChecks(examination).addTo(findings);
            new LimitChecks(examination).addTo(findings);
            new SysctlFileChecks(kernel).addTo(findings);
        } else {
            context.add("stampede doctor on " + osName);
            findings.add("os", "operating system", osName, Verdict.WARN, "the doctor reads Linux's /proc and explains"
                    + " Windows; it has no checks for this system", List.of("run injectors on Linux"));
        }
        target.ifPresent(t -> context.add("target " + t.describe()));
        return new DoctorReport(context, load, findings.checks, findings.facts, budget);
    }

    /** TIME_WAIT sockets now, in total and to the target: sample before and after a run. */
    public TimeWaitCount timeWait(Optional<Target> target) {
        return socketStats.flatMap(ss -> ss.timeWait(target)).orElseGet(() -> new TcpTable(files).timeWait(target));
    }
}
