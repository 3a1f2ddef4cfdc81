/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import io.stampede.cli.ExitCodes;
import io.stampede.cli.StampedeRoot;
import io.stampede.jmeter.JMeterCommandLine;
import io.stampede.jmeter.JMeterHomeOption;
import io.stampede.jmeter.JMeterInstallation;
import io.stampede.jmeter.JMeterStop;
import io.stampede.jmeter.JavaRuntime;
import io.stampede.jmeter.JavaSelection;
import io.stampede.jmeter.OwnSession;
import io.stampede.metrics.MetricsEndpoint;
import io.stampede.metrics.RunMetrics;
import io.stampede.names.PluginNames;
import io.stampede.plugins.PluginsOption;
import io.stampede.run.InjectorSeriesFile;
import io.stampede.run.PlanFile;
import io.stampede.run.Reachability;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** `stampede server`: one jmeter-server engine, with Stampede's samplers, for `stampede run --remote`. */
@Command(
        name = "server",
        mixinStandardHelpOptions = true,
        subcommands = CreateKeystoreCommand.class,
        description = {
            "Start a JMeter engine (jmeter-server) that runs the plans a controller sends it over RMI: "
                    + "`stampede run PLAN.jmx --remote THIS_HOST:PORT,...`. Stampede's samplers and the "
                    + "jmeter-plugins thread groups are in its lib/ext. Ctrl-C stops it.",
            "",
            "RMI on a private network: --bind is the address controllers reach this engine at "
                    + "(java.rmi.server.hostname). Controllers also need a way back: the engine calls them on "
                    + "random ports unless client.rmi.localport is set on the controller. --port is the RMI "
                    + "registry (server_port), --rmi-port the engine object (server.rmi.localport); fix both "
                    + "to open them in a firewall. Both listen on --bind alone. For RMI over TLS, create a keystore "
                    + "once (`stampede server create-keystore DIR`) and give it with --ssl-keystore and "
                    + "--ssl-password-file. Without --ssl-keystore, RMI is plain (server.rmi.ssl.disable=true): "
                    + "anyone who reaches the ports can run code here, so keep "
                    + "engines on a private network.",
            "",
            "Exit 0 when the engine exits because a controller asked it to (--remote-exit) or on Ctrl-C.",
            ""
        })
public final class ServerCommand implements Callable<Integer> {

    // JMeter prints this once the engine object is exported: "... endpoint:[127.0.0.1:41100](local) ..." or, with
    // SSL, "... endpoint:[127.0.0.1:41100,SSLRMIServerSocketFactory(...)...](local) ...".
    static final Pattern EXPORTED = Pattern.compile("Created remote object.*endpoint:\\[([^\\],:]+):(\\d+)[,\\]]");

    @Option(names = "--port", paramLabel = "P",
            description = "RMI registry port controllers connect to (server_port; default: ${DEFAULT-VALUE}).")
    int port = RemoteEngine.DEFAULT_PORT;

    @Option(names = "--rmi-port", paramLabel = "P2",
            description = "Port of the engine object (server.rmi.localport); default ${DEFAULT-VALUE} = any free "
                    + "port. Fix it for firewalls.")
    int rmiPort;

    @Option(names = "--bind", paramLabel = "ADDR",
            description = "The only address the engine listens on, and the one controllers reach it at "
                    + "(java.rmi.server.hostname; default: ${DEFAULT-VALUE}: only controllers on this machine). "
                    + "Use this machine's injector-network address.")
    String bind = "127.0.0.1";

    @Option(names = "--ssl-keystore", paramLabel = "FILE",
            description = "Keystore (alias rmi) for RMI over SSL, e.g. from `stampede server create-keystore`; "
                    + "the controller needs the same one (run --rmi-keystore). Default: plain RMI "
                    + "(server.rmi.ssl.disable=true).")
    Path keystore;

    @Option(names = "--ssl-password-file", paramLabel = "FILE",
            description = "File (mode 0600) whose first line is the password of --ssl-keystore.")
    Path keystorePasswordFile;

    @Option(names = "--ssl-password", paramLabel = "PASS",
            description = "Password of --ssl-keystore (default: changeit, as JMeter's create-rmi-keystore). "
                    + "It shows in `ps` to every user of this machine: prefer --ssl-password-file.")
    String keystorePassword;

    @Option(names = "--heap", paramLabel = "SIZE", description = "The engine's heap, as for -Xmx (default: ${DEFAULT-VALUE}).")
    String heap = "2g";

    @Option(names = "--java", paramLabel = "PATH",
            description = "Run the engine on this Java (a JDK's home or its bin/java). Default: JAVA_HOME, else the "
                    + "Java running stampede; when --plan holds a Stampede Virtual User Thread Group (Java 21+) and "
                    + "neither is 21+, the newest 21+ under /usr/lib/jvm and the other usual places.")
    Path java;

    @Option(names = "--log", paramLabel = "FILE",
            description = "The engine's JMeter log (default: jmeter-server-<port>.log in the current folder).")
    Path log;

    @Option(names = "--plan", paramLabel = "PLAN.jmx",
            description = "Give this engine the plugins the plan needs before it starts (as `stampede run` does,"
                    + " see --plugins); plugins added to this JMeter before (`stampede plugins add`) it always gets.")
    Path plan;

    @Mixin
    MetricsEndpoint metrics;

    @Mixin
    JMeterHomeOption jmeterHome;

    @Mixin
    PluginsOption plugins;

    @Spec
    CommandSpec spec;

    private PrintWriter stdout;

    @Override
    public Integer call() throws Exception {
        stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        ServerSettings settings;
        JMeterInstallation jmeter;
        List<String> rmiJvm;
        JavaRuntime engineJava;
        try {
            settings = new ServerSettings(port, rmiPort, bind, keystore, password());
            if (!heap.matches("\\d+[kKmMgG]?")) {
                throw new IllegalArgumentException("--heap " + heap + ": give a size such as 2g or 1536m");
            }
            requireFree(port, "--port");
            if (rmiPort != 0 && rmiPort != port) {
                requireFree(rmiPort, "--rmi-port");
            }
            metrics.check(spec);
            Path root = StampedeRoot.locate();
            jmeter = plugins.prepare(jmeterHome.installation(root, false), plan, stdout, "stampede server");
            rmiJvm = settings.jvmOptions(root);
            engineJava = engineJava();
        } catch (IllegalArgumentException | IllegalStateException e) {
            stderr.println("stampede server: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        Path logFile = (log != null ? log : Path.of("jmeter-server-" + port + ".log")).toAbsolutePath().normalize();
        Optional<RunMetrics> live;
        try {
            live = metrics.start("stampede server", stdout);
        } catch (IllegalArgumentException e) {
            stderr.println("stampede server: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        try (PrivateFolder privateFiles = PrivateFolder.create("stampede-server-");
             EngineMetrics engineMetrics = EngineMetrics.start(live, logFile, stderr)) {
            return serve(settings, jmeter, engineJava, rmiJvm, logFile, privateFiles, engineMetrics, stderr);
        }
    }

    /**
     * The engine's JVM, chosen as `stampede run` chooses JMeter's. An engine runs whatever plan a controller sends, so
     * without --plan it cannot know that one needs Java 21+; it says so when it runs on an older Java.
     */
    private JavaRuntime engineJava() {
        boolean virtualUsers = plan != null && PlanFile.read(plan).hasVirtualUsers();
        JavaSelection.Choice choice = JavaSelection.fromEnvironment(java).choose(virtualUsers);
        if (choice.note() != null) {
            stdout.println("stampede server: " + choice.note());
        }
        stdout.println("stampede server: the engine runs on " + choice.runtime());
        if (choice.runtime().feature() < JavaSelection.VIRTUAL_THREADS_JAVA) {
            stdout.println("stampede server: plans with a Stampede Virtual User Thread Group need Java "
                    + JavaSelection.VIRTUAL_THREADS_JAVA + "+ on the engine: for those, start it with --java "
                    + "/path/to/jdk-21-or-newer (or --plan PLAN.jmx, which picks one)");
        }
        return choice.runtime();
    }

    private int serve(ServerSettings settings, JMeterInstallation jmeter, JavaRuntime engineJava, List<String> rmiJvm,
                      Path logFile, PrivateFolder privateFiles, EngineMetrics engineMetrics, PrintWriter stderr)
            throws IOException, InterruptedException {
        List<String> jvm = new ArrayList<>(List.of("-Xms256m", "-Xmx" + heap, "-XX:+UseG1GC",
                "-XX:MaxGCPauseMillis=100", "-Djava.awt.headless=true"));
        jvm.addAll(rmiJvm);
        // the injector monitor in the engine (started by the element `stampede run` puts in the plans it sends): its
        // own series next to the log, sent to each distributed run's controller too, under the name controllers know
        // this engine by
        Map<String, String> props = new LinkedHashMap<>(settings.jmeterProperties());
        props.put(PluginNames.ENGINE_NAME, settings.advertisedAddress() + ":" + settings.registryPort());
        props = InjectorSeriesFile.writingTo(props, EngineMetrics.series(logFile));
        props.putAll(engineMetrics.jmeterProperties());
        Path secrets = settings.ssl() ? privateFiles.writeProperties("rmi-ssl.properties", settings.secretProperties())
                : null;
        List<String> cmd = JMeterCommandLine.server(jmeter, engineJava, jvm, logFile, props, secrets);

        Process engine = new ProcessBuilder(OwnSession.command(cmd)).redirectErrorStream(true).start();
        AtomicBoolean stopping = new AtomicBoolean();
        Thread stopper = new Thread(() -> {
            stopping.set(true);
            JMeterStop.stop(engine, 10);
            privateFiles.close();
            engineMetrics.close();
        }, "stampede-server-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        stdout.printf("stampede server: starting a JMeter engine (pid %d), log %s%n", engine.pid(), logFile);
        relay(engine, settings, privateFiles);
        int exit = engine.waitFor();
        try {
            Runtime.getRuntime().removeShutdownHook(stopper);
        } catch (IllegalStateException shuttingDown) {
            // Ctrl-C: the hook is stopping the engine
        }
        if (stopping.get()) {
            stdout.println("stampede server: engine stopped");
            return ExitCodes.OK;
        }
        if (exit == 0) {
            stdout.println("stampede server: the engine exited (a controller asked it to, e.g. --remote-exit)");
            return ExitCodes.OK;
        }
        stderr.printf("stampede server: the engine stopped with exit %d; see %s%n", exit, logFile);
        return ExitCodes.JMETER_FAILED;
    }

    /**
     * Passes JMeter's console through and says, once, where the engine listens. JMeter reads its property files
     * (the keystore's password) first thing and exports the engine much later: once it has, the private folder is
     * removed, so it does not wait for the engine's end.
     */
    private void relay(Process engine, ServerSettings settings, PrivateFolder privateFiles) throws IOException {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(engine.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                stdout.println("  | " + line);
                Matcher m = EXPORTED.matcher(line);
                if (m.find()) {
                    try {
                        privateFiles.close();
                    } catch (UncheckedIOException e) {
                        stdout.println("stampede server: warning: " + e.getMessage() + " (" + e.getCause() + ")");
                    }
                    awaitRegistry(settings);
                    ready(settings, m.group(2));
                }
            }
        }
    }

    /**
     * JMeter prints the exported object before it creates the registry, so "ready" waits for the registry's port:
     * a controller started on that line must find it listening.
     */
    private void awaitRegistry(ServerSettings s) {
        try {
            String why = Reachability.await(s.advertisedAddress(), s.registryPort(), 30_000);
            if (why != null) {
                spec.commandLine().getErr().printf("stampede server: the RMI registry on %s:%d does not accept connections (%s); see the"
                        + " engine's log%n", s.advertisedAddress(), s.registryPort(), why);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void ready(ServerSettings s, String objectPort) {
        stdout.printf("stampede server: ready: RMI registry on port %d, engine object on port %s, advertised as %s%n",
                s.registryPort(), objectPort, s.advertisedAddress());
        stdout.println(s.ssl()
                ? "stampede server: RMI over SSL with " + s.keystore() + " (listening on " + s.advertisedAddress() + ")"
                : "stampede server: plain RMI (server.rmi.ssl.disable=true), listening on " + s.advertisedAddress()
                        + " only: whoever reaches it can run code here; keep it on a private network, or use"
                        + " --ssl-keystore");
        stdout.printf("stampede server: controllers run: ./stampede run PLAN.jmx --remote %s:%d   (Ctrl-C stops"
                + " this engine)%n", s.advertisedAddress(), s.registryPort());
        stdout.flush();
    }

    private String password() {
        if (keystorePasswordFile != null && keystorePassword != null) {
            throw new IllegalArgumentException("--ssl-password and --ssl-password-file both given: keep"
                    + " --ssl-password-file (a password on the command line shows in ps)");
        }
        if (keystorePasswordFile != null) {
            if (keystore == null) {
                throw new IllegalArgumentException("--ssl-password-file needs --ssl-keystore: give the keystore too");
            }
            return PasswordFile.read(keystorePasswordFile, "--ssl-password-file");
        }
        return keystorePassword != null ? keystorePassword : "changeit";
    }

    private static void requireFree(int port, String option) {
        // Bound the way RMI binds (SO_REUSEADDR), so a leftover TIME_WAIT connection does not count as "in use".
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(port));
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + port + " is in use (" + e.getMessage()
                    + "): choose another port, or stop what listens there");
        }
    }
}
