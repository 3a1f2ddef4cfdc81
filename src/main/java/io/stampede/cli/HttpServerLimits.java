/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cli;

/**
 * The time limit of the JDK's HTTP server for a whole request, which closes a connection whose request has not
 * arrived in time. The JDK reads it once per process, when its first server starts, so every endpoint the CLI
 * serves (the controller's injector collector, the Prometheus endpoint) applies it before starting its server:
 * whichever starts first, both get it.
 */
public final class HttpServerLimits {
    /** Seconds a request may take to arrive whole. */
    public static final int REQUEST_SECONDS = 5;
    private static final String MAX_REQUEST_TIME = "sun.net.httpserver.maxReqTime";

    private HttpServerLimits() {}

    /** Sets the limit unless the user set one (-Dsun.net.httpserver.maxReqTime); call before creating a server. */
    public static void apply() {
        if (System.getProperty(MAX_REQUEST_TIME) == null) {
            System.setProperty(MAX_REQUEST_TIME, Integer.toString(REQUEST_SECONDS));
        }
    }
}
