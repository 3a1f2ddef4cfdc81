/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.share;

/**
 * A plan, element or option that cannot be divided into shares: the message names the element, the reason and the
 * fix. Thrown before anything is written or started.
 */
public final class ShareRefusal extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    ShareRefusal(String message) {
        super(message);
    }
}
