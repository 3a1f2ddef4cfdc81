/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in compliance with
 * the License. You may obtain a copy of the License at http://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Every connections-per-thread case again with the engine's shared event loops doing the I/O (stampede.io_mode). */
class ConnectionsPerThreadEngineIoTest extends ConnectionsPerThreadTest {

    @BeforeAll
    static void engineIo() {
        JMeterUtils.getJMeterProperties().setProperty(IoMode.PROPERTY, IoMode.ENGINE.value());
    }

    @AfterAll
    static void threadIoAgain() {
        JMeterUtils.getJMeterProperties().setProperty(IoMode.PROPERTY, IoMode.THREAD.value());
    }
}
