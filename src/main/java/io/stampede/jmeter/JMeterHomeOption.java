/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --jmeter-home}: the JMeter installation a command uses, the bundled JMeter 5.6.3 unless one is given. */
public final class JMeterHomeOption {

    @Option(names = "--jmeter-home", paramLabel = "DIR",
            description = "Use this JMeter installation instead of the bundled JMeter 5.6.3 (Stampede's jars and "
                    + "added plugins reach it through -Jsearch_paths).")
    Path jmeterHome;

    /**
     * The installation chosen.
     *
     * @param stampedeRoot the project folder, where the bundled JMeter and Stampede's jars are
     * @param installPlugin true to put Stampede's jar into a given installation's lib/ext (the engine switch)
     */
    public JMeterInstallation installation(Path stampedeRoot, boolean installPlugin) throws IOException {
        return jmeterHome == null ? JMeterInstallation.bundled(stampedeRoot)
                : JMeterInstallation.user(jmeterHome.toAbsolutePath().normalize(), stampedeRoot, installPlugin);
    }

    /** True when the user gave an installation of their own. */
    public boolean given() {
        return jmeterHome != null;
    }
}
