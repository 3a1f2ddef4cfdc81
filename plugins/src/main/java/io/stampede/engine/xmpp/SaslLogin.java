/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The SASL step of one login (RFC 6120 §6): the mechanism chosen from the server's offer and the sampler's setting
 * (SCRAM-SHA-1 when offered, else PLAIN; or the one asked for), the first message, SCRAM's challenge and response,
 * and, at success, the check that the server knows the password. The session sends what this returns.
 */
final class SaslLogin {
    private final XmppSettings settings;
    private String mechanism;
    /** SCRAM's state between the first message and the success; null for PLAIN. */
    private ScramSha1 scram;

    SaslLogin(XmppSettings settings) {
        this.settings = settings;
    }

    /** The {@code <auth/>} element for the mechanisms the server offers ({@code mechanisms} may be null). */
    String start(XmlElement mechanisms) throws SaslFailureException {
        List<String> offered = new ArrayList<>();
        if (mechanisms != null) {
            for (XmlElement m : mechanisms.children()) {
                offered.add(m.text());
            }
        }
        boolean scramOffered = offered.contains("SCRAM-SHA-1");
        boolean plainOffered = offered.contains("PLAIN");
        switch (settings.mechanism()) {
            case SCRAM_SHA_1 -> {
                if (!scramOffered) {
                    throw new SaslFailureException("mechanism-too-weak", "SCRAM-SHA-1 not offered: " + offered);
                }
                return scram();
            }
            case PLAIN -> {
                if (!plainOffered) {
                    throw new SaslFailureException("invalid-mechanism", "PLAIN not offered: " + offered);
                }
                return plain();
            }
            default -> {
                if (scramOffered) {
                    return scram();
                }
                if (plainOffered) {
                    return plain();
                }
                throw new SaslFailureException("invalid-mechanism", "neither SCRAM-SHA-1 nor PLAIN offered: "
                        + offered);
            }
        }
    }

    private String scram() {
        mechanism = "SCRAM-SHA-1";
        scram = new ScramSha1(settings.user(), settings.password());
        return "<auth xmlns='" + XmppSession.NS_SASL + "' mechanism='SCRAM-SHA-1'>" + scram.clientFirst() + "</auth>";
    }

    private String plain() {
        mechanism = "PLAIN";
        String creds = "\0" + settings.user() + "\0" + settings.password();
        return "<auth xmlns='" + XmppSession.NS_SASL + "' mechanism='PLAIN'>"
                + Base64.getEncoder().encodeToString(creds.getBytes(StandardCharsets.UTF_8)) + "</auth>";
    }

    /** The {@code <response/>} to the server's challenge (base64 text). */
    String respond(String challenge) throws SaslFailureException {
        if (scram == null) {
            throw new SaslFailureException("malformed-request", "a challenge to PLAIN");
        }
        return "<response xmlns='" + XmppSession.NS_SASL + "'>" + scram.clientFinal(challenge) + "</response>";
    }

    /** The server's success (base64 text): with SCRAM, its signature must prove that it knows the password. */
    void succeeded(String success) throws SaslFailureException {
        if (scram != null && !scram.serverVerified(success)) {
            throw new SaslFailureException("server-not-verified",
                    "the server's SCRAM signature does not match: not the server that knows the password");
        }
        scram = null;
    }

    /** The mechanism chosen, null before {@link #start}. */
    String mechanism() {
        return mechanism;
    }
}
