/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.vm;

/** The VM lab cannot go on: the guest cannot be built or booted, or the run did not finish. */
public final class VmException extends Exception {
    private static final long serialVersionUID = 1L;

    public VmException(String message) {
        super(message);
    }
}
