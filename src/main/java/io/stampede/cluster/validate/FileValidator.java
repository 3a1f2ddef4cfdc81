/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.validate;

import java.nio.file.Path;

/** Judges one kind of generated file. */
public interface FileValidator {

    /** Whether this validator is the one for the file. */
    boolean accepts(Path file);

    Verdict check(Path file, String shownName);
}
