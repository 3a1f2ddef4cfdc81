/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import java.io.IOException;

/**
 * No matching message arrived within the sampler's timeout. Its class name is what users see in the JTL's
 * responseCode.
 */
public final class WebSocketMessageTimeoutException extends IOException {
    private static final long serialVersionUID = 1L;

    public WebSocketMessageTimeoutException(String message) {
        super(message);
    }
}
