/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import io.netty.channel.EventLoop;
import io.stampede.engine.Engine;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * One XMPP client session (RFC 6120/6121) on an engine event loop, over TCP or WebSocket (RFC 7395, its
 * {@link XmppTransport}): the login (stream, STARTTLS on TCP, SASL PLAIN or SCRAM-SHA-1 through {@link SaslLogin},
 * resource binding), then stanzas both ways. A sample waits on a future the session completes on its loop: the
 * login, a write, an IQ's result, a stanza matching a condition. Stanzas nobody waits for go to a bounded inbox (the
 * oldest dropped and counted beyond its limit), where a later wait looks first.
 *
 * <p>The public methods may be called from any thread: they hand their work to the session's loop. The session has
 * no timer: the caller bounds its wait and gives up with {@link #cancel}.
 */
public final class XmppSession implements StanzaParser.Sink {
    static final String NS_STREAM = "http://etherx.jabber.org/streams";
    static final String NS_TLS = "urn:ietf:params:xml:ns:xmpp-tls";
    static final String NS_SASL = "urn:ietf:params:xml:ns:xmpp-sasl";
    static final String NS_BIND = "urn:ietf:params:xml:ns:xmpp-bind";
    static final String NS_SESSION = "urn:ietf:params:xml:ns:xmpp-session";
    static final String NS_STANZAS = "urn:ietf:params:xml:ns:xmpp-stanzas";
    static final String NS_STREAMS = "urn:ietf:params:xml:ns:xmpp-streams";
    static final String NS_PING = "urn:xmpp:ping";

    private enum Step { CONNECTING, FEATURES, STARTTLS, TLS, SASL, BIND, SESSION, READY, CLOSING, CLOSED }

    private final XmppSettings settings;
    private final EventLoop loop;
    private final XmppTransport transport;
    private final CompletableFuture<LoginTimes> login = new CompletableFuture<>();
    private final CompletableFuture<Long> closed = new CompletableFuture<>();
    private final List<Wait> waits = new ArrayList<>(1);
    private ArrayDeque<Received> inbox;
    private Step step = Step.CONNECTING;
    private boolean tlsDone;
    private boolean authenticated;
    /** From the server's offer of mechanisms to its success; null before and after. */
    private SaslLogin saslLogin;
    private String mechanism;
    private long startNanos;
    private long connectedNanos;
    private long tlsNanos;
    private long upgradedNanos;
    private long saslNanos;
    private long arrivedNanos;
    private volatile String jid;
    private volatile XmppException failure;
    private long dropped;
    private volatile int inboxSize;
    /** The server asked for the legacy session establishment (RFC 3921) without marking it optional. */
    private boolean needsSession;

    private XmppSession(XmppSettings settings, EventLoop loop) {
        this.settings = settings;
        this.loop = loop;
        this.transport = settings.webSocket() == null ? new TcpTransport(this, settings)
                : new WebSocketTransport(this, settings);
    }

    /**
     * Starts connecting and logging in, over TCP or WebSocket as the settings say, on one of the engine's loops;
     * {@link #login()} tells the outcome.
     */
    public static XmppSession open(XmppSettings settings) {
        Engine engine = Engine.get();
        XmppSession s = new XmppSession(settings, engine.nextLoop());
        s.startNanos = System.nanoTime();
        s.loop.execute(() -> s.transport.connect(engine, s.loop));
        return s;
    }

    public XmppSettings settings() {
        return settings;
    }

    /** Completes when the resource is bound, or fails with the login's failure. */
    public CompletableFuture<LoginTimes> login() {
        return login;
    }

    /** The full JID bound, null before. */
    public String jid() {
        return jid;
    }

    /** Why the session ended, null while it is open. */
    public XmppException failure() {
        return failure;
    }

    /** Whether stanzas can be sent: logged in and not closed. */
    public boolean isReady() {
        return failure == null && login.isDone() && !login.isCompletedExceptionally() && !closed.isDone();
    }

    /** Stanzas nobody waited for and the inbox did not keep (over its limit, or not of a kind it keeps). */
    public long inboxDropped() {
        return dropped;
    }

    /** Writes {@code xml} (one or more stanzas); completes with the time it was handed to the transport. */
    public CompletableFuture<Long> send(String xml) {
        CompletableFuture<Long> f = new CompletableFuture<>();
        loop.execute(() -> {
            if (usable(f)) {
                transport.write(xml);
                f.complete(System.nanoTime());
            }
        });
        return f;
    }

    /**
     * The first stanza matching {@code matcher}: from the inbox when one is there, else the next to arrive. Give up
     * with {@link #cancel}.
     */
    public CompletableFuture<Received> await(Predicate<XmlElement> matcher) {
        CompletableFuture<Received> f = new CompletableFuture<>();
        loop.execute(() -> {
            if (!fromInbox(matcher, f) && usable(f)) {
                waits.add(new Wait(matcher, f, 0));
            }
        });
        return f;
    }

    /** The first kept stanza matching {@code matcher}, or null at once when none is kept. */
    public CompletableFuture<Received> poll(Predicate<XmlElement> matcher) {
        CompletableFuture<Received> f = new CompletableFuture<>();
        loop.execute(() -> {
            if (!fromInbox(matcher, f)) {
                f.complete(null);
            }
        });
        return f;
    }

    /** Stanzas kept for later waits. */
    public int inboxSize() {
        return inboxSize;
    }

    /**
     * Sends the IQ {@code xml}, whose id is {@code id}, and completes with its result or error reply (the caller
     * tells them apart by the reply's type), with the write time in {@link Received#sentNanos()}.
     */
    public CompletableFuture<Received> request(String xml, String id) {
        CompletableFuture<Received> f = new CompletableFuture<>();
        loop.execute(() -> {
            if (usable(f)) {
                waits.add(new Wait(s -> s.name().equals("iq") && id.equals(s.attr("id"))
                        && ("result".equals(s.attr("type")) || "error".equals(s.attr("type"))), f, System.nanoTime()));
                transport.write(xml);
            }
        });
        return f;
    }

    /** Ends a wait the caller gave up on (its future fails with {@code why}); a stanza arriving later is kept. */
    public void cancel(CompletableFuture<Received> wait, XmppException why) {
        if (wait.completeExceptionally(why)) {
            loop.execute(() -> waits.removeIf(w -> w.future == wait));
        }
    }

    /**
     * Closes the stream (after {@code lastStanza}, e.g. unavailable presence, when not null) and completes when the
     * server closed its side (the time), or fails when the session had already ended. The caller bounds the wait and
     * then calls {@link #abort()}.
     */
    public CompletableFuture<Long> logout(String lastStanza) {
        loop.execute(() -> {
            if (step == Step.CLOSED || step == Step.CLOSING) {
                return;
            }
            if (failure != null) {
                closed.completeExceptionally(failure);
                return;
            }
            if (lastStanza != null && step == Step.READY) {
                transport.write(lastStanza);
            }
            step = Step.CLOSING;
            transport.closeStream();
        });
        return closed;
    }

    /** Closes the connection now (thread finished, test stopped, a logout that got no answer). */
    public void abort() {
        loop.execute(() -> {
            if (step != Step.CLOSED) {
                fail(new XmppStreamException("closed", "closed by the client"));
            }
        });
    }

    // ---- the transport's events, on the loop ----

    void connected() {
        connectedNanos = System.nanoTime();
        step = Step.FEATURES;
        transport.openStream(settings.domain());
    }

    /**
     * Over WebSocket: the connection is upgraded (after TLS with wss), the stream opens. Connect and TLS ended
     * earlier, at the times given (TLS 0 without it).
     */
    void upgraded(long connectedAt, long tlsAt) {
        connectedNanos = connectedAt;
        tlsNanos = tlsAt;
        upgradedNanos = System.nanoTime();
        step = Step.FEATURES;
        transport.openStream(settings.domain());
    }

    void bytesArrived(long nanos) {
        arrivedNanos = nanos;
    }

    void tlsEstablished() {
        tlsNanos = System.nanoTime();
        tlsDone = true;
        step = Step.FEATURES;
        transport.restartStream();
        transport.openStream(settings.domain());
    }

    void transportFailed(IOException e) {
        fail(e instanceof XmppException x ? x : new XmppStreamException("connection", e.getMessage(), e));
    }

    void transportClosed() {
        if (step == Step.CLOSING) {
            step = Step.CLOSED;
            closed.complete(System.nanoTime());
            failWaits(new XmppStreamException("closed", "the session was closed"));
            return;
        }
        fail(new XmppStreamException("closed", "the server closed the connection " + where()));
    }

    @Override
    public void streamOpened(XmlElement header) {
        // nothing to keep: the stream id matters to no step we take
    }

    @Override
    public void streamClosed() {
        if (step == Step.CLOSING) {
            step = Step.CLOSED;
            closed.complete(System.nanoTime());
            failWaits(new XmppStreamException("closed", "the session was closed"));
            transport.close();
            return;
        }
        fail(new XmppStreamException("closed", "the server closed the stream " + where()));
    }

    @Override
    public void element(XmlElement e) throws XmppException {
        if (e.name().equals("error") && e.ns().equals(NS_STREAM)) {
            throw streamError(e);
        }
        switch (step) {
            case FEATURES -> features(e);
            case STARTTLS -> proceed(e);
            case SASL -> sasl(e);
            case BIND -> bound(e);
            case SESSION -> sessionStarted(e);
            case READY, CLOSING -> stanza(e);
            default -> throw new XmppStreamException("unexpected", "<" + e.name() + "> " + where());
        }
    }

    private void features(XmlElement f) throws XmppException {
        if (!f.name().equals("features")) {
            throw new XmppStreamException("unexpected", "expected <stream:features>, got " + f.toXml());
        }
        XmlElement starttls = f.child("starttls", NS_TLS);
        boolean switchable = !tlsDone && transport.canStartTls();
        if (switchable && settings.startTls() != XmppSettings.StartTls.OFF && starttls != null) {
            step = Step.STARTTLS;
            transport.write("<starttls xmlns='" + NS_TLS + "'/>");
            return;
        }
        if (switchable && settings.startTls() == XmppSettings.StartTls.REQUIRED) {
            throw new XmppStreamException("no-starttls", "the server does not offer STARTTLS and the sampler requires it");
        }
        if (!authenticated) {
            saslLogin = new SaslLogin(settings);
            String auth = saslLogin.start(f.child("mechanisms", NS_SASL));
            step = Step.SASL;
            transport.write(auth);
            return;
        }
        XmlElement session = f.child("session", NS_SESSION);
        step = Step.BIND;
        String resource = settings.resource();
        transport.write("<iq type='set' id='bind_1'><bind xmlns='" + NS_BIND + "'>"
                + (resource == null || resource.isEmpty() ? "" : "<resource>" + Xml.escape(resource) + "</resource>")
                + "</bind></iq>");
        needsSession = session != null && session.child("optional") == null;
    }

    private void proceed(XmlElement e) throws XmppException {
        if (!e.name().equals("proceed")) {
            throw new XmppStreamException("starttls-failure", e.toXml());
        }
        step = Step.TLS;
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
                step = Step.FEATURES;
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
        if (!e.name().equals("iq") || !"bind_1".equals(e.attr("id"))) {
            stanza(e);
            return;
        }
        if (!"result".equals(e.attr("type"))) {
            throw stanzaError(e, "resource binding");
        }
        XmlElement bind = e.child("bind", NS_BIND);
        jid = bind == null ? null : bind.childText("jid");
        if (needsSession) {
            step = Step.SESSION;
            transport.write("<iq type='set' id='session_1'><session xmlns='" + NS_SESSION + "'/></iq>");
            return;
        }
        ready();
    }

    private void sessionStarted(XmlElement e) throws XmppException {
        if (!e.name().equals("iq") || !"session_1".equals(e.attr("id"))) {
            stanza(e);
            return;
        }
        if (!"result".equals(e.attr("type"))) {
            throw stanzaError(e, "session establishment");
        }
        ready();
    }

    private void ready() {
        step = Step.READY;
        long bound = System.nanoTime();
        login.complete(new LoginTimes(startNanos, connectedNanos, tlsNanos, upgradedNanos, saslNanos, bound,
                mechanism, jid));
    }

    private void stanza(XmlElement e) {
        if (e.name().equals("iq") && e.child("ping", NS_PING) != null && "get".equals(e.attr("type"))) {
            // A server's keep-alive ping (XEP-0199): answered here, never a sample's business.
            transport.write("<iq type='result' id='" + Xml.escape(String.valueOf(e.attr("id"))) + "'"
                    + (e.attr("from") == null ? "" : " to='" + Xml.escape(e.attr("from")) + "'") + "/>");
            return;
        }
        for (Iterator<Wait> it = waits.iterator(); it.hasNext();) {
            Wait w = it.next();
            if (w.future.isDone()) {
                it.remove();
                continue;
            }
            if (w.matcher.test(e)) {
                it.remove();
                if (w.future.complete(new Received(e, arrivedNanos, w.sentNanos))) {
                    return;
                }
            }
        }
        keep(new Received(e, arrivedNanos, 0));
    }

    private void keep(Received r) {
        if (settings.inboxLimit() <= 0 || !settings.keeps(r.stanza().name())) {
            dropped++;
            return;
        }
        if (inbox == null) {
            inbox = new ArrayDeque<>(4);
        }
        if (inbox.size() >= settings.inboxLimit()) {
            inbox.pollFirst();
            dropped++;
        }
        inbox.addLast(r);
        inboxSize = inbox.size();
    }

    private boolean fromInbox(Predicate<XmlElement> matcher, CompletableFuture<Received> f) {
        if (inbox == null) {
            return false;
        }
        for (Iterator<Received> it = inbox.iterator(); it.hasNext();) {
            Received r = it.next();
            if (matcher.test(r.stanza())) {
                it.remove();
                inboxSize = inbox.size();
                if (inbox.isEmpty()) {
                    inbox = null;
                }
                f.complete(r);
                return true;
            }
        }
        return false;
    }

    private boolean usable(CompletableFuture<?> f) {
        if (failure != null) {
            f.completeExceptionally(failure);
            return false;
        }
        if (step != Step.READY) {
            f.completeExceptionally(new XmppStreamException("not-logged-in", "the session is " + where()));
            return false;
        }
        return true;
    }

    private void fail(XmppException why) {
        if (step == Step.CLOSED) {
            return;
        }
        step = Step.CLOSED;
        failure = why;
        login.completeExceptionally(why);
        closed.completeExceptionally(why);
        failWaits(why);
        transport.close();
    }

    private void failWaits(XmppException why) {
        for (Wait w : waits) {
            w.future.completeExceptionally(why);
        }
        waits.clear();
    }

    private String where() {
        return switch (step) {
            case CONNECTING -> "while connecting";
            case FEATURES, STARTTLS, TLS, SASL, BIND, SESSION -> "during the login (" + step.name().toLowerCase() + ")";
            case READY -> "after the login";
            case CLOSING -> "while closing";
            case CLOSED -> "closed";
        };
    }

    static XmppStreamException streamError(XmlElement e) {
        String condition = "undefined-condition";
        for (XmlElement c : e.children()) {
            if (c.ns().equals(NS_STREAMS) && !c.name().equals("text")) {
                condition = c.name();
                break;
            }
        }
        XmlElement text = e.child("text", NS_STREAMS);
        return new XmppStreamException(condition, text == null ? "" : text.text());
    }

    /** The error of a {@code type='error'} reply as the exception a sample fails with. */
    public static StanzaErrorException stanzaError(XmlElement reply, String what) {
        XmlElement error = reply.child("error");
        String condition = "undefined-condition";
        String type = "";
        String text = "";
        if (error != null) {
            type = String.valueOf(error.attr("type"));
            for (XmlElement c : error.children()) {
                if (c.ns().equals(NS_STANZAS) && !c.name().equals("text")) {
                    condition = c.name();
                } else if (c.name().equals("text")) {
                    text = c.text();
                }
            }
        }
        return new StanzaErrorException(condition, what + ", type " + type + (text.isEmpty() ? "" : ": " + text));
    }

    private record Wait(Predicate<XmlElement> matcher, CompletableFuture<Received> future, long sentNanos) {
    }
}
