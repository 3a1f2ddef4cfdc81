/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plan;

/** A plan that cannot be read; the message names the file, the element and the field, and the fix. */
public final class PlanException extends Exception {

    private static final long serialVersionUID = 1L;

    public PlanException(String message) {
        super(message);
    }
}
