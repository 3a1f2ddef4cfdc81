/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.doctor.Doctor;
import io.stampede.doctor.DoctorReport;
import io.stampede.doctor.LoadEstimate;
import io.stampede.doctor.PlannedLoad;
import io.stampede.doctor.RunDiagnosis;
import io.stampede.doctor.Target;
import io.stampede.doctor.TimeWaitTrend;
import io.stampede.plan.PlanException;
import io.stampede.results.RunStatistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The doctor's part in a run: its verdict on this injector before the load starts, TIME_WAIT to the target
 * sampled while it runs, and at the end whether the errors point at the injector rather than the server.
 */
final class InjectorWatch {

    private final Doctor doctor;
    private final Optional<Target> target;
    private final DoctorReport report;
    private final long timeWaitBefore;
    private long timeWaitPeak;

    private InjectorWatch(Doctor doctor, Optional<Target> target, DoctorReport report) {
        this.doctor = doctor;
        this.target = target;
        this.report = report;
        this.timeWaitBefore = doctor.timeWait(target).toTarget();
        this.timeWaitPeak = timeWaitBefore;
    }

    static InjectorWatch start(PlanFile plan, RunProperties props, String host, int port) {
        Doctor doctor = Doctor.forThisMachine();
        Optional<Target> target;
        try {
            target = Optional.of(Target.resolve(host, port));
        } catch (IllegalArgumentException e) {
            target = Optional.empty();
        }
        PlannedLoad load;
        try {
            load = LoadEstimate.of(plan.tree(), props.values()).load();
        } catch (PlanException e) {
            load = PlannedLoad.unknown();
        }
        return new InjectorWatch(doctor, target, doctor.examine(target, load));
    }

    /** The doctor's verdict: one line, then one line per check that is not ok. */
    List<String> verdictLines() {
        List<String> lines = new ArrayList<>();
        lines.add("stampede run: " + report.summary());
        report.problemLines().forEach(l -> lines.add("  " + l));
        return lines;
    }

    /** Called at each progress tick: TIME_WAIT can only be caught growing while the run goes on. */
    void sample() {
        timeWaitPeak = Math.max(timeWaitPeak, doctor.timeWait(target).toTarget());
    }

    RunDiagnosis diagnose(RunStatistics stats) {
        sample();
        return RunDiagnosis.of(stats.errorsByKind(), stats.samples(),
                Optional.of(new TimeWaitTrend(timeWaitBefore, timeWaitPeak)), report.portBudget());
    }
}
