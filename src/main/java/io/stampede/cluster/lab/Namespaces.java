/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

import io.stampede.cluster.sys.Exec;
import io.stampede.cluster.sys.ExecResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Network-namespace plumbing. Every namespace the lab makes starts with {@link #PREFIX}, so leftovers of an
 * interrupted run can be found and removed by name, together with the processes still living in them.
 */
public final class Namespaces {

    public static final String PREFIX = "stl";
    static final Duration SHORT = Duration.ofSeconds(10);

    private Namespaces() {
    }

    /** ip ARGS, failing the lab when it fails. */
    static String ip(String... args) throws LabException {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        return must(Exec.run(SHORT, cmd), String.join(" ", cmd));
    }

    /** Runs a command inside a namespace with a time limit. */
    static ExecResult in(String ns, Duration limit, List<String> command) {
        return in(ns, limit, command, "");
    }

    /** Runs a command inside a namespace with {@code input} on its standard input (secrets: never in argv). */
    static ExecResult in(String ns, Duration limit, List<String> command, String input) {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        cmd.addAll(command);
        return Exec.run(limit, cmd, input);
    }

    static ExecResult in(String ns, String... command) {
        return in(ns, SHORT, List.of(command));
    }

    static String mustIn(String ns, String... command) throws LabException {
        return must(in(ns, command), ns + ": " + String.join(" ", command));
    }

    static String must(ExecResult r, String what) throws LabException {
        if (!r.ok()) {
            throw new LabException(what + " failed (" + (r.timedOut() ? "timed out" : "exit " + r.exitCode())
                    + "): " + r.output());
        }
        return r.stdout();
    }

    /** Loads an nft script inside a namespace (through stdin: no temporary file to clean up). */
    static void loadNft(String ns, String script) throws LabException {
        ExecResult r = in(ns, SHORT, List.of("sh", "-c", "printf '%s' \"$1\" | nft -f -", "sh", script));
        must(r, ns + ": nft -f");
    }

    /** Names of the lab's namespaces that exist now. */
    public static List<String> existing() {
        ExecResult r = Exec.run(SHORT, "ip", "netns", "list");
        List<String> names = new ArrayList<>();
        for (String line : r.stdout().split("\n")) {
            String name = line.strip().split("\\s+")[0];
            if (name.startsWith(PREFIX)) {
                names.add(name);
            }
        }
        return names;
    }

    /**
     * Kills whatever still runs inside the lab's namespaces (only processes the lab started live there), then
     * deletes the namespaces. Safe to call any number of times.
     */
    public static void removeAll() {
        for (String ns : existing()) {
            ExecResult pids = Exec.run(SHORT, "ip", "netns", "pids", ns);
            for (String pid : pids.stdout().split("\\s+")) {
                if (pid.matches("\\d+")) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
            Exec.run(SHORT, "ip", "netns", "del", ns);
        }
    }
}
