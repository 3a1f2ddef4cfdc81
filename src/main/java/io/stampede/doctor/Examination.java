/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.Optional;

/** What one examination looks at: the kernel's files, the target (if given) and the planned load. */
record Examination(Kernel kernel, Optional<Target> target, PlannedLoad load) {
}
