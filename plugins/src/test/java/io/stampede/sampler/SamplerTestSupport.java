/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.Engine;
import org.junit.jupiter.api.AfterEach;

/** Builds samplers as a .jmx would configure them and stops the shared engine after each test, as testEnded does. */
abstract class SamplerTestSupport {
    static final String GET = "GET /x HTTP/1.1\nHost: localhost\n";

    HttpRawSampler raw(int port, String request) {
        HttpRawSampler s = new HttpRawSampler();
        s.setName("raw");
        s.setHost("127.0.0.1");
        s.setPort(Integer.toString(port));
        s.setRequestText(request);
        return s;
    }

    @AfterEach
    void stopEngine() {
        ThreadConnections.ofCurrentThread().closeAll();
        Engine.shutdown();
    }
}
