/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.engine;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.FreePort;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.Plans;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plan aimed at a closed port: every sample fails the JMeter way, and the test still runs to its end. */
class RefusedConnectionIT {

    private static final int THREADS = 2;
    private static final int LOOPS = 5;

    @TempDir
    Path work;

    @Test
    void everySampleReportsConnectionRefusedAndJMeterCompletes() {
        int closedPort = FreePort.loopback(); // released at once: nothing listens there
        JMeterRun.Result result = JMeterRun.of(JMeterHome.fromStampedeRoot(), Plans.get("stepping-keepalive.jmx"), work)
                .property("host", "127.0.0.1")
                .property("port", closedPort)
                .property("threads", THREADS)
                .property("loops", LOOPS)
                .timeout(Duration.ofSeconds(90))
                .run();

        assertTrue(result.succeeded(), result::describe);
        Jtl jtl = Jtl.read(result.jtl());
        assertAll(
                () -> assertEquals(THREADS * LOOPS, jtl.count("RAW GET /test.txt"), "RAW samples"),
                () -> assertEquals(THREADS * LOOPS, jtl.count("HTTP GET /test.txt"), "HTTP samples"),
                () -> assertEquals(jtl.count(), jtl.errors(), "failed samples"),
                () -> assertEquals(Set.of("Non HTTP response code: java.net.ConnectException"), jtl.statusCodes()),
                () -> assertTrue(jtl.rows().stream().map(JtlRow::responseMessage)
                                .allMatch(m -> m.startsWith("Non HTTP response message: Connection refused")),
                        () -> "response messages: " + jtl.rows().stream().map(JtlRow::responseMessage).distinct().toList()));
    }
}
