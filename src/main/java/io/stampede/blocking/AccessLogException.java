/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.blocking;

/** An access log that cannot give blocking times; the message names the file and the fix. */
public final class AccessLogException extends Exception {
    private static final long serialVersionUID = 1L;

    public AccessLogException(String message) {
        super(message);
    }
}
