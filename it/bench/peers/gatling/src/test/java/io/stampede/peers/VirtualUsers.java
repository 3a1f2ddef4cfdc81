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
 * The scenario of it/bench/virtual-users-bench.jmx (it/bench/virtual-users-benchmark.sh --gatling): each user logs
 * in once with GET /login and its number in X-User (the session cookie lands in the user's cookie jar), keeps the
 * value the answer carries, then loops GET /step/{value} with the cookie and X-User, the next value taken from the
 * answer, think time.
 */
public class VirtualUsers extends Simulation {
    private final ScenarioBuilder users = scenario("virtual users")
            .exec(http("login").get("/login").header("X-User", session -> String.valueOf(session.userId()))
                    .check(regex("next=(\\S+)").saveAs("next")))
            .forever().on(
                    http("step").get("/step/#{next}").header("X-User", session -> String.valueOf(session.userId()))
                            .check(regex("next=(\\S+)").saveAs("next")),
                    pause(Duration.ofMillis(Settings.THINK_MS)));

    {
        setUp(users.injectOpen(nothingFor(Duration.ofSeconds(Settings.DELAY)),
                        rampUsers(Settings.USERS).during(Duration.ofSeconds(Settings.RAMP))))
                .protocols(Settings.protocol())
                .maxDuration(Duration.ofSeconds(Settings.DELAY + Settings.DURATION));
    }
}
