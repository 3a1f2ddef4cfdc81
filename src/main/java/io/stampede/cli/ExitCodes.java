/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;

/**
 * The one set of exit codes every `stampede` command returns, and the list `--help` prints under "Exit status".
 * README.md lists the same codes; {@code ExitCodesTest} holds the two together.
 */
public final class ExitCodes {

    /** The command did its job; every check passed. */
    public static final int OK = 0;
    /** A check failed: doctor found a limit that will fail the test, a rendered file or a lab check failed. */
    public static final int CHECK_FAILED = 1;
    /** Bad input: an option, plan, property or description file; the message names it and the fix. */
    public static final int BAD_INPUT = 2;
    /** The target or a remote engine cannot be reached. */
    public static final int UNREACHABLE = 3;
    /** JMeter (or a remote engine) failed to start, to finish, or to write the dashboard. */
    public static final int JMETER_FAILED = 4;
    /** Doctor: warnings only, nothing that will fail the test. */
    public static final int WARNINGS = 5;
    /** This machine cannot do it: not root, a program missing, a file that cannot be written. */
    public static final int CANNOT_RUN = 6;
    /** A defect in Stampede: an unexpected exception (its stack trace is printed). */
    public static final int SOFTWARE = 70;
    /** Ctrl-C (SIGINT): the shell's 128 + 2, which the JVM also exits with; the run's report covers what was recorded. */
    public static final int INTERRUPTED = 130;

    private static final Map<String, String> HELP = help();

    private ExitCodes() {
    }

    private static Map<String, String> help() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(" " + OK, "done; every check passed");
        m.put(" " + CHECK_FAILED, "a check failed (doctor, cluster validate, cluster lab)");
        m.put(" " + BAD_INPUT, "bad input: the message names the option, plan or file and the fix; nothing written");
        m.put(" " + UNREACHABLE, "the target or a remote engine is unreachable (run)");
        m.put(" " + JMETER_FAILED, "JMeter or an engine failed to start, to finish or to write the dashboard");
        m.put(" " + WARNINGS, "doctor: warnings only");
        m.put(" " + CANNOT_RUN, "this machine cannot do it: not root, a program missing, output not writable");
        m.put(String.valueOf(SOFTWARE), "a defect in Stampede (stack trace printed)");
        m.put(String.valueOf(INTERRUPTED), "interrupted (Ctrl-C): the run's summary covers what was recorded");
        return m;
    }

    /** The codes as `--help` lists them, code to meaning, in order. */
    public static Map<String, String> helpList() {
        return HELP;
    }

    /**
     * Gives a command line and all its subcommands the same exit codes and the same "Exit status" list:
     * invalid options are {@link #BAD_INPUT}, an escaped exception is {@link #SOFTWARE}.
     */
    public static CommandLine apply(CommandLine cli) {
        cli.getCommandSpec().exitCodeOnInvalidInput(BAD_INPUT).exitCodeOnExecutionException(SOFTWARE)
                .usageMessage().exitCodeListHeading("%nExit status:%n").exitCodeList(HELP);
        cli.getSubcommands().values().forEach(ExitCodes::apply);
        return cli;
    }
}
