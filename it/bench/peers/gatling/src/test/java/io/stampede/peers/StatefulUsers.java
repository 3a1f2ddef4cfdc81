/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.peers;

import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.regex;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Scenario 2: each user logs in once (POST of a form; the session cookie lands in the user's own cookie jar), keeps
 * the value the answer carries, then loops: GET /step/{value} with the cookie, the next value taken from the answer,
 * think time. Users start after DELAY seconds and ramp over RAMP seconds.
 */
public class StatefulUsers extends Simulation {
    private final ScenarioBuilder users = scenario("stateful users")
            .exec(http("login").post("/login").formParam("user", session -> session.userId()).formParam("password", "secret")
                    .check(regex("next=(\\S+)").saveAs("next")))
            .forever().on(
                    http("step").get("/step/#{next}").check(regex("next=(\\S+)").saveAs("next")),
                    pause(Duration.ofMillis(Settings.THINK_MS)));

    {
        setUp(users.injectOpen(nothingFor(Duration.ofSeconds(Settings.DELAY)),
                        rampUsers(Settings.USERS).during(Duration.ofSeconds(Settings.RAMP))))
                .protocols(Settings.protocol())
                .maxDuration(Duration.ofSeconds(Settings.DELAY + Settings.DURATION));
    }
}
