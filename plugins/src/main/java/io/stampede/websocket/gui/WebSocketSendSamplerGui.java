/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket.gui;

import io.stampede.websocket.WebSocketSendSampler;
import io.stampede.websocket.WebSocketSampler;

import javax.swing.JPanel;

/** The send sampler's panel: the session and the message. */
public class WebSocketSendSamplerGui extends WebSocketSamplerGui {
    private static final long serialVersionUID = 1L;

    public WebSocketSendSamplerGui() {
        super("Stampede WebSocket Send", WebSocketSendSampler::new);
        sessionBlock(null, null);
        MessageBlocks.message(this);
        JPanel p = block("Write");
        row(p, "Timeout (ms):", text(WebSocketSampler.TIMEOUT, 7, "10000",
                "Milliseconds the write may take"), null, null);
        clearGui();
    }
}
