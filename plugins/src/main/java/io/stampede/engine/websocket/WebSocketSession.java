/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.websocket;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.extensions.compression.WebSocketClientCompressionHandler;
import io.netty.util.concurrent.ScheduledFuture;
import io.stampede.engine.tls.Connector;
import io.stampede.engine.Engine;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One WebSocket session (RFC 6455) on one of the engine's event loops, built from Netty's own codecs: the opening
 * handshake ({@link Handshake}, {@link Upgrade} on Netty's handshaker), the frame decoder and encoder it installs,
 * fragments joined by {@link WebSocketFrameAggregator} up to the size limit, permessage-deflate
 * ({@link WebSocketClientCompressionHandler}) when offered; its connection opens through the engine's
 * {@link Connector}, as every protocol's does. {@link InboundFrames}, the last handler of the pipeline, reads what the
 * server sends; {@link OutboundFrames} writes messages, pings and our close. The session carries out the thread's
 * {@link WebSocketCall}: it runs each call, hands each message to the call waiting for it or to its {@link Inbox},
 * and completes the call with its figures.
 *
 * <p>Between messages a session holds no buffer and no timer (unless pings are asked for): its deadlines are the
 * JMeter thread's. Everything here runs on the session's loop except {@link #submit}, {@link #isOpen} and
 * {@link #closeAsync}.
 */
public final class WebSocketSession {
    final Engine engine;
    final EventLoop loop;
    final WebSocketOptions options;
    final InetSocketAddress source;
    final WebSocketCall call = new WebSocketCall(this);

    // The session's state, on its loop. Handshake, InboundFrames and OutboundFrames read and move it directly, as
    // parts of one state machine split by job, keeping no state of their own beside it.
    Channel channel;
    /** Only during the opening handshake. */
    Upgrade upgrade;
    volatile boolean open;
    /** Why the last connection ended, reported at the next use until the session is opened again. */
    volatile IOException ended;
    /** Whether a sample reported {@link #ended} already (a closure is reported once, never silently dropped). */
    private volatile boolean endReported;
    /** The generation of the call the loop is carrying out, -1 for none. */
    int running = -1;
    /** The generation of the call waiting for a matching message, -1 for none. */
    int waiting = -1;
    boolean closing;
    /** Made at the first message nobody waited for. */
    private Inbox inbox;
    private long bytesIn;
    private long bytesOut;
    /** When the first byte of the message being read arrived; 0 between messages. */
    long messageStart;
    /** Our pings' schedule, when the options ask for them and the session is open. */
    ScheduledFuture<?> pings;

    /** @param source the local address to connect from, null for the kernel's choice */
    public WebSocketSession(Engine engine, EventLoop loop, WebSocketOptions options, InetSocketAddress source) {
        this.engine = engine;
        this.loop = loop;
        this.options = options;
        this.source = source;
    }

    public WebSocketCall call() {
        return call;
    }

    public WebSocketOptions options() {
        return options;
    }

    /** Any thread: handshake done and not closed since. */
    public boolean isOpen() {
        return open;
    }

    /** Any thread: why the session last ended (closed by the server, a protocol error), or null. */
    public IOException ended() {
        return ended;
    }

    /**
     * Thread: why the session ended, if no sample reported it yet (the server closed it between two uses); it is
     * then taken as reported.
     */
    public IOException takeUnreportedEnd() {
        IOException e = ended;
        if (e == null || endReported) {
            return null;
        }
        endReported = true;
        return e;
    }

    /** Thread: hands the armed call to the loop, at once or at its intended time. */
    public void submit() {
        int gen = call.generation();
        long delay = call.intendedNanos - System.nanoTime();
        if (delay <= 0) {
            loop.execute(() -> run(gen));
        } else {
            loop.schedule(() -> run(gen), delay, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Any thread: ends the session without waiting for the server (a deadline passed, the thread ended): an open
     * session sends a close frame 1001 (going away) first.
     */
    public void closeAsync() {
        try {
            loop.execute(() -> OutboundFrames.goAway(this));
        } catch (RejectedExecutionException stopped) {
            // The engine stopped (the test ended): its channels are closed already.
        }
    }

    private void run(int gen) {
        WebSocketCall c = call;
        if (!c.isArmed(gen)) {
            return;
        }
        running = gen;
        c.startNanos = System.nanoTime();
        c.inAtStart = bytesIn;
        c.outAtStart = bytesOut;
        c.sentNanos = 0;
        c.firstByteNanos = 0;
        switch (c.kind) {
            case OPEN -> connect(c, gen);
            case SEND, SEND_AND_WAIT -> OutboundFrames.send(this, c, gen);
            case WAIT -> waitFor(c, gen);
            case CLOSE -> OutboundFrames.close(this, c, gen);
            default -> throw new IllegalStateException(String.valueOf(c.kind));
        }
    }

    private void connect(WebSocketCall c, int gen) {
        if (open) {
            complete(c, gen);
            return;
        }
        ended = null;
        endReported = false;
        closing = false;
        messageStart = 0;
        channel = null;
        upgrade = new Upgrade(options, c.cookie);
        Handshake.start(this, gen);
    }

    /** Loop: the handshake of call {@code gen} ended with a valid 101: messages may flow. */
    void opened(WebSocketCall c, int gen) {
        upgrade = null;
        open = true;
        OutboundFrames.startPings(this);
        complete(c, gen);
    }

    IOException notOpen() {
        IOException e = ended;
        return e != null ? e : new WebSocketClosedException(WebSocketClosedException.ABNORMAL, "(session not open)");
    }

    private void waitFor(WebSocketCall c, int gen) {
        WebSocketMessage kept = inbox == null ? null : inbox.take(c.match);
        if (kept != null) {
            c.reply = kept;
            c.firstByteNanos = c.startNanos; // it was there already
            complete(c, gen);
            return;
        }
        if (!open) {
            fail(gen, notOpen());
            return;
        }
        waiting = gen;
    }

    /** Loop: a message from the server, to the call waiting for one that matches, else to the inbox. */
    void deliver(WebSocketMessage m) {
        WebSocketCall c = call;
        if (waiting >= 0 && c.isArmed(waiting) && c.sentNanos != 0 | c.kind == WebSocketCall.Kind.WAIT
                && (c.match == null || c.match.test(m))) {
            int gen = waiting;
            waiting = -1;
            c.reply = m;
            c.firstByteNanos = m.firstByteNanos();
            complete(c, gen);
            return;
        }
        if (inbox == null) {
            inbox = new Inbox(options.inboxLimit());
        }
        inbox.add(m);
    }

    void failRunning(IOException why) {
        if (running >= 0 && call.isArmed(running)) {
            fail(running, why);
        }
    }

    void failAndClose(int gen, IOException why) {
        upgrade = null;
        ended = why;
        fail(gen, why);
        channel.close();
    }

    void fail(int gen, IOException why) {
        WebSocketCall c = call;
        if (c.isArmed(gen)) {
            if (why == ended) {
                endReported = true;
            }
            c.failure = why;
            complete(c, gen);
        }
    }

    void complete(WebSocketCall c, int gen) {
        if (!c.claim(gen)) {
            return;
        }
        if (running == gen) {
            running = -1;
        }
        if (waiting == gen) {
            waiting = -1;
        }
        c.doneNanos = System.nanoTime();
        c.bytesIn = bytesIn - c.inAtStart;
        c.bytesOut = bytesOut - c.outAtStart;
        if (inbox != null) {
            c.unsolicited = inbox.unsolicited();
            c.dropped = inbox.dropped();
            if (c.keepUnsolicited) {
                c.unsolicitedKept = inbox.drain();
            }
        }
        c.publish();
    }

    void read(int n) {
        bytesIn += n;
        if (messageStart == 0) {
            messageStart = System.nanoTime();
        }
    }

    void written(int n) {
        bytesOut += n;
    }

    /** For messages: a text payload's bytes. */
    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
