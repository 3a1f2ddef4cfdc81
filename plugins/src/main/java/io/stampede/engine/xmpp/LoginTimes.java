/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

/**
 * When each step of a login ended ({@link System#nanoTime()}): connect, TLS (0 without STARTTLS or wss), the
 * WebSocket upgrade (0 over TCP), SASL, resource binding; plus the mechanism used and the full JID the server bound.
 */
public record LoginTimes(long startNanos, long connectedNanos, long tlsNanos, long upgradedNanos, long saslNanos,
                         long boundNanos, String mechanism, String jid) {
}
