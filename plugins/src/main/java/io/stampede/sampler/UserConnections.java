/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.HttpConnection;

import java.io.IOException;

/**
 * Where a one-connection sample gets its keep-alive connection: the thread's own ({@link ThreadConnections}) or a
 * lease from the engine-wide pool ({@link PooledConnections}). Only the owning JMeter thread calls it, in the order
 * get, (put on a new connection | remove on failure)*, done.
 */
interface UserConnections {
    /**
     * The open connection to the target, or null: the caller opens one and {@link #put}s it.
     *
     * @throws IOException when none can be had (a full pool past the connect timeout)
     */
    HttpConnection get(String host, int port, boolean tls, int connectTimeoutMillis) throws IOException;

    /** How long the last {@link #get} waited for a connection (counted in Connect and Latency). */
    long waitedNanos();

    void put(String host, int port, boolean tls, HttpConnection c);

    /** Drops a failed connection and closes it. */
    void remove(String host, int port, boolean tls, HttpConnection c);

    /** The sample is over: {@code c} (null after a failure) may serve the next one. */
    void done(HttpConnection c);

    /** Closes what this thread holds (at threadFinished). */
    void closeAll();
}
