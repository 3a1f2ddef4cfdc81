/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.jmeter.JMeterInstallation;
import io.stampede.plan.HttpRequestConversion;
import io.stampede.plan.HttpRequestEngine;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How one run's HTTP Requests end up on the engine asked for, with the plan file left as it is: the engine's switch
 * jar goes on JMeter's search path, and JMeter's NameUpdater creates each of the other engine's HTTP Requests as
 * this engine's while it loads the plan (files it includes too). Loading the user's own file, rather than a
 * rewritten copy elsewhere, keeps the plan's relative paths (CSV files, includes) where the user put them.
 *
 * @param jar the switch jar to add to JMeter's search_paths
 * @param line what the run prints about it
 */
record EngineSwitch(HttpRequestEngine engine, Path jar, String line) {

    /** The jars' folder in the JMeter home the build assembles. */
    static final String FOLDER = "switch";

    static EngineSwitch of(HttpRequestEngine engine, PlanFile plan, Path stampedeRoot) {
        Path jar = JMeterInstallation.bundledHome(stampedeRoot).resolve(FOLDER).resolve(engine.switchJar());
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("the engine switch " + jar + " is missing: build it with"
                    + " `mvn -B -DskipTests package` (./stampede does that when needed)");
        }
        int switched = HttpRequestConversion.count(plan.tree(), engine.other());
        int already = HttpRequestConversion.count(plan.tree(), engine);
        String file = plan.tree().fileName();
        String line;
        if (switched > 0) {
            line = String.format("engine %s: %d HTTP Request%s of %s run on %s (the file is not changed)",
                    engine.id(), switched, switched == 1 ? "" : "s", file, engine.description());
        } else if (already > 0) {
            line = String.format("engine %s: the %d HTTP Request%s of %s already use%s %s, nothing to switch",
                    engine.id(), already, already == 1 ? "" : "s", file, already == 1 ? "s" : "", engine.description());
        } else {
            line = String.format("engine %s: %s has no HTTP Request (JMeter's or Stampede's), nothing to switch",
                    engine.id(), file);
        }
        return new EngineSwitch(engine, jar, line);
    }
}
