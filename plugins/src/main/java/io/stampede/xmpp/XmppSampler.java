/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp;

import io.stampede.engine.EngineTestListener;
import io.stampede.engine.Failures;
import io.stampede.engine.xmpp.Received;
import io.stampede.engine.xmpp.XmppException;
import io.stampede.engine.xmpp.XmppSession;
import io.stampede.engine.xmpp.XmppStreamException;
import io.stampede.engine.xmpp.XmppTimeoutException;
import io.stampede.sampler.ResultFiller;
import io.stampede.sessions.UserSessions;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.ThreadListener;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The XMPP elements' common side: the thread's sessions ({@link SessionTurns}), waiting for the session's loop
 * with a bound, and failures as JMeter reads them ({@code Non HTTP response code: <exception class>}, the class
 * naming the kind: stream error, SASL failure, stanza error, timeout). Sessions close at the thread's end, the
 * engine at the test's.
 */
public abstract class XmppSampler extends AbstractSampler implements ThreadListener, EngineTestListener,
        Interruptible {
    private static final long serialVersionUID = 1L;
    /** This clone's thread's sessions, for stop-now, which JMeter calls from another thread. */
    private transient volatile UserSessions<SessionTurns> sessions;

    @Override
    public final SampleResult sample(Entry e) {
        SampleResult res = new SampleResult();
        res.setSampleLabel(getName());
        res.setDataType(SampleResult.TEXT);
        long start = System.nanoTime();
        sessions = SessionTurns.registry();
        try {
            return run(res, start);
        } catch (IOException | IllegalArgumentException ex) {
            return failed(res, start, ex);
        }
    }

    /** One sample; null records none (nothing was due). */
    abstract SampleResult run(SampleResult res, long startNanos) throws IOException;

    /** The thread's current session, logged in; else the failure a sample reports. */
    static XmppSession currentSession() throws XmppException {
        SessionTurns t = SessionTurns.ofThread();
        XmppSession s = t == null ? null : t.current();
        if (s == null) {
            throw new XmppStreamException("not-logged-in", "no session: put an XMPP Connect + Login before");
        }
        if (s.failure() != null) {
            throw s.failure();
        }
        return s;
    }

    /**
     * The outcome of {@code f} within {@code timeoutMillis}; past it, the wait is given up (an awaited stanza arriving
     * later goes to the inbox) and the sample fails with an XmppTimeoutException about {@code what}.
     */
    static <T> T await(CompletableFuture<T> f, XmppSession session, int timeoutMillis, String what)
            throws IOException {
        SessionTurns t = SessionTurns.ofThread();
        if (t != null) {
            t.waitingOn(f);
        }
        try {
            return f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            XmppTimeoutException timeout = new XmppTimeoutException(what, "nothing within " + timeoutMillis + " ms");
            giveUp(f, session, timeout);
            throw timeout;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException stop = Failures.interrupted();
            giveUp(f, session, stop);
            throw stop;
        } catch (ExecutionException e) {
            throw Failures.io(e.getCause());
        } finally {
            if (t != null) {
                t.waitingOn(null);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void giveUp(CompletableFuture<?> f, XmppSession session, IOException why) {
        if (session != null && why instanceof XmppTimeoutException timeout) {
            session.cancel((CompletableFuture<Received>) f, timeout);
        } else {
            f.completeExceptionally(why);
        }
    }

    /** The sample's times from nanoTime stamps, in JMeter's epoch milliseconds. */
    static void times(SampleResult res, long startNanos, long endNanos) {
        long now = System.nanoTime();
        long startMillis = System.currentTimeMillis() - (now - startNanos) / 1_000_000L;
        res.setStampAndTime(startMillis, Math.max(0, (endNanos - startNanos) / 1_000_000L));
    }

    /** Fails the sample with {@code ex}; its times end now unless they were already set. */
    static SampleResult failed(SampleResult res, long startNanos, Exception ex) {
        if (res.getStartTime() == 0) {
            times(res, startNanos, System.nanoTime());
        }
        ResultFiller.failed(res, ex);
        return res;
    }

    static void ok(SampleResult res, String message, String data) {
        res.setResponseCodeOK();
        res.setResponseMessage(message);
        res.setResponseData(data, StandardCharsets.UTF_8.name());
        res.setSuccessful(true);
    }

    int intProperty(String name, int dflt, int min, int max) {
        String text = getPropertyAsString(name).trim();
        if (text.isEmpty()) {
            return dflt;
        }
        try {
            int v = Integer.parseInt(text);
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below, with the field's name
        }
        throw new IllegalArgumentException(name + " must be a whole number from " + min + " to " + max + ", got '"
                + text + "'");
    }

    @Override
    public boolean interrupt() {
        UserSessions<SessionTurns> t = sessions;
        return t != null && t.interrupt();
    }

    @Override
    public void threadStarted() {
        // sessions open at the first login
    }

    @Override
    public void threadFinished() {
        SessionTurns.registry().closeAll();
        sessions = null;
    }

}
