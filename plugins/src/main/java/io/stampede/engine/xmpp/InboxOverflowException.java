/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

/**
 * Stanzas the session received were pushed out of its full inbox before a wait took them: lost to the test (the
 * messages among them never become received samples). Reported by the session's next wait, once per batch.
 */
public final class InboxOverflowException extends XmppException {
    private static final long serialVersionUID = 1L;
    private final int messages;

    public InboxOverflowException(int stanzas, int messages, int inboxLimit) {
        super("inbox-overflow", "inbox overflow: " + stanzas + " stanza(s), " + messages + " of them message(s), "
                + "pushed out of the full inbox (" + inboxLimit + " kept) before a wait took them: take them sooner "
                + "or raise xmpp.inbox_limit");
        this.messages = messages;
    }

    /** How many of the stanzas lost were messages. */
    public int messages() {
        return messages;
    }
}
