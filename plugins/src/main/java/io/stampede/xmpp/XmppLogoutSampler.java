/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp;

import io.stampede.engine.xmpp.XmppSession;
import org.apache.jmeter.samplers.SampleResult;

import java.io.IOException;

/**
 * XMPP Disconnect: unavailable presence, then the end of the stream; the sample lasts until the server closed its
 * side (bounded by the timeout, after which the connection is closed anyway and the sample fails as a timeout).
 * The thread's next login on this session opens a new one. The response message counts the stanzas the session's
 * inbox did not keep by their kind ({@code xmpp.inbox_keep}).
 */
public class XmppLogoutSampler extends XmppSampler {
    private static final long serialVersionUID = 1L;

    public static final String TIMEOUT = "xmpp.logout.timeout_ms";

    @Override
    SampleResult run(SampleResult res, long startNanos) throws IOException {
        XmppSession s = currentSession();
        try {
            long closed = await(s.logout("<presence type='unavailable'/>"), null,
                    intProperty(TIMEOUT, 5_000, 1, Integer.MAX_VALUE), "the server's end of stream");
            times(res, startNanos, closed);
            int notKept = s.inboxNotKept();
            ok(res, "logged out " + s.jid() + (notKept == 0 ? "" : "; " + notKept + " stanza(s) not kept by the "
                    + "inbox (xmpp.inbox_keep)"), "");
            return res;
        } finally {
            s.abort();
        }
    }
}
