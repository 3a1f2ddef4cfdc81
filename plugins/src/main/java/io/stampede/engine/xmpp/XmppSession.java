/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import io.netty.channel.EventLoop;
import io.stampede.engine.Engine;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One XMPP client session (RFC 6120/6121) on an engine event loop, over TCP or WebSocket (RFC 7395, its
 * {@link XmppTransport}): the login ({@link LoginSteps}: stream, STARTTLS on TCP, SASL PLAIN or SCRAM-SHA-1, resource
 * binding), then stanzas both ways. A sample waits on a future the session completes on its loop: the login, a write,
 * an IQ's result, a stanza matching a condition. Stanzas go to the waits that match them, else to a bounded inbox
 * where a later wait looks first ({@link StanzaWaits}). The session is the transport's one contact: it hears the
 * connection's events and the stream's elements and hands each to the step it belongs to.
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

    enum Step { CONNECTING, FEATURES, STARTTLS, TLS, SASL, BIND, SESSION, READY, CLOSING, CLOSED }

    private final XmppSettings settings;
    private final EventLoop loop;
    private final XmppTransport transport;
    private final CompletableFuture<LoginTimes> login = new CompletableFuture<>();
    private final CompletableFuture<Long> closed = new CompletableFuture<>();
    private final StanzaWaits waits;
    /** Until logged in; then dropped, so an idle session keeps none of the login's state. */
    private LoginSteps loginSteps;
    /** Moved by the login's steps, then by the session's own. */
    Step step = Step.CONNECTING;
    private long arrivedNanos;
    volatile String jid;
    private volatile XmppException failure;

    private XmppSession(XmppSettings settings, EventLoop loop, long startNanos) {
        this.settings = settings;
        this.loop = loop;
        this.transport = settings.webSocket() == null ? new TcpTransport(this, settings)
                : new WebSocketTransport(this, settings);
        this.waits = new StanzaWaits(settings);
        this.loginSteps = new LoginSteps(this, settings, transport, startNanos);
    }

    /**
     * Starts connecting and logging in, over TCP or WebSocket as the settings say, on one of the engine's loops;
     * {@link #login()} tells the outcome.
     */
    public static XmppSession open(XmppSettings settings) {
        return openAt(settings, System.nanoTime());
    }

    /**
     * As {@link #open}, the connect starting at {@code startNanos} (on System.nanoTime's clock; at once when that has
     * passed) on the session's loop, so that a login begins on time while the thread that asked for it is busy. A
     * session aborted before then never connects.
     */
    public static XmppSession openAt(XmppSettings settings, long startNanos) {
        Engine engine = Engine.get();
        long delay = startNanos - System.nanoTime();
        XmppSession s = new XmppSession(settings, engine.nextLoop(), delay > 0 ? startNanos : System.nanoTime());
        Runnable connect = () -> {
            if (s.step != Step.CLOSED) {
                s.transport.connect(engine, s.loop);
            }
        };
        if (delay > 0) {
            s.loop.schedule(connect, delay, TimeUnit.NANOSECONDS);
        } else {
            s.loop.execute(connect);
        }
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

    /**
     * The stanzas received and then pushed out of the full inbox (lost to the test) since the last call, as an
     * exception to report; null when none was.
     */
    public InboxOverflowException takeInboxOverflow() {
        int[] lost = waits.takeOverflow();
        return lost == null ? null : new InboxOverflowException(lost[0], lost[1], settings.inboxLimit());
    }

    /** Stanzas nobody waited for that the inbox did not keep, by their kind ({@code xmpp.inbox_keep}). */
    public int inboxNotKept() {
        return waits.notKept();
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
            if (!waits.fromInbox(matcher, f) && usable(f)) {
                waits.add(matcher, f, 0);
            }
        });
        return f;
    }

    /** The first kept stanza matching {@code matcher}, or null at once when none is kept. */
    public CompletableFuture<Received> poll(Predicate<XmlElement> matcher) {
        CompletableFuture<Received> f = new CompletableFuture<>();
        loop.execute(() -> {
            if (!waits.fromInbox(matcher, f)) {
                f.complete(null);
            }
        });
        return f;
    }

    /** Stanzas kept for later waits. */
    public int inboxSize() {
        return waits.inboxSize();
    }

    /**
     * Sends the IQ {@code xml}, whose id is {@code id}, and completes with its result or error reply (the caller
     * tells them apart by the reply's type), with the write time in {@link Received#sentNanos()}.
     */
    public CompletableFuture<Received> request(String xml, String id) {
        CompletableFuture<Received> f = new CompletableFuture<>();
        loop.execute(() -> {
            if (usable(f)) {
                waits.add(s -> s.name().equals("iq") && id.equals(s.attr("id"))
                        && ("result".equals(s.attr("type")) || "error".equals(s.attr("type"))), f, System.nanoTime());
                transport.write(xml);
            }
        });
        return f;
    }

    /** Ends a wait the caller gave up on (its future fails with {@code why}); a stanza arriving later is kept. */
    public void cancel(CompletableFuture<Received> wait, XmppException why) {
        if (wait.completeExceptionally(why)) {
            loop.execute(() -> waits.remove(wait));
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
        loginSteps.connected();
    }

    /**
     * Over WebSocket: the connection is upgraded (after TLS with wss), the stream opens. Connect and TLS ended
     * earlier, at the times given (TLS 0 without it).
     */
    void upgraded(long connectedAt, long tlsAt) {
        loginSteps.upgraded(connectedAt, tlsAt);
    }

    void bytesArrived(long nanos) {
        arrivedNanos = nanos;
    }

    void tlsEstablished() {
        loginSteps.tlsEstablished();
    }

    void transportFailed(IOException e) {
        fail(e instanceof XmppException x ? x : new XmppStreamException("connection", e.getMessage(), e));
    }

    void transportClosed() {
        if (step == Step.CLOSING) {
            step = Step.CLOSED;
            closed.complete(System.nanoTime());
            waits.failAll(new XmppStreamException("closed", "the session was closed"));
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
            waits.failAll(new XmppStreamException("closed", "the session was closed"));
            transport.close();
            return;
        }
        fail(new XmppStreamException("closed", "the server closed the stream " + where()));
    }

    @Override
    public void element(XmlElement e) throws XmppException {
        if (e.name().equals("error") && e.ns().equals(NS_STREAM)) {
            throw XmppStreamException.of(e);
        }
        switch (step) {
            case FEATURES, STARTTLS, SASL, BIND, SESSION -> loginSteps.element(step, e);
            case READY, CLOSING -> stanza(e);
            default -> throw new XmppStreamException("unexpected", "<" + e.name() + "> " + where());
        }
    }

    /** The login's end: stanzas may flow. */
    void loggedIn(LoginTimes times) {
        step = Step.READY;
        loginSteps = null;
        login.complete(times);
    }

    /** A stanza after the login, or during binding: a server's ping is answered, the rest goes to the waits. */
    void stanza(XmlElement e) {
        if (e.name().equals("iq") && e.child("ping", NS_PING) != null && "get".equals(e.attr("type"))) {
            // A server's keep-alive ping (XEP-0199): answered here, never a sample's business.
            transport.write("<iq type='result' id='" + Xml.escape(String.valueOf(e.attr("id"))) + "'"
                    + (e.attr("from") == null ? "" : " to='" + Xml.escape(e.attr("from")) + "'") + "/>");
            return;
        }
        waits.deliver(e, arrivedNanos);
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
        waits.failAll(why);
        transport.close();
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
}
