/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.remote;

import org.apache.jmeter.samplers.SampleResult;

/**
 * Stands in an engine's {@link org.apache.jmeter.samplers.SampleEvent} for the result it carries, so that the
 * event, serialized as JMeter serializes it, writes its result as a {@link ResultForm}. A SampleEvent's result
 * is final and typed SampleResult, hence a subclass rather than a wrapper.
 */
final class OutgoingResult extends SampleResult {
    private static final long serialVersionUID = 1L;

    private final transient SampleResult source;
    private final transient boolean stripData;

    OutgoingResult(SampleResult source, boolean stripData) {
        this.source = source;
        this.stripData = stripData;
    }

    SampleResult source() {
        return source;
    }

    private Object writeReplace() {
        return new ResultForm(source, stripData);
    }
}
