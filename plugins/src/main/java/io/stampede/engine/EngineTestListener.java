/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import org.apache.jmeter.testelement.TestStateListener;

/**
 * A sampler on the shared engine: the engine starts lazily at its first use and is shut down when the test ends,
 * locally or on an engine of a distributed run.
 */
public interface EngineTestListener extends TestStateListener {
    @Override
    default void testStarted() {
        // the engine starts at its first use
    }

    @Override
    default void testStarted(String host) {
        testStarted();
    }

    @Override
    default void testEnded() {
        Engine.shutdown();
    }

    @Override
    default void testEnded(String host) {
        testEnded();
    }
}
