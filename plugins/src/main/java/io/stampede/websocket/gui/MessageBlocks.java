/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket.gui;

import io.stampede.websocket.WebSocketSampler;

import javax.swing.JPanel;

/** The message and match blocks of the send, request-reply and wait panels. */
final class MessageBlocks {
    private MessageBlocks() {
    }

    static void message(WebSocketSamplerGui gui) {
        JPanel p = gui.block("Message");
        WebSocketSamplerGui.row(p, "Type:", gui.choice(WebSocketSampler.MESSAGE_TYPE, new String[] {"text", "binary"},
                "text (UTF-8) or binary (written below as hex digits, spaces allowed)"), null, null);
        WebSocketSamplerGui.wide(p, "Message:", gui.area(WebSocketSampler.MESSAGE, 5, "",
                "The message to send; variables and functions are substituted"));
    }

    static void match(WebSocketSamplerGui gui, String title) {
        JPanel p = gui.block(title);
        WebSocketSamplerGui.row(p, "Match:", gui.choice(WebSocketSampler.MATCH,
                new String[] {"any", "contains", "regex", "json"},
                "Which message ends the wait: any, text contains, a regular expression finds, or a JSON field's "
                        + "value"), "Timeout (ms):", gui.text(WebSocketSampler.TIMEOUT, 7, "10000",
                "Milliseconds to wait; then the sample fails as a message timeout and the session stays open"));
        WebSocketSamplerGui.wide(p, "Expression:", gui.text(WebSocketSampler.MATCH_EXPRESSION, 30, "",
                "The text to find, the regular expression, or the JSON field's path (data.id, $.items[0].id)"));
        WebSocketSamplerGui.wide(p, "JSON value:", gui.text(WebSocketSampler.MATCH_VALUE, 30, "",
                "For a json match: the field's value as text"));
        WebSocketSamplerGui.wide(p, "", gui.check(WebSocketSampler.KEEP_UNSOLICITED,
                "Add the messages nobody waited for as sub-results", false,
                "Messages that arrived with nobody waiting (the inbox) become sub-results of this sample"));
    }
}
