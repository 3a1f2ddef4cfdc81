/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import java.io.IOException;

/** The server closed the connection before the response was complete. Its class name is what users see in the JTL's responseCode. */
public final class PrematureCloseException extends IOException {
    private static final long serialVersionUID = 1L;

    private final boolean beforeAnyByte;

    public PrematureCloseException(String message) {
        this(message, false);
    }

    public PrematureCloseException(String message, boolean beforeAnyByte) {
        super(message);
        this.beforeAnyByte = beforeAnyByte;
    }

    /** Whether the close came before any byte of the response: stock's client calls that "failed to respond". */
    public boolean beforeAnyByte() {
        return beforeAnyByte;
    }
}
