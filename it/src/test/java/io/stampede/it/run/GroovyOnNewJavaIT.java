/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.Plans;
import io.stampede.jmeter.JavaRuntime;
import io.stampede.jmeter.JavaSelection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Groovy scripts compile in the JMeter home Stampede assembles on the newest Java installed (the Virtual User Thread
 * Group takes it): JMeter 5.6.3's own Groovy 3.0.20 failed on Java 22+ with "Unsupported class file major version".
 */
class GroovyOnNewJavaIT {

    @Test
    void aJsr223GroovySamplerNamingJdkClassesRunsOnTheNewestJava(@TempDir Path work) {
        JavaSelection installed = new JavaSelection(null, null, JavaRuntime.current(), List.of(Path.of("/usr/lib/jvm")));
        JavaRuntime jdk = installed.newestInstalled().orElse(null);
        Assumptions.assumeTrue(jdk != null && jdk.feature() > 21, "no Java 22+ under /usr/lib/jvm, where Groovy "
                + "3.0.20 failed");
        JMeterRun.Result r = JMeterRun.of(JMeterHome.fromStampedeRoot(), Plans.get("groovy-on-new-java.jmx"), work)
                .java(jdk.home()).timeout(Duration.ofMinutes(2)).run();
        assertTrue(r.succeeded(), r.describe());
        List<JtlRow> rows = Jtl.read(r.jtl()).rows();
        assertEquals(1, rows.size(), r.describe());
        assertTrue(rows.get(0).success(), rows.get(0).responseMessage());
        assertTrue(rows.get(0).responseMessage().matches("groovy 3\\.0\\.\\d+ java " + jdk.feature() + " Date"),
                rows.get(0).responseMessage());
    }
}
