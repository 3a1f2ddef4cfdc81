/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import java.util.Locale;

/**
 * JMeter's heap for a plan with virtual users. A held user measured 25.2 KB of live heap (100,000 users,
 * it/bench/VIRTUAL-USERS-RESULTS.md); G1 needs room above that to collect without long pauses, and it grows into any
 * heap it is given (RSS follows the heap, not the users): 36 KB a user above a 512 MB base ran 100,000 users with
 * pauses under 200 ms at 38.7 KB RSS each. Without --heap the run gets that (at least the usual 2g); a --heap below it
 * is kept, with a line saying what to expect.
 *
 * @param heap the -Xmx JMeter gets
 * @param note a line for the console, or null
 */
record VirtualUsersHeap(String heap, String note) {
    static final String DEFAULT = "2g";
    static final long BASE_MEGABYTES = 512;
    static final long KILOBYTES_PER_USER = 36;

    /** What {@code users} virtual users want, in megabytes. */
    static long wantedMegabytes(long users) {
        return BASE_MEGABYTES + (users * KILOBYTES_PER_USER + 1023) / 1024;
    }

    /**
     * @param given --heap as given, or null
     * @param users the plan's virtual users (0: none, or not known)
     */
    static VirtualUsersHeap choose(String given, long users) {
        long wanted = wantedMegabytes(users);
        if (given == null) {
            if (users == 0 || wanted <= JMeterProcess.megabytes(DEFAULT)) {
                return new VirtualUsersHeap(DEFAULT, null);
            }
            return new VirtualUsersHeap(wanted + "m", String.format(Locale.ROOT, "JMeter gets --heap %dm for %,d "
                    + "virtual users (%d MB + %d KB each; give --heap to choose)", wanted, users, BASE_MEGABYTES,
                    KILOBYTES_PER_USER));
        }
        if (users > 0 && JMeterProcess.megabytes(given) < wanted) {
            return new VirtualUsersHeap(given, String.format(Locale.ROOT, "--heap %s is below the %dm that %,d "
                    + "virtual users want (%d MB + %d KB each): expect long GC pauses, or JMeter running out of "
                    + "memory", given, wanted, users, BASE_MEGABYTES, KILOBYTES_PER_USER));
        }
        return new VirtualUsersHeap(given, null);
    }
}
