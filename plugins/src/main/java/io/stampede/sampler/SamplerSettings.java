/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

/**
 * A sample's settings, read from the element's properties: what every sampling mode needs besides the request.
 *
 * @param target where the request goes
 * @param connectTimeout milliseconds for the TCP connect and the TLS handshake
 * @param responseTimeout milliseconds from the write to the complete response
 * @param responseBytesKept how many body bytes are kept in the result (all are counted)
 * @param keepAlive whether the connection is kept for the next request
 */
record SamplerSettings(Target target, int connectTimeout, int responseTimeout, int responseBytesKept,
                       boolean keepAlive) {
}
