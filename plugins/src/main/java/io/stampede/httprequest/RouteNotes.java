/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What one HTTP Request said in jmeter.log about where its samples run, so that each line is written once per test
 * run: made when the test starts (by the element in the plan, {@link EngineHttpRequest#testStarted()}) and shared with
 * the element's per-thread clones, so a new run starts with nothing said. Thread-safe: the clones sample in parallel.
 */
final class RouteNotes {
    /** Features the element was warned about (it runs on HttpClient 4 for them). */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean namedHttpClient4 = new AtomicBoolean();
    private final AtomicBoolean choseJava = new AtomicBoolean();

    /** True the first time {@code feature} is met in this run. */
    boolean firstWarning(String feature) {
        return warned.add(feature);
    }

    /** True the first time the element is seen naming HttpClient4 in this run. */
    boolean firstHttpClient4() {
        return namedHttpClient4.compareAndSet(false, true);
    }

    /** True the first time the element is seen choosing the Java implementation in this run. */
    boolean firstJava() {
        return choseJava.compareAndSet(false, true);
    }
}
