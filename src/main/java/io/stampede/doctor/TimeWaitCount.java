/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

/**
 * TCP sockets in TIME_WAIT in this network namespace, in total and to the target's address and port
 * (the 4-tuples that use up the target's share of local ports).
 */
public record TimeWaitCount(long total, long toTarget) {
}
