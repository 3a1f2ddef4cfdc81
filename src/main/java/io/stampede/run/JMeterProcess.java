/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.jmeter.JMeterCommandLine;
import io.stampede.jmeter.JMeterStop;
import io.stampede.jmeter.OwnSession;
import io.stampede.jmeter.VirtualUsersJvm;
import io.stampede.cli.StampedeRoot;
import io.stampede.distributed.ControllerStop;
import io.stampede.distributed.PrivateFolder;
import io.stampede.distributed.ResultStreamFilter;
import io.stampede.distributed.RmiBind;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The JMeter of one run: started non-GUI (or as the controller of remote engines) with its console in
 * jmeter.out, stopped with its children on Ctrl-C, and then asked for the HTML dashboard.
 */
final class JMeterProcess implements AutoCloseable {

    private static final List<String> JVM = List.of("-Xms512m", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=100",
            "-Djava.awt.headless=true",
            // A JVM out of heap would limp on, its users dying one by one: stop at once, and RunReport says why.
            "-XX:+ExitOnOutOfMemoryError");

    private final RunCommand.RunSetup setup;
    private final List<String> jvm;
    private final Process process;
    private final Thread stopHook;
    /** The controller's keystore password for JMeter's -q, kept until JMeter exits; null without one. */
    private final PrivateFolder privateFiles;

    private JMeterProcess(RunCommand.RunSetup setup, List<String> jvm, Process process, Thread stopHook,
                          PrivateFolder privateFiles) {
        this.setup = setup;
        this.jvm = jvm;
        this.process = process;
        this.stopHook = stopHook;
        this.privateFiles = privateFiles;
    }

    /** A heap size written as for -Xmx (digits, then k, m or g, or none for bytes), in whole megabytes. */
    static long megabytes(String heap) {
        char unit = Character.toLowerCase(heap.charAt(heap.length() - 1));
        long n = Long.parseLong(Character.isDigit(unit) ? heap : heap.substring(0, heap.length() - 1));
        return switch (unit) {
            case 'g' -> n * 1024;
            case 'm' -> n;
            case 'k' -> n / 1024;
            default -> n / (1024 * 1024);
        };
    }

    /**
     * Starts JMeter on the plan; a Ctrl-C from now on stops it (and asks remote engines to stop first), and waits for
     * the run's thread to report what was recorded ({@link RunInterrupt}).
     */
    static JMeterProcess start(RunCommand.RunSetup setup, RunProperties props, RunFiles files, String heap,
            RunInterrupt interrupt, PrintWriter out) throws IOException {
        List<String> jvm = new ArrayList<>(JVM);
        jvm.add(1, "-Xmx" + heap);
        if (megabytes(heap) < 512) {
            jvm.set(0, "-Xms" + heap); // a smaller --heap than the usual initial heap would not start at all
        }
        if (setup.plan().hasVirtualUsers()) {
            // Bytes per user count 100,000 times: no log4j2 per-thread caches, compact object headers on 25+.
            jvm.addAll(VirtualUsersJvm.options(setup.java()));
        }
        List<String> cmd;
        PrivateFolder privateFiles = null;
        if (setup.engines() == null) {
            cmd = JMeterCommandLine.run(setup.jmeter(), setup.java(), jvm, setup.planToLoad(), files.jtl(),
                    files.log(), InjectorSeriesFile.inRunFolder(props.values(), files.dir()));
        } else {
            List<String> controllerJvm = new ArrayList<>(jvm);
            controllerJvm.add(ResultStreamFilter.jvmOption());
            // the result listener the engines call back: advertised and listening on that address alone
            setup.engines().callbackAddress().ifPresent(a -> controllerJvm.addAll(List.of(
                    "-Djava.rmi.server.hostname=" + a, RmiBind.javaAgent(StampedeRoot.locate(), a))));
            Map<String, String> controllerProps = new LinkedHashMap<>(props.values());
            Path secrets = null;
            if (setup.rmiKeystore() != null) {
                controllerProps.putAll(setup.rmiKeystore().jmeterProperties());
                privateFiles = PrivateFolder.create("stampede-run-");
                secrets = privateFiles.writeProperties("rmi-ssl.properties", setup.rmiKeystore().secretProperties());
            }
            cmd = new ArrayList<>(JMeterCommandLine.runRemote(setup.jmeter(), setup.java(), controllerJvm,
                    setup.planToLoad(), files.jtl(), files.log(), controllerProps, setup.engines().jmeterList(),
                    setup.remoteExit(), secrets));
        }
        cmd = new ArrayList<>(cmd);
        cmd.addAll(setup.logLevels());
        Process process;
        try {
            process = new ProcessBuilder(OwnSession.command(cmd))
                    .directory(files.dir().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(files.console().toFile())
                    .start();
        } catch (IOException e) {
            if (privateFiles != null) {
                privateFiles.close();
            }
            throw e;
        }
        PrivateFolder secretFiles = privateFiles;
        Thread hook = new Thread(() -> {
            interrupt.begin();
            out.println("stampede run: interrupted: stopping JMeter" + (setup.engines() != null ? " and the engines"
                    : "") + "; the summary follows from what was recorded");
            out.flush();
            // StopTestNow (as bin/stoptest.sh): JMeter ends its threads and closes the JTL whole; signals only if not.
            ControllerStop.stopEngines(process, files.console(), setup.engines() != null ? 20 : 10);
            JMeterStop.stop(process, 5);
            if (secretFiles != null) {
                secretFiles.close();
            }
            interrupt.awaitReport();
        }, "stampede-run-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        return new JMeterProcess(setup, jvm, process, hook, privateFiles);
    }

    /** True when JMeter has exited within the time given. */
    boolean waitFor(int seconds) throws InterruptedException {
        return process.waitFor(seconds, TimeUnit.SECONDS);
    }

    int exitValue() {
        return process.exitValue();
    }

    /** The run is over: Ctrl-C no longer concerns this JMeter. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(stopHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is already running
        }
        if (privateFiles != null) {
            privateFiles.close();
        }
    }

    /**
     * Runs JMeter's report generator on the JTL; true when it wrote the dashboard's index.html within
     * {@code seconds}. It stays in the CLI's process group, so a second Ctrl-C ends it.
     */
    boolean generateDashboard(RunProperties props, RunFiles files, int seconds)
            throws IOException, InterruptedException {
        List<String> cmd = JMeterCommandLine.dashboard(setup.jmeter(), setup.java(), jvm, files.jtl(), files.dashboardLog(),
                files.dashboard(), props.values());
        Process p = new ProcessBuilder(cmd).directory(files.dir().toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(files.console().toFile()))
                .start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            JMeterStop.stop(p, 5);
            return false;
        }
        return p.exitValue() == 0 && Files.exists(files.dashboard().resolve("index.html"));
    }
}
