/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

/** The server refused authentication (RFC 6120 6.5): wrong password, unknown user, mechanism refused. */
public final class SaslFailureException extends XmppException {
    private static final long serialVersionUID = 1L;

    public SaslFailureException(String condition, String detail) {
        super(condition, "SASL failure: " + condition
                + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")"));
    }
}
