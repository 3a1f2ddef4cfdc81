/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

/** Bad input to `stampede run` or `gui`: the message names the field and the fix; nothing has been written yet. */
public final class RunInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RunInputException(String message) {
        super(message);
    }
}
