/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.merge;

/** Folders that must not be merged, or a bad option: the message says why and what to give instead. */
final class MergeRefusal extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    MergeRefusal(String message) {
        super(message);
    }
}
