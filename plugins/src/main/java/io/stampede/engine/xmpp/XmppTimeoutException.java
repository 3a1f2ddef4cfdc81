/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

/** Nothing arrived in time: a login step, an IQ result or an awaited stanza. */
public final class XmppTimeoutException extends XmppException {
    private static final long serialVersionUID = 1L;

    public XmppTimeoutException(String condition, String detail) {
        super(condition, "timeout: " + condition
                + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")"));
    }
}
