/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** `run` and `server` start JMeter through this one helper. */
class OwnSessionTest {
    @Test
    void jmeterRunsInASessionOfItsOwnSoTheTerminalsCtrlCReachesOnlyTheCli() {
        assertEquals(List.of("/usr/bin/setsid", "java", "-jar", "ApacheJMeter.jar"),
                OwnSession.command(List.of("java", "-jar", "ApacheJMeter.jar")));
    }
}
