/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether an XMPP server authenticates a user, asked once over XMPP over WebSocket with the JDK's own WebSocket
 * client (SASL PLAIN, nothing after): ejabberd accepts on its ports before its SQL pool is up, and a login in that
 * gap fails, so a test starts only after this says yes.
 */
final class XmppLoginProbe implements WebSocket.Listener {
    private final String user;
    private final String password;
    private final CompletableFuture<Boolean> outcome = new CompletableFuture<>();
    private final StringBuilder message = new StringBuilder();

    private XmppLoginProbe(String user, String password) {
        this.user = user;
        this.password = password;
    }

    /** True when {@code user@domain} logs in at {@code url} within 10 s; false on any refusal or failure. */
    static boolean authenticates(String url, String domain, String user, String password) {
        XmppLoginProbe probe = new XmppLoginProbe(user, password);
        WebSocket ws = null;
        try {
            ws = HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("xmpp")
                    .connectTimeout(Duration.ofSeconds(5)).buildAsync(URI.create(url), probe).get(10, TimeUnit.SECONDS);
            ws.sendText("<open xmlns='urn:ietf:params:xml:ns:xmpp-framing' to='" + domain + "' version='1.0'/>", true);
            return probe.outcome.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            if (ws != null) {
                ws.abort();
            }
        }
    }

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
        message.append(data);
        if (last) {
            String m = message.toString();
            message.setLength(0);
            if (m.contains("<mechanisms")) {
                String plain = "\0" + user + "\0" + password;
                ws.sendText("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>"
                        + Base64.getEncoder().encodeToString(plain.getBytes(StandardCharsets.UTF_8)) + "</auth>", true);
            } else if (m.contains("<success")) {
                outcome.complete(true);
            } else if (m.contains("<failure") || m.contains("<close") || m.contains("error")) {
                outcome.complete(false);
            }
        }
        ws.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
        outcome.complete(false);
        return null;
    }

    @Override
    public void onError(WebSocket ws, Throwable error) {
        outcome.complete(false);
    }
}
