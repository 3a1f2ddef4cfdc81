/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

/** One health check shared by keepalived (director) and HAProxy; timings in seconds. */
public record HealthCheck(CheckType type, String path, int status, int intervalSeconds, int timeoutSeconds,
        int fall, int rise) {
}
