/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import io.stampede.results.ErrorKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a run's XMPP failures mean, one line per kind that occurred: who ended the session or refused, and where to
 * look. The kinds come from the XMPP elements' exceptions (stream error, SASL failure, stanza error, timeout, inbox
 * overflow).
 */
final class XmppOutcome {

    private XmppOutcome() {
    }

    static List<String> lines(Map<ErrorKind, Long> errors, long samples) {
        List<String> lines = new ArrayList<>();
        add(lines, errors, samples, ErrorKind.XMPP_STREAM_ERROR, "the server ended sessions (a stream error such as "
                + "policy-violation, conflict, host-unknown, or the connection closed); their next login opens a new "
                + "session; the condition is in each sample's message, the server's log says why");
        add(lines, errors, samples, ErrorKind.XMPP_SASL_FAILURE, "logins refused (not-authorized: a wrong password or "
                + "an unknown user; check the user and password patterns against the users provisioned)");
        add(lines, errors, samples, ErrorKind.XMPP_STANZA_ERROR, "error replies to our stanzas (service-unavailable: "
                + "an addressee offline or unknown; remote-server-not-found: a domain the server does not serve)");
        add(lines, errors, samples, ErrorKind.XMPP_TIMEOUT, "nothing came in time: a server that stopped answering "
                + "(overloaded, paused), or a wait for a stanza nobody sent; raise the element's timeout only if the "
                + "server is known to be slow");
        add(lines, errors, samples, ErrorKind.XMPP_INBOX_OVERFLOW, "stanzas our sessions received were pushed out "
                + "of a full inbox before a Wait took them (the messages among them count as not received): take them "
                + "sooner (a While Controller on stampede_xmpp_inbox after each turn), keep only what is waited for "
                + "(xmpp.inbox_keep), or raise xmpp.inbox_limit");
        return lines;
    }

    private static void add(List<String> lines, Map<ErrorKind, Long> errors, long samples, ErrorKind kind,
                            String meaning) {
        Long n = errors.get(kind);
        if (n != null && n > 0) {
            lines.add("xmpp: " + (samples > 0 ? String.format(Locale.ROOT, "%d of %d samples", n, samples)
                    : n + " samples") + " failed with \"" + kind.label() + "\": " + meaning);
        }
    }
}
