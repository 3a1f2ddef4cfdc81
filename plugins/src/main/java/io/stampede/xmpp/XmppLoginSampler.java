/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.xmpp;

import io.stampede.engine.Failures;
import io.stampede.engine.xmpp.LoginTimes;
import io.stampede.engine.xmpp.XmppSession;
import io.stampede.engine.xmpp.XmppSettings;
import io.stampede.engine.xmpp.XmppTimeoutException;
import io.stampede.sampler.ResultFiller;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.threads.ThreadGroup;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * XMPP Connect + Login: takes the thread's next session (with several sessions per thread, the next one whose turn
 * has come, every pacing interval each) and makes it current; logs it in when it is not (a new session, or one the
 * server closed): one sample with the time of each step (connect, TLS, SASL, bind). The logins run on the engine,
 * up to {@link #CONCURRENT_LOGINS} per thread, each connecting at its turn; a sample reports one that ended, and its
 * session takes its first turn then. A session already logged in records no sample. Sets
 * {@code stampede_xmpp_turn} (1 at a session's first turn), {@code stampede_xmpp_jid}, {@code stampede_xmpp_inbox}
 * and {@code stampede_xmpp_owed} (see {@link XmppWaitSampler}).
 */
public class XmppLoginSampler extends XmppSampler {
    private static final long serialVersionUID = 1L;

    public static final String HOST = "xmpp.host";
    public static final String PORT = "xmpp.port";
    public static final String DOMAIN = "xmpp.domain";
    public static final String USER = "xmpp.user";
    public static final String PASSWORD = "xmpp.password";
    public static final String RESOURCE = "xmpp.resource";
    public static final String STARTTLS = "xmpp.starttls";
    public static final String MECHANISM = "xmpp.sasl";
    public static final String TRUST_ALL = "xmpp.tls.trust_all";
    public static final String CONNECT_TIMEOUT = "xmpp.connect_timeout_ms";
    public static final String LOGIN_TIMEOUT = "xmpp.login_timeout_ms";
    public static final String INBOX = "xmpp.inbox_limit";
    public static final String INBOX_KEEP = "xmpp.inbox_keep";
    public static final String SESSIONS = "xmpp.sessions_per_thread";
    public static final String PACING = "xmpp.pacing_ms";
    public static final String RAMP = "xmpp.ramp_ms";
    /** Turns each session takes through this element at most (0: no limit), so a loop gives every session its own. */
    public static final String MAX_TURNS = "xmpp.max_turns";
    /**
     * Logins one thread runs at once at most: a thread holding many sessions starts each login at its turn and goes
     * on while the server answers, so its login rate is not bounded by one login's round trips.
     */
    public static final String CONCURRENT_LOGINS = "xmpp.concurrent_logins";
    static final int DEFAULT_CONCURRENT_LOGINS = 16;
    /** tcp (the default) or websocket. */
    public static final String TRANSPORT = "xmpp.transport";
    /** Over WebSocket: a ws:// or wss:// URL, or a path (/ws) on the server and port above, in ws://. */
    public static final String WEBSOCKET_URL = "xmpp.websocket.url";
    /** In user and password: the session's number over the test, 1-based (see {@link #sessionNumber}). */
    public static final String N = "{n}";

    @Override
    SampleResult run(SampleResult res, long startNanos) throws IOException {
        int count = intProperty(SESSIONS, 1, 1, 100_000);
        int pacing = intProperty(PACING, 0, 0, Integer.MAX_VALUE);
        int ramp = intProperty(RAMP, pacing, 0, Integer.MAX_VALUE);
        int timeout = intProperty(LOGIN_TIMEOUT, 10_000, 1, Integer.MAX_VALUE);
        int concurrent = intProperty(CONCURRENT_LOGINS, DEFAULT_CONCURRENT_LOGINS, 1, 100_000);
        JMeterContext context = JMeterContextService.getContext();
        int threadNum = context.getThreadNum();
        // Only a group that starts its threads together needs them to take turns within the gap: a ramp-up (or
        // another kind of group) already starts each at a time of its own.
        int together = context.getThreadGroup() instanceof ThreadGroup g && g.getRampUp() == 0 ? g.getNumThreads() : 1;
        SessionTurns t = SessionTurns.forLogin(count, TimeUnit.MILLISECONDS.toNanos(pacing),
                TimeUnit.MILLISECONDS.toNanos(ramp), SessionTurns.phase(threadNum, together));
        t.nextTurn(intProperty(MAX_TURNS, 0, 0, Integer.MAX_VALUE), concurrent,
                TimeUnit.MILLISECONDS.toNanos(timeout),
                (i, at) -> XmppSession.openAt(settings(sessionNumber(threadNum, t.size(), i)), at));
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        LoginsInFlight.Login login = t.reported();
        if (login == null) {
            XmppSession s = t.current();
            vars.put("stampede_xmpp_turn", Integer.toString(t.turn()));
            vars.put("stampede_xmpp_jid", s.jid());
            XmppWaitSampler.inboxVariables(s.inboxSize(), t.owed());
            return null;
        }
        vars.put("stampede_xmpp_turn", "1");
        XmppSettings settings = login.session.settings();
        res.setSamplerData(settings.bareJid() + " via " + settings.endpoint());
        LoginTimes times = ended(login, timeout, res);
        vars.put("stampede_xmpp_jid", times.jid());
        XmppWaitSampler.inboxVariables(0, t.owed());
        times(res, login.startNanos, times.boundNanos());
        long tlsEnd = times.tlsNanos() == 0 ? times.connectedNanos() : times.tlsNanos();
        res.setConnectTime(ResultFiller.connectMillis(tlsEnd - login.startNanos));
        res.setLatency(res.getTime());
        ok(res, "logged in as " + times.jid(), steps(times));
        return res;
    }

    /**
     * The times of a login that ended; else its failure (a login past its timeout is given up as an XMPP timeout),
     * the sample timed from the login's start to its end, and its session aborted, so that a login given up does not
     * finish later behind the next one's back.
     */
    private static LoginTimes ended(LoginsInFlight.Login login, int timeoutMillis, SampleResult res)
            throws IOException {
        CompletableFuture<LoginTimes> f = login.session.login();
        long end = login.endNanos();
        f.completeExceptionally(new XmppTimeoutException("login of " + login.session.settings().bareJid(),
                "nothing within " + timeoutMillis + " ms"));
        try {
            return f.join();
        } catch (CompletionException | CancellationException e) {
            login.session.abort();
            times(res, login.startNanos, end);
            throw Failures.io(e instanceof CompletionException ? e.getCause() : e);
        }
    }

    /** The session's number over the test: threads take consecutive blocks of their sessions' count. */
    static int sessionNumber(int threadNum, int sessionsPerThread, int index) {
        return threadNum * sessionsPerThread + index + 1;
    }

    /** Each step's time in milliseconds, as the response data. */
    static String steps(LoginTimes t) {
        long tls = t.tlsNanos() == 0 ? 0 : t.tlsNanos() - t.connectedNanos();
        long tlsEnd = t.tlsNanos() == 0 ? t.connectedNanos() : t.tlsNanos();
        long saslStart = t.upgradedNanos() == 0 ? tlsEnd : t.upgradedNanos();
        String upgrade = t.upgradedNanos() == 0 ? ""
                : String.format(Locale.ROOT, "websocket upgrade %.3f ms%n", ms(t.upgradedNanos() - tlsEnd));
        return String.format(Locale.ROOT, "connect %.3f ms%ntls %.3f ms%n%ssasl %.3f ms (%s)%nbind %.3f ms%njid %s%n",
                ms(t.connectedNanos() - t.startNanos()), ms(tls), upgrade, ms(t.saslNanos() - saslStart),
                t.mechanism(), ms(t.boundNanos() - t.saslNanos()), t.jid());
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    XmppSettings settings(int n) {
        String host = getPropertyAsString(HOST).trim();
        String domain = getPropertyAsString(DOMAIN).trim();
        String number = Integer.toString(n);
        int port = intProperty(PORT, 5222, 1, 65535);
        URI webSocket = webSocketUrl(host, port);
        if (webSocket == null && host.isEmpty()) {
            throw new IllegalArgumentException(HOST + " is empty; enter the XMPP server's host name or address");
        }
        if (webSocket != null) {
            host = webSocket.getHost().replaceAll("^\\[|\\]$", ""); // an IPv6 literal's brackets are the URL's
            port = webSocket.getPort();
        }
        return new XmppSettings(host, port, domain.isEmpty() ? host : domain,
                getPropertyAsString(USER).trim().replace(N, number), getPropertyAsString(PASSWORD).replace(N, number),
                getPropertyAsString(RESOURCE, "stampede").trim().replace(N, number),
                enumProperty(STARTTLS, XmppSettings.StartTls.class, XmppSettings.StartTls.IF_OFFERED),
                enumProperty(MECHANISM, XmppSettings.SaslMechanism.class, XmppSettings.SaslMechanism.AUTO),
                getPropertyAsBoolean(TRUST_ALL, false), intProperty(CONNECT_TIMEOUT, 10_000, 1, Integer.MAX_VALUE),
                intProperty(INBOX, 100, 0, 100_000), inboxKeep(), webSocket);
    }

    /**
     * Null over TCP; over WebSocket the URL with its port spelled out: the field's ws:// or wss:// URL, or a path
     * on the server and port fields, in ws://.
     */
    private URI webSocketUrl(String host, int port) {
        String transport = getPropertyAsString(TRANSPORT).trim().toLowerCase(Locale.ROOT);
        if (transport.isEmpty() || transport.equals("tcp")) {
            return null;
        }
        if (!transport.equals("websocket")) {
            throw new IllegalArgumentException(TRANSPORT + " must be tcp or websocket, got '" + transport + "'");
        }
        String text = getPropertyAsString(WEBSOCKET_URL).trim();
        String fix = "; enter a ws:// or wss:// URL (ws://host:5280/ws) or a path on the server and port (/ws)";
        if (text.isEmpty()) {
            throw new IllegalArgumentException(WEBSOCKET_URL + " is empty" + fix);
        }
        if (text.startsWith("/") && host.isEmpty()) {
            throw new IllegalArgumentException(HOST + " is empty; enter the XMPP server's host name or address, or a "
                    + "whole URL in " + WEBSOCKET_URL);
        }
        try {
            URI u = text.startsWith("/") ? new URI("ws", null, host, port, text, null, null) : new URI(text);
            if (!XmppSettings.isWebSocketScheme(u.getScheme()) || u.getHost() == null) {
                throw new IllegalArgumentException(WEBSOCKET_URL + " '" + text + "' is not a WebSocket URL" + fix);
            }
            boolean tls = u.getScheme().equalsIgnoreCase("wss");
            int p = u.getPort() > 0 ? u.getPort() : tls ? 443 : 80;
            String path = u.getPath() == null || u.getPath().isEmpty() ? "/" : u.getPath();
            return new URI(u.getScheme().toLowerCase(Locale.ROOT), null, u.getHost(), p, path, u.getQuery(), null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(WEBSOCKET_URL + " '" + text + "' is not a URL (" + e.getMessage() + ")"
                    + fix, e);
        }
    }

    private java.util.Set<String> inboxKeep() {
        String text = getPropertyAsString(INBOX_KEEP).trim();
        java.util.Set<String> names = new java.util.HashSet<>();
        if (text.isEmpty() || text.equals("all")) {
            return names;
        }
        for (String name : text.split("[,\\s]+")) {
            if (!name.equals("message") && !name.equals("presence") && !name.equals("iq")) {
                throw new IllegalArgumentException(INBOX_KEEP + " lists stanza names (message, presence, iq) or "
                        + "'all', got '" + name + "'");
            }
            names.add(name);
        }
        return names;
    }

    private <E extends Enum<E>> E enumProperty(String name, Class<E> type, E dflt) {
        String text = getPropertyAsString(name).trim();
        if (text.isEmpty()) {
            return dflt;
        }
        try {
            return Enum.valueOf(type, text.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            StringBuilder allowed = new StringBuilder();
            for (E c : type.getEnumConstants()) {
                allowed.append(allowed.length() == 0 ? "" : ", ").append(c.name().toLowerCase(Locale.ROOT));
            }
            throw new IllegalArgumentException(name + " must be one of " + allowed + ", got '" + text + "'");
        }
    }
}
