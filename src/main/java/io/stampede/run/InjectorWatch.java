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
import io.stampede.doctor.Http2Outcome;
import io.stampede.doctor.RunDiagnosis;
import io.stampede.doctor.ServerLog;
import io.stampede.doctor.ServerLogFindings;
import io.stampede.doctor.Target;
import io.stampede.doctor.TimeWaitTimeline;
import io.stampede.plan.PlanException;
import io.stampede.results.RunStatistics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The doctor's part in a run: its verdict on this injector before the load starts, TIME_WAIT to the target
 * sampled while it runs next to the connection failures so far, the server's error log when given, and at the end
 * who closed the connections: the injector only on evidence, else the server or the network.
 */
final class InjectorWatch {

    private final Doctor doctor;
    private final Optional<Target> target;
    private final DoctorReport report;
    private final TimeWaitTimeline timeWait;
    private final Optional<ServerLog> serverLog;

    private InjectorWatch(Doctor doctor, Optional<Target> target, DoctorReport report, Optional<Path> serverLog) {
        this.doctor = doctor;
        this.target = target;
        this.report = report;
        this.timeWait = new TimeWaitTimeline(doctor.timeWait(target).toTarget());
        this.serverLog = serverLog.map(ServerLog::watch);
    }

    /** @param serverLog the target's error log on this machine, read for what it says during the run */
    static InjectorWatch start(PlanFile plan, RunProperties props, String host, int port, Optional<Path> serverLog) {
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
        return new InjectorWatch(doctor, target, doctor.examine(target, load), serverLog);
    }

    /** The doctor's verdict: one line, then one line per check that is not ok. */
    List<String> verdictLines() {
        List<String> lines = new ArrayList<>();
        lines.add("stampede run: " + report.summary());
        report.problemLines().forEach(l -> lines.add("  " + l));
        return lines;
    }

    /**
     * Called at each progress tick while JMeter runs: TIME_WAIT can only be caught at the time of the failures
     * while the run goes on (after it, it holds the injector's own closing of its connections).
     */
    void sample(RunStatistics stats) {
        timeWait.tick(doctor.timeWait(target).toTarget(), RunDiagnosis.connectionFailures(stats.errorsByKind()));
    }

    /** After the run: TIME_WAIT is counted once more for the peak only, for the reason above. */
    RunDiagnosis diagnose(RunStatistics stats) throws IOException {
        timeWait.afterRun(doctor.timeWait(target).toTarget());
        Optional<ServerLogFindings> log = serverLog.isPresent() ? Optional.of(serverLog.get().read()) : Optional.empty();
        return RunDiagnosis.of(stats.errorsByKind(), stats.samples(),
                Optional.of(timeWait.trend(RunDiagnosis.connectionFailures(stats.errorsByKind()))),
                report.portBudget(), log, Http2Outcome.of(stats.errorsByCode(), stats.samplesByProtocol()));
    }
}
