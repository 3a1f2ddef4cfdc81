/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket.gui;

import io.stampede.websocket.WebSocketWaitSampler;

/** The wait sampler's panel: the message it waits for. */
public class WebSocketWaitSamplerGui extends WebSocketSamplerGui {
    private static final long serialVersionUID = 1L;

    public WebSocketWaitSamplerGui() {
        super("Stampede WebSocket Wait", WebSocketWaitSampler::new);
        sessionBlock(null, null);
        MessageBlocks.match(this, "Message to wait for");
        clearGui();
    }
}
