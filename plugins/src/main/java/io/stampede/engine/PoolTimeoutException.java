/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import java.io.IOException;

/**
 * Every connection of the engine-wide pool to a target stayed busy for the whole connect timeout: the request was
 * never sent. Its own kind, so a summary tells a pool that is too small from a server that does not answer.
 */
public final class PoolTimeoutException extends IOException {
    private static final long serialVersionUID = 1L;

    public PoolTimeoutException(String message) {
        super(message);
    }
}
