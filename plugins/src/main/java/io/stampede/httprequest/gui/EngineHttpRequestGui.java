/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest.gui;

import io.stampede.httprequest.EngineHttpRequest;
import org.apache.jmeter.protocol.http.control.gui.HttpTestSampleGui;
import org.apache.jmeter.testelement.TestElement;

/**
 * The stock HTTP Request panel (every tab, every field: the element's properties are JMeter's own) for Stampede's
 * HTTP Request, listed under Add > Sampler as "HTTP Request (Stampede engine)". Only the element it creates differs,
 * as JMeter's own AJP sampler panel reuses this one.
 */
public class EngineHttpRequestGui extends HttpTestSampleGui {

    private static final long serialVersionUID = 1L;

    static final String LABEL = "HTTP Request (Stampede engine)";

    @Override
    public TestElement makeTestElement() {
        return new EngineHttpRequest();
    }

    // Our own label: the stock one ("HTTP Request") would make the two entries of the Sampler menu look the same.
    @Override
    public String getStaticLabel() {
        return LABEL;
    }

    /** JMeter's help for the stock HTTP Request, whose fields these are. */
    @Override
    public String getDocAnchor() {
        return super.getStaticLabel().replace(' ', '_');
    }
}
