/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.peers;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/** Scenario 1: a closed workload of USERS users, each looping GET /test.txt on its keep-alive connection. */
public class StatelessRate extends Simulation {
    private final ScenarioBuilder users = scenario("stateless rate")
            .forever().on(http("test.txt").get("/test.txt"));

    {
        setUp(users.injectClosed(constantConcurrentUsers(Settings.USERS).during(Settings.DURATION)))
                .protocols(Settings.protocol())
                .maxDuration(Duration.ofSeconds(Settings.DURATION));
    }
}
