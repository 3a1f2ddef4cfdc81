/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.Locale;

/** Number formats shared by the report lines. */
final class Numbers {

    private Numbers() {
    }

    /** A rate: "470", "8.3", "0.5". */
    static String rate(double perSecond) {
        if (perSecond >= 100 || perSecond == Math.rint(perSecond)) {
            return String.format(Locale.ROOT, "%d", Math.round(perSecond));
        }
        return String.format(Locale.ROOT, "%.1f", perSecond);
    }
}
