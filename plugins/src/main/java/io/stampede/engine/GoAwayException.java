/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import java.io.IOException;

/**
 * The server sent GOAWAY and did not process this stream (its id is above the last stream id), and the one retry
 * on a new connection met a GOAWAY too; or the connection closed after a GOAWAY with an error code before the
 * stream completed.
 */
public final class GoAwayException extends IOException {
    private static final long serialVersionUID = 1L;

    public GoAwayException(String message) {
        super(message);
    }
}
