/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

/**
 * The field report's workload as one round of the XMPP benchmark runs it, whichever tool generates it: users log in
 * at {@code loginRate} per second (SASL PLAIN over STARTTLS on TCP), fetch their roster, send their initial
 * presence, then for {@code turns} turns send one message per {@code intervalSeconds} to another online user, and
 * change presence at the 7th turn (the login's turn counted as the first: 2,800 s / 400 s); then they log out.
 *
 * @param factor how much shorter the intervals are than the field's 400 s and 2,800 s
 */
record XmppShape(int users, int loginRate, int factor, int turns, int roster, int onlineContacts) {
    static final int FIELD_INTERVAL_S = 400;
    static final int PRESENCE_EVERY = 7;

    XmppShape {
        if (FIELD_INTERVAL_S % factor != 0) {
            throw new IllegalArgumentException("--factor must divide 400 (the field's message interval in s), got "
                    + factor);
        }
        if (roster < onlineContacts || onlineContacts >= users) {
            throw new IllegalArgumentException("--roster must be at least --online-contacts, and --online-contacts "
                    + "below --users");
        }
    }

    int intervalSeconds() {
        return FIELD_INTERVAL_S / factor;
    }

    long rampMillis() {
        return users * 1000L / loginRate;
    }

    /**
     * Whether a user changes presence at message turn {@code turn} (1-based, after the login's): every
     * {@link #PRESENCE_EVERY}th turn with the login's counted, as the plan's {@code presence_every}.
     */
    static boolean presenceAt(int turn) {
        return (turn + 1) % PRESENCE_EVERY == 0;
    }

    String describe() {
        return String.format(java.util.Locale.ROOT, "%d users, login %d/s, roster %d (%d of them users of the test, "
                + "online), a message every %d s and a presence change every %d s (the field's 400 s and 2,800 s / %d),"
                + " %d message turns", users, loginRate, roster, onlineContacts, intervalSeconds(),
                intervalSeconds() * PRESENCE_EVERY, factor, turns);
    }
}
