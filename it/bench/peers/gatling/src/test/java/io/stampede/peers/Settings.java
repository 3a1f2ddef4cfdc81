/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.peers;

import static io.gatling.javaapi.http.HttpDsl.http;

import io.gatling.javaapi.http.HttpProtocolBuilder;

/** What the benchmark scripts pass to every simulation, as system properties (-Dname=value on the mvn line). */
final class Settings {
    static final String BASE_URL = System.getProperty("baseUrl", "http://127.0.0.1:8080");
    static final int USERS = Integer.getInteger("users", 200);
    /** Seconds before the first user starts, so the benchmark can read the JVM's footprint without users. */
    static final int DELAY = Integer.getInteger("delay", 0);
    static final int RAMP = Integer.getInteger("ramp", 1);
    /** Seconds the load lasts from the first user on. */
    static final int DURATION = Integer.getInteger("duration", 60);
    static final int THINK_MS = Integer.getInteger("thinkMs", 10_000);

    private Settings() {
    }

    /**
     * Users beyond what one socket each allows (20,000 files per process) share one connection pool, as Gatling's
     * documentation offers for that case (shareConnections).
     */
    static final boolean SHARE_CONNECTIONS = Boolean.getBoolean("shareConnections");

    /**
     * Gatling's defaults (keep-alive, one connection pool per virtual user, status 2xx/304 checked) with two
     * changes: no warm-up request to gatling.io before the first user (this machine reaches no such host), and no
     * browser cache: by default a user sends If-Modified-Since after its first GET and nginx answers 304 without the
     * body, while every other tool gets the 18-byte file each time.
     */
    static HttpProtocolBuilder protocol() {
        HttpProtocolBuilder protocol = http.baseUrl(BASE_URL).disableWarmUp().disableCaching();
        return SHARE_CONNECTIONS ? protocol.shareConnections() : protocol;
    }
}
