/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp.gui;

import io.stampede.xmpp.XmppLoginSampler;
import org.apache.jmeter.testelement.TestElement;

import java.util.List;

/** The panel of {@link XmppLoginSampler}. */
public class XmppLoginGui extends XmppPanel {
    private static final long serialVersionUID = 1L;

    public XmppLoginGui() {
        super(List.of(
                Field.text(XmppLoginSampler.HOST, "Server", "", 24, "Host name or address of the XMPP server."),
                Field.text(XmppLoginSampler.PORT, "Port", "5222", 6, "Client-to-server port."),
                Field.choice(XmppLoginSampler.TRANSPORT, "Transport", "tcp", List.of("tcp", "websocket"),
                        "tcp: XMPP over TCP (STARTTLS as below); websocket: XMPP over WebSocket (RFC 7395) at the "
                        + "URL below, TLS when it is wss://."),
                Field.text(XmppLoginSampler.WEBSOCKET_URL, "WebSocket URL", "/ws", 32, "For websocket: "
                        + "ws://host:5280/ws or wss://host:5443/ws, or a path (/ws) on the server and port above in "
                        + "ws://. STARTTLS does not apply."),
                Field.text(XmppLoginSampler.DOMAIN, "Domain", "", 24,
                        "XMPP domain (the JIDs&apos; part after @); empty: the server name."),
                Field.text(XmppLoginSampler.USER, "User", "user{n}", 24, "The JID&apos;s local part. {n} is the "
                        + "session&apos;s number over the test (thread number x sessions per thread + session + 1)."),
                Field.text(XmppLoginSampler.PASSWORD, "Password", "pw{n}", 24, "The password; {n} as in User."),
                Field.text(XmppLoginSampler.RESOURCE, "Resource", "stampede", 16,
                        "Resource to bind; empty lets the server choose."),
                Field.choice(XmppLoginSampler.STARTTLS, "STARTTLS", "if_offered", List.of("if_offered", "required",
                        "off"), "if_offered: TLS when the server offers it; required: fail without it; off: never "
                        + "(a server that requires it refuses the login)."),
                Field.choice(XmppLoginSampler.MECHANISM, "SASL", "auto", List.of("auto", "scram_sha_1", "plain"),
                        "auto: SCRAM-SHA-1 when offered, else PLAIN."),
                Field.check(XmppLoginSampler.TRUST_ALL, "Trust any certificate", false,
                        "Accept self-signed certificates without a host-name check (test rigs)."),
                Field.text(XmppLoginSampler.CONNECT_TIMEOUT, "Connect timeout (ms)", "10000", 8, "TCP connect."),
                Field.text(XmppLoginSampler.LOGIN_TIMEOUT, "Login timeout (ms)", "10000", 8,
                        "The whole login: connect, TLS, SASL, bind; past it the sample fails as a timeout."),
                Field.text(XmppLoginSampler.INBOX, "Inbox (stanzas)", "100", 8, "Stanzas kept for later waits; "
                        + "beyond it the oldest is lost, and the next Wait fails as an inbox overflow."),
                Field.text(XmppLoginSampler.INBOX_KEEP, "Inbox keeps", "all", 16, "Stanzas the inbox keeps: all, "
                        + "or names (message, presence, iq); others are not kept (the Disconnect sample counts them)."),
                Field.text(XmppLoginSampler.SESSIONS, "Sessions per thread", "1", 8, "Sessions one JMeter thread "
                        + "holds; each Login sample takes the one due next and makes it current."),
                Field.text(XmppLoginSampler.PACING, "Pacing (ms)", "0", 8, "Each session gets a turn every this "
                        + "often (one message every 400 s: 400000)."),
                Field.text(XmppLoginSampler.RAMP, "First turns over (ms)", "", 8, "The first turns (the logins) "
                        + "are spread over this; empty: the pacing. Login rate = users / this."),
                Field.text(XmppLoginSampler.MAX_TURNS, "Turns per session", "0", 8, "Turns each session takes "
                        + "through this element at most, so a loop of sessions x turns gives each its own; 0: no "
                        + "limit."),
                Field.text(XmppLoginSampler.CONCURRENT_LOGINS, "Concurrent logins", "16", 8, "Logins one thread "
                        + "runs at once at most, each started at its turn (never ahead of the login rate; late ones "
                        + "catch up).")));
    }

    @Override
    public String getStaticLabel() {
        return "Stampede XMPP Connect + Login";
    }

    @Override
    TestElement newElement() {
        return new XmppLoginSampler();
    }
}
