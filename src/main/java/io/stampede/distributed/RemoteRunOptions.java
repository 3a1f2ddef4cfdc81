/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/** `stampede run --remote` and its options: the engines of a distributed run and RMI over TLS to them. */
public final class RemoteRunOptions {

    @Option(names = "--remote", paramLabel = "host[:port],...",
            description = "Run through JMeter's distributed mode (-R) on these engines (`stampede server` on each; "
                    + "port default 1099). Each engine runs its share of the plan (see --whole-plan-per-engine); their samples "
                    + "come back into one JTL. "
                    + "-J properties are sent to the engines (-G).")
    String remote;

    @Option(names = "--whole-plan-per-engine",
            description = "With --remote: every engine runs the whole plan, as in JMeter's distributed mode (N engines"
                    + " x the plan's users). Without it each engine runs its share, so together they run the plan.")
    boolean wholePlanPerEngine;

    @Option(names = "--rmi-keystore", paramLabel = "FILE",
            description = "With --remote: RMI over TLS with this keystore, the engines' --ssl-keystore (from "
                    + "`stampede server create-keystore DIR`).")
    Path rmiKeystore;

    @Option(names = "--rmi-password-file", paramLabel = "FILE",
            description = "File (mode 0600) whose first line is the password of --rmi-keystore (default: changeit, as"
                    + " JMeter's create-rmi-keystore). JMeter reads it from a private property file, not -J.")
    Path rmiPasswordFile;

    @Option(names = "--remote-exit", description = "With --remote: the engines exit when the run ends (-X).")
    boolean remoteExit;

    /**
     * The engines of --remote, or null for a run on this machine.
     *
     * @throws IllegalArgumentException naming the option and the fix
     */
    public RemoteEngines engines() {
        RemoteEngines engines = remote == null ? null : RemoteEngines.parse(remote);
        if (remoteExit && engines == null) {
            throw new IllegalArgumentException("--remote-exit works with --remote only: add --remote host[:port],...");
        }
        return engines;
    }

    /** --remote as given, for messages. */
    public String given() {
        return remote;
    }

    /** With --remote: every engine runs the whole plan (JMeter's way) instead of its share. */
    public boolean wholePlanPerEngine() {
        return wholePlanPerEngine;
    }

    public boolean remoteExit() {
        return remoteExit;
    }

    /**
     * The controller's keystore for RMI over TLS, or null for plain RMI (or the user's own -J settings).
     *
     * @param engines the engines of --remote, or null
     * @param properties the -J properties given
     * @throws IllegalArgumentException naming the option and the fix
     */
    public RmiKeystore keystore(RemoteEngines engines, Map<String, String> properties) {
        if (rmiKeystore == null) {
            if (rmiPasswordFile != null) {
                throw new IllegalArgumentException("--rmi-password-file needs --rmi-keystore: give the keystore too");
            }
            return null;
        }
        if (engines == null) {
            throw new IllegalArgumentException("--rmi-keystore works with --remote only: add --remote host[:port],...");
        }
        if (!Files.isRegularFile(rmiKeystore)) {
            throw new IllegalArgumentException("--rmi-keystore " + rmiKeystore + " is not a file: give the engines'"
                    + " keystore (`stampede server create-keystore DIR` makes one)");
        }
        if (properties.keySet().stream().anyMatch(k -> k.startsWith("server.rmi.ssl."))) {
            throw new IllegalArgumentException("--rmi-keystore and -J server.rmi.ssl.* both given: keep --rmi-keystore"
                    + " and --rmi-password-file");
        }
        String password = rmiPasswordFile == null ? "changeit"
                : PasswordFile.read(rmiPasswordFile, "--rmi-password-file");
        return new RmiKeystore(rmiKeystore.toAbsolutePath().normalize(), password);
    }
}
