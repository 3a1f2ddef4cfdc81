/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** {@code stampede run --start-at}: the moment the shares' thread groups start, checked before anything starts. */
final class StartAtOption {

    private StartAtOption() {}

    /**
     * The moment in {@code text}, an ISO-8601 instant such as {@code 2026-11-28T09:30:00Z}.
     *
     * @throws RunInputException naming the option and the fix, for text that is no instant or a moment before
     *                           {@code now}
     */
    static Instant parse(String text, Instant now) {
        Instant at;
        try {
            at = Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new RunInputException("--start-at " + text + ": give a moment in UTC as 2026-11-28T09:30:00Z, e.g."
                    + " $(date -u -d +1min +%FT%TZ)");
        }
        if (at.isBefore(now)) {
            throw new RunInputException("--start-at " + text + " has passed (it is " + now.truncatedTo(ChronoUnit.SECONDS) + " now): give a"
                    + " moment far enough ahead for every injector's JMeter to start, e.g. a minute");
        }
        return at;
    }
}
