/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cli;

import io.stampede.names.PluginNames;

/**
 * The names of the command line that users keep: the JMeter properties it sets for plans and reads back from users'
 * {@code -J} options, and its Java system properties. They are <b>read by users' plans and typed in users'
 * properties and scripts: do not rename them</b>. The plugin's names (sampler properties, Stampede's JMeter
 * properties, the variables of {@code sample_variables}) are the plugin's own, in
 * {@link io.stampede.names.PluginNames}, which the command line compiles in.
 */
public final class CliNames {

    // ---- JMeter properties of the command line, read by plans as ${__P(name)} ---------------------------------

    /** The target host that {@code --host} sets; shipped plans read it, and so may users' plans. */
    public static final String HOST = "host";
    /** The target port that {@code --port} sets (80 with --host alone). */
    public static final String PORT = "port";
    /** Threads, duration (seconds) and ramp-up (seconds) of the shipped plans; checked before a run. */
    public static final String THREADS = "threads";
    public static final String DURATION = "duration";
    public static final String RAMPUP = "rampup";
    /** Where the injector monitor, started by the command line inside JMeter, writes its series. */
    public static final String INJECTOR_CSV = PluginNames.INJECTOR_CSV;

    // ---- JMeter's own properties the command line reads from users' -J options and sets ------------------------

    /** The variables JMeter writes into the JTL; the command line adds Stampede's after the user's. */
    public static final String SAMPLE_VARIABLES = "sample_variables";
    /** JMeter's RMI keystore; when a user gives one, RMI over TLS stays on. */
    public static final String RMI_KEYSTORE_FILE = "server.rmi.ssl.keystore.file";
    public static final String RMI_SSL_DISABLE = "server.rmi.ssl.disable";

    // ---- Java system properties (-D) ------------------------------------------------------------------------------

    /** The project folder, set by the {@code ./stampede} launcher. */
    public static final String ROOT = "stampede.root";
    /** The Maven repository plugins are fetched from (default Maven Central). */
    public static final String MAVEN_REPOSITORY = "stampede.maven.repository";

    private CliNames() {}
}
