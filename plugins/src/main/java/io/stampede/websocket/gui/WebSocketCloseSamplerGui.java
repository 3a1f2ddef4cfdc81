/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket.gui;

import io.stampede.websocket.WebSocketCloseSampler;
import io.stampede.websocket.WebSocketSampler;

import javax.swing.JPanel;

/** The close sampler's panel: the close code, reason and how long to wait for the server's close. */
public class WebSocketCloseSamplerGui extends WebSocketSamplerGui {
    private static final long serialVersionUID = 1L;

    public WebSocketCloseSamplerGui() {
        super("Stampede WebSocket Close", WebSocketCloseSampler::new);
        sessionBlock(null, null);
        JPanel p = block("Close handshake");
        row(p, "Close code:", text(WebSocketCloseSampler.CLOSE_CODE, 6, "1000",
                "The code of our close frame, 1000 (normal) to 4999"),
                "Timeout (ms):", text(WebSocketSampler.TIMEOUT, 7, "10000",
                        "Milliseconds to wait for the server's close frame; then the connection is dropped"));
        wide(p, "Reason:", text(WebSocketCloseSampler.CLOSE_REASON, 30, "",
                "The reason text of our close frame (at most 123 bytes)"));
        clearGui();
    }
}
