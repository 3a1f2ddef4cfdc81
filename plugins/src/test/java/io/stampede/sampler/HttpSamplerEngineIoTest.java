/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import org.junit.jupiter.api.extension.ExtendWith;

/** {@link HttpSamplerTest} with the engine's event loops doing the classic mode's I/O (stampede.io_mode=engine). */
@ExtendWith(EngineIo.class)
class HttpSamplerEngineIoTest extends HttpSamplerTest {
}
