/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import org.junit.jupiter.api.extension.ExtendWith;

/** Every connections-per-thread case again with the engine's shared event loops doing the I/O (stampede.io_mode). */
@ExtendWith(EngineIo.class)
class ConnectionsPerThreadEngineIoTest extends ConnectionsPerThreadTest {
}
