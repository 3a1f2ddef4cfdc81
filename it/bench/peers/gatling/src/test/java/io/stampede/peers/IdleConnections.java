/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.peers;

import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Scenario 3: USERS users, each with its own keep-alive connection (Gatling's per-user pool), one GET /test.txt then
 * THINK_MS of think time, in a loop: mostly idle connections.
 */
public class IdleConnections extends Simulation {
    private final ScenarioBuilder users = scenario("idle connections")
            .forever().on(http("test.txt").get("/test.txt"), pause(Duration.ofMillis(Settings.THINK_MS)));

    {
        setUp(users.injectOpen(nothingFor(Duration.ofSeconds(Settings.DELAY)),
                        rampUsers(Settings.USERS).during(Duration.ofSeconds(Settings.RAMP))))
                .protocols(Settings.protocol())
                .maxDuration(Duration.ofSeconds(Settings.DELAY + Settings.DURATION));
    }
}
