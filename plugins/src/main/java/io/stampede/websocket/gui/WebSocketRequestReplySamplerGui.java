/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket.gui;

import io.stampede.websocket.WebSocketRequestReplySampler;

/** The request-reply sampler's panel: the message and the reply it waits for. */
public class WebSocketRequestReplySamplerGui extends WebSocketSamplerGui {
    private static final long serialVersionUID = 1L;

    public WebSocketRequestReplySamplerGui() {
        super("Stampede WebSocket Request-Reply", WebSocketRequestReplySampler::new);
        sessionBlock(null, null);
        MessageBlocks.message(this);
        MessageBlocks.match(this, "Reply to wait for");
        clearGui();
    }
}
