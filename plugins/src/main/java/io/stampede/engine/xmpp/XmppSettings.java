/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import java.net.URI;
import java.util.Locale;

/**
 * What one XMPP session connects to and logs in as. Immutable; the JMeter side builds it from an element's fields.
 *
 * @param host server address to connect to
 * @param port c2s port (5222 usually)
 * @param domain the XMPP domain (the stream's {@code to}, the JID's domain)
 * @param user the JID's local part
 * @param password the user's password
 * @param resource the resource to bind; empty lets the server choose
 * @param startTls when to switch to TLS
 * @param mechanism the SASL mechanism
 * @param trustAll accept any server certificate (test rigs with self-signed certificates)
 * @param connectTimeoutMillis TCP connect timeout
 * @param inboxLimit stanzas kept for later waits; older ones are dropped and counted beyond it
 * @param inboxKeep the names of the stanzas the inbox keeps ("message", "presence", "iq"); empty keeps all
 * @param webSocket null for XMPP over TCP; else the ws:// or wss:// URL of XMPP over WebSocket (RFC 7395), whose
 *     host and port are then {@code host} and {@code port}, and whose TLS (wss) replaces STARTTLS
 */
public record XmppSettings(String host, int port, String domain, String user, String password, String resource,
                           StartTls startTls, SaslMechanism mechanism, boolean trustAll, int connectTimeoutMillis,
                           int inboxLimit, java.util.Set<String> inboxKeep, URI webSocket) {

    /** When the session switches to TLS. */
    public enum StartTls {
        /** Fail the login when the server does not offer STARTTLS. */
        REQUIRED,
        /** Use it when the server offers it (and when it requires it). */
        IF_OFFERED,
        /** Never: a server that requires it fails the login. */
        OFF
    }

    /** The SASL mechanism to log in with. */
    public enum SaslMechanism {
        /** SCRAM-SHA-1 when offered, else PLAIN. */
        AUTO,
        PLAIN,
        SCRAM_SHA_1
    }

    public XmppSettings {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("XMPP port must be 1-65535, got " + port);
        }
        if (domain == null || domain.isBlank()) {
            throw new IllegalArgumentException("XMPP domain is empty: set the server's domain");
        }
        inboxKeep = java.util.Set.copyOf(inboxKeep);
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("XMPP user is empty: set the user name (the JID's local part)");
        }
        if (webSocket != null && (!isWebSocketScheme(webSocket.getScheme()) || webSocket.getHost() == null)) {
            throw new IllegalArgumentException("XMPP over WebSocket needs a ws:// or wss:// URL with a host, got "
                    + webSocket);
        }
    }

    /** XMPP over TCP. */
    public XmppSettings(String host, int port, String domain, String user, String password, String resource,
                        StartTls startTls, SaslMechanism mechanism, boolean trustAll, int connectTimeoutMillis,
                        int inboxLimit, java.util.Set<String> inboxKeep) {
        this(host, port, domain, user, password, resource, startTls, mechanism, trustAll, connectTimeoutMillis,
                inboxLimit, inboxKeep, null);
    }

    /** Whether {@code scheme} is WebSocket's, ws or wss. */
    public static boolean isWebSocketScheme(String scheme) {
        return scheme != null && (scheme.equalsIgnoreCase("ws") || scheme.equalsIgnoreCase("wss"));
    }

    /** Over WebSocket, whether the URL is wss (TLS from the connect on). */
    public boolean webSocketTls() {
        return webSocket != null && webSocket.getScheme().toLowerCase(Locale.ROOT).equals("wss");
    }

    /** Where the session connects, for sample data: host:port, or the WebSocket URL. */
    public String endpoint() {
        return webSocket != null ? webSocket.toString() : host + ':' + port;
    }

    /** Whether the inbox keeps a stanza of this name for later waits. */
    public boolean keeps(String stanzaName) {
        return inboxKeep.isEmpty() || inboxKeep.contains(stanzaName);
    }

    /** The bare JID this session logs in as. */
    public String bareJid() {
        return user + '@' + domain;
    }
}
