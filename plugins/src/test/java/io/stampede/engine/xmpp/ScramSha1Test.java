/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class ScramSha1Test {

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(String b64) {
        return new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8);
    }

    @Test
    void computesTheProofOfRfc5802sExample() throws Exception {
        ScramSha1 s = new ScramSha1("user", "pencil", "fyko+d2lbbFgONRv9qkxdawL");
        assertEquals("n,,n=user,r=fyko+d2lbbFgONRv9qkxdawL", text(s.clientFirst()));
        String fin = s.clientFinal(b64("r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096"));
        assertEquals("c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=", text(fin));
        assertTrue(s.serverVerified(b64("v=rmF9pqV8S7suAoZWja4dJRkFsKQ=")));
        assertFalse(s.serverVerified(b64("v=AAAAAAAAAAAAAAAAAAAAAAAAAAA=")));
    }

    @Test
    void refusesAChallengeWhoseNonceIsNotOurs() {
        ScramSha1 s = new ScramSha1("user", "pencil", "abc");
        SaslFailureException e = assertThrows(SaslFailureException.class,
                () -> s.clientFinal(b64("r=xyz123,s=QSXCR+Q6sek8bf92,i=4096")));
        assertEquals("malformed-request", e.condition());
    }
}
