/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * {@code -L category=LEVEL}: a level of JMeter's log, handed to JMeter as its own {@code -L}. JMeter 5.6.3 logs
 * through log4j2 and ignores the {@code log_level.*} properties of JMeter 2 and 3, so a {@code -J} cannot quiet a
 * category: at 100,000 users {@code org.apache.jmeter.threads} alone writes two lines a user.
 */
public final class JMeterLogLevelsOption {

    private static final Set<String> LEVELS = Set.of("OFF", "FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE", "ALL");

    @Option(names = "-L", paramLabel = "category=LEVEL",
            description = "A level of JMeter's log, as with jmeter -L: e.g. -L jmeter.threads=WARN (jmeter.* and "
                    + "jorphan.* are under org.apache.), or a LEVEL alone for the root. Levels: OFF, FATAL, ERROR, "
                    + "WARN, INFO, DEBUG, TRACE, ALL. Repeatable. With --remote, the controller's log only.")
    List<String> levels = new ArrayList<>();

    /**
     * JMeter's arguments for the levels given, in order.
     *
     * @throws IllegalArgumentException naming the option and the fix for a level JMeter would only warn about
     */
    public List<String> jmeterArguments() {
        List<String> args = new ArrayList<>();
        for (String given : levels) {
            int eq = given.indexOf('=');
            String category = eq < 0 ? "" : given.substring(0, eq).trim();
            String level = (eq < 0 ? given : given.substring(eq + 1)).trim().toUpperCase(Locale.ROOT);
            if (!LEVELS.contains(level) || (eq >= 0 && category.isEmpty())) {
                throw new IllegalArgumentException("-L " + given + ": give category=LEVEL (e.g. -L jmeter.threads=WARN)"
                        + " or a LEVEL alone, with LEVEL one of OFF, FATAL, ERROR, WARN, INFO, DEBUG, TRACE, ALL");
            }
            args.add("-L" + (category.isEmpty() ? level : category + "=" + level));
        }
        return args;
    }
}
