/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code -J name=value}: JMeter properties for the plan, as with {@code jmeter -J}, in the order given. */
public final class JMeterPropertiesOption {

    @Option(names = "-J", paramLabel = "name=value",
            description = "A JMeter property, as with jmeter -J, read by the plan as $${__P(name,default)}; "
                    + "Stampede's plans read host, port, threads, duration (s) and rampup (s). Repeatable.")
    Map<String, String> properties = new LinkedHashMap<>();

    /** The properties given, in order; a live view. */
    public Map<String, String> values() {
        return properties;
    }
}
