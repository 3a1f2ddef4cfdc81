/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.lab;

/** A lab step that could not be done; the lab stops, cleans up and reports it. */
public final class LabException extends Exception {

    private static final long serialVersionUID = 1L;

    public LabException(String message) {
        super(message);
    }
}
