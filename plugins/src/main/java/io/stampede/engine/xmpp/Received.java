/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

/**
 * A stanza handed to a waiting sample: the stanza, when its bytes arrived ({@link System#nanoTime()}), and, for an
 * IQ, when its request was written (0 otherwise).
 */
public record Received(XmlElement stanza, long receivedNanos, long sentNanos) {
}
