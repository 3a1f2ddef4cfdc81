/*
 * Licensed under the Apache License, Version 2.0.
 */
package io.stampede.run;

/** Bad input to `stampede run` or `gui`: the message names the field and the fix; nothing has been written yet. */
public final class RunInputException extends RuntimeException {
    RunInputException(String message) {
        super(message);
    }
}
