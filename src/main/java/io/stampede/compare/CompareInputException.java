/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

/** Input that `stampede compare` refuses before writing anything: the message names the input and the fix. */
public final class CompareInputException extends Exception {
    private static final long serialVersionUID = 1L;

    public CompareInputException(String message) {
        super(message);
    }
}
