/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The client side of SCRAM-SHA-1 (RFC 5802) without channel binding, as XMPP uses it: the client-first message, the
 * proof for the server's challenge, and the check of the server's signature. The JDK's PBKDF2 and HMAC do the
 * cryptography. User names and passwords are used as given (SASLprep is the identity for ASCII).
 */
final class ScramSha1 {
    private static final String GS2_HEADER = "n,,";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String password;
    private final String clientFirstBare;
    private final String clientNonce;
    private byte[] expectedServerSignature;

    ScramSha1(String user, String password) {
        this(user, password, randomNonce());
    }

    /** With a given nonce: RFC 5802's worked example checks the arithmetic. */
    ScramSha1(String user, String password, String clientNonce) {
        this.password = password;
        this.clientNonce = clientNonce;
        this.clientFirstBare = "n=" + user.replace("=", "=3D").replace(",", "=2C") + ",r=" + clientNonce;
    }

    private static String randomNonce() {
        byte[] nonce = new byte[18];
        RANDOM.nextBytes(nonce);
        return Base64.getEncoder().encodeToString(nonce);
    }

    /** The first message, base64 as it goes into {@code <auth>}. */
    String clientFirst() {
        return base64(GS2_HEADER + clientFirstBare);
    }

    /** The final message with the proof for the server's challenge (base64 in, base64 out). */
    String clientFinal(String challengeBase64) throws SaslFailureException {
        String serverFirst = new String(Base64.getDecoder().decode(challengeBase64), StandardCharsets.UTF_8);
        String nonce = field(serverFirst, 'r');
        String salt = field(serverFirst, 's');
        String iterations = field(serverFirst, 'i');
        if (nonce == null || salt == null || iterations == null || !nonce.startsWith(clientNonce)) {
            throw new SaslFailureException("malformed-request", "the server's SCRAM challenge: " + serverFirst);
        }
        String withoutProof = "c=" + base64(GS2_HEADER) + ",r=" + nonce;
        String authMessage = clientFirstBare + ',' + serverFirst + ',' + withoutProof;
        try {
            byte[] salted = pbkdf2(password, Base64.getDecoder().decode(salt), Integer.parseInt(iterations));
            byte[] clientKey = hmac(salted, "Client Key");
            byte[] storedKey = MessageDigest.getInstance("SHA-1").digest(clientKey);
            byte[] signature = hmac(storedKey, authMessage);
            byte[] proof = new byte[clientKey.length];
            for (int i = 0; i < proof.length; i++) {
                proof[i] = (byte) (clientKey[i] ^ signature[i]);
            }
            expectedServerSignature = hmac(hmac(salted, "Server Key"), authMessage);
            return base64(withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof));
        } catch (GeneralSecurityException | NumberFormatException e) {
            throw new SaslFailureException("malformed-request", "SCRAM-SHA-1: " + e.getMessage());
        }
    }

    /** Whether the server's final message (base64, from {@code <success>}) proves it knows the password. */
    boolean serverVerified(String successBase64) {
        if (expectedServerSignature == null || successBase64 == null || successBase64.isEmpty()) {
            return false;
        }
        String serverFinal = new String(Base64.getDecoder().decode(successBase64), StandardCharsets.UTF_8);
        String v = field(serverFinal, 'v');
        return v != null && MessageDigest.isEqual(Base64.getDecoder().decode(v), expectedServerSignature);
    }

    private static String field(String message, char name) {
        for (String part : message.split(",")) {
            if (part.length() > 1 && part.charAt(0) == name && part.charAt(1) == '=') {
                return part.substring(2);
            }
        }
        return null;
    }

    private static byte[] pbkdf2(String password, byte[] salt, int iterations) throws GeneralSecurityException {
        PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, 160);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA1").generateSecret(spec).getEncoded();
        } finally {
            spec.clearPassword();
        }
    }

    private static byte[] hmac(byte[] key, String data) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec(key, "HmacSHA1"));
        return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    }

    private static String base64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }
}
