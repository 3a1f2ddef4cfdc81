/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import java.io.IOException;

/**
 * A failure of an XMPP session, with its kind in the class name (stream error, SASL failure, stanza error, timeout)
 * and the XMPP condition ({@code not-authorized}, {@code policy-violation}, …) in {@link #condition()}.
 */
public abstract class XmppException extends IOException {
    private static final long serialVersionUID = 1L;
    private final String condition;

    XmppException(String condition, String message) {
        super(message);
        this.condition = condition;
    }

    /** The defined condition (RFC 6120) or a word of ours for failures without one. */
    public String condition() {
        return condition;
    }
}
