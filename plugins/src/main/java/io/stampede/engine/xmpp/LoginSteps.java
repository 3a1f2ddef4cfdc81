/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import io.stampede.engine.xmpp.XmppSession.Step;

/**
 * One login's steps after the connect (RFC 6120 §5-§7): the stream, STARTTLS when the transport can switch and the
 * settings allow it, SASL through {@link SaslLogin}, resource binding, and the legacy session when the server asks
 * for it; and when each step ended, for {@link LoginTimes}. The session drops it once logged in, so an idle session
 * keeps none of its state. On the session's loop only.
 */
final class LoginSteps {
    private final XmppSession session;
    private final XmppSettings settings;
    private final XmppTransport transport;
    private boolean tlsDone;
    private boolean authenticated;
    /** From the server's offer of mechanisms to its success; null before and after. */
    private SaslLogin saslLogin;
    private String mechanism;
    private final long startNanos;
    private long connectedNanos;
    private long tlsNanos;
    private long upgradedNanos;
    private long saslNanos;
    /** The server asked for the legacy session establishment (RFC 3921) without marking it optional. */
    private boolean needsSession;

    LoginSteps(XmppSession session, XmppSettings settings, XmppTransport transport, long startNanos) {
        this.session = session;
        this.settings = settings;
        this.transport = transport;
        this.startNanos = startNanos;
    }

    void connected() {
        connectedNanos = System.nanoTime();
        openStream();
    }

    /** Over WebSocket: connect and TLS ended earlier, at the times given (TLS 0 without it). */
    void upgraded(long connectedAt, long tlsAt) {
        connectedNanos = connectedAt;
        tlsNanos = tlsAt;
        upgradedNanos = System.nanoTime();
        openStream();
    }

    void tlsEstablished() {
        tlsNanos = System.nanoTime();
        tlsDone = true;
        session.step = Step.FEATURES;
        transport.restartStream();
        transport.openStream(settings.domain());
    }

    private void openStream() {
        session.step = Step.FEATURES;
        transport.openStream(settings.domain());
    }

    /** An element during the login, {@code step} the one under way. */
    void element(Step step, XmlElement e) throws XmppException {
        switch (step) {
            case FEATURES -> features(e);
            case STARTTLS -> proceed(e);
            case SASL -> sasl(e);
            case BIND -> bound(e);
            case SESSION -> sessionStarted(e);
            default -> throw new IllegalStateException(step.name());
        }
    }

    private void features(XmlElement f) throws XmppException {
        if (!f.name().equals("features")) {
            throw new XmppStreamException("unexpected", "expected <stream:features>, got " + f.toXml());
        }
        XmlElement starttls = f.child("starttls", XmppSession.NS_TLS);
        boolean switchable = !tlsDone && transport.canStartTls();
        if (switchable && settings.startTls() != XmppSettings.StartTls.OFF && starttls != null) {
            session.step = Step.STARTTLS;
            transport.write("<starttls xmlns='" + XmppSession.NS_TLS + "'/>");
            return;
        }
        if (switchable && settings.startTls() == XmppSettings.StartTls.REQUIRED) {
            throw new XmppStreamException("no-starttls", "the server does not offer STARTTLS and the sampler requires it");
        }
        if (!authenticated) {
            saslLogin = new SaslLogin(settings);
            String auth = saslLogin.start(f.child("mechanisms", XmppSession.NS_SASL));
            session.step = Step.SASL;
            transport.write(auth);
            return;
        }
        XmlElement sessionFeature = f.child("session", XmppSession.NS_SESSION);
        session.step = Step.BIND;
        String resource = settings.resource();
        transport.write("<iq type='set' id='bind_1'><bind xmlns='" + XmppSession.NS_BIND + "'>"
                + (resource == null || resource.isEmpty() ? "" : "<resource>" + Xml.escape(resource) + "</resource>")
                + "</bind></iq>");
        needsSession = sessionFeature != null && sessionFeature.child("optional") == null;
    }

    private void proceed(XmlElement e) throws XmppException {
        if (!e.name().equals("proceed")) {
            throw new XmppStreamException("starttls-failure", e.toXml());
        }
        session.step = Step.TLS;
        transport.startTls();
    }

    private void sasl(XmlElement e) throws XmppException {
        switch (e.name()) {
            case "challenge" -> transport.write(saslLogin.respond(e.text()));
            case "success" -> {
                saslLogin.succeeded(e.text());
                mechanism = saslLogin.mechanism();
                saslLogin = null;
                authenticated = true;
                saslNanos = System.nanoTime();
                session.step = Step.FEATURES;
                transport.restartStream();
                transport.openStream(settings.domain());
            }
            case "failure" -> {
                String condition = e.children().isEmpty() ? "failure" : e.children().get(0).name();
                throw new SaslFailureException(condition, e.childText("text"));
            }
            default -> throw new XmppStreamException("unexpected", "during SASL: " + e.toXml());
        }
    }

    private void bound(XmlElement e) throws XmppException {
        if (!resultOf("bind_1", "resource binding", e)) {
            return;
        }
        XmlElement bind = e.child("bind", XmppSession.NS_BIND);
        session.jid = bind == null ? null : bind.childText("jid");
        if (needsSession) {
            session.step = Step.SESSION;
            transport.write("<iq type='set' id='session_1'><session xmlns='" + XmppSession.NS_SESSION + "'/></iq>");
            return;
        }
        ready();
    }

    private void sessionStarted(XmlElement e) throws XmppException {
        if (resultOf("session_1", "session establishment", e)) {
            ready();
        }
    }

    /**
     * Whether {@code e} is the result of our IQ {@code id}. Any other stanza may come first (a server pushes
     * presence or pings while we bind): it is the session's like any stanza. An error reply fails the login.
     */
    private boolean resultOf(String id, String what, XmlElement e) throws XmppException {
        if (!e.name().equals("iq") || !id.equals(e.attr("id"))) {
            session.stanza(e);
            return false;
        }
        if (!"result".equals(e.attr("type"))) {
            throw StanzaErrorException.of(e, what);
        }
        return true;
    }

    private void ready() {
        long bound = System.nanoTime();
        session.loggedIn(new LoginTimes(startNanos, connectedNanos, tlsNanos, upgradedNanos, saslNanos, bound,
                mechanism, session.jid));
    }
}
