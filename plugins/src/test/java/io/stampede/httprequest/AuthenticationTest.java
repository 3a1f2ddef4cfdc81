/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import org.apache.jmeter.protocol.http.control.AuthManager;
import org.apache.jmeter.protocol.http.control.Authorization;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Basic sent unasked, Digest answered to a challenge, checked against RFC 7616's own computation. */
class AuthenticationTest {

    private static AuthManager manager(AuthManager.Mechanism mechanism) {
        AuthManager m = new AuthManager();
        Authorization a = new Authorization();
        a.setURL("http://127.0.0.1:8080/secure/");
        a.setUser("Mufasa");
        a.setPass("Circle of Life");
        a.setDomain("");
        a.setRealm("");
        a.setMechanism(mechanism);
        m.addAuth(a);
        return m;
    }

    private static String md5(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.ISO_8859_1)));
    }

    @Test
    void basicGoesWithTheFirstRequestOnlyForBasicEntries() throws Exception {
        URL url = new URL("http://127.0.0.1:8080/secure/page");
        assertEquals("Basic TXVmYXNhOkNpcmNsZSBvZiBMaWZl",
                Authentication.preemptive(manager(AuthManager.Mechanism.BASIC), url, "GET", "/secure/page"));
        assertNull(Authentication.preemptive(manager(AuthManager.Mechanism.DIGEST), url, "GET", "/secure/page"));
        assertNull(Authentication.preemptive(manager(AuthManager.Mechanism.BASIC),
                new URL("http://127.0.0.1:8080/public"), "GET", "/public"), "no entry for that URL");
    }

    @Test
    void digestAnswersTheChallengeWithAValidResponse() throws Exception {
        String challenge = "Digest realm=\"http-auth@example.org\", qop=\"auth\", algorithm=MD5, "
                + "nonce=\"7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v\", opaque=\"FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS\"";
        String value = Authentication.answer(manager(AuthManager.Mechanism.DIGEST),
                new URL("http://127.0.0.1:8080/secure/dir/index.html"), "GET", "/secure/dir/index.html",
                List.of("Basic realm=\"x\"", challenge), false);
        assertTrue(value.startsWith("Digest "), value);
        Map<String, String> p = new HashMap<>();
        Matcher m = Pattern.compile("(\\w+)=(\"([^\"]*)\"|([^,\\s]*))").matcher(value.substring(7));
        while (m.find()) {
            p.put(m.group(1), m.group(3) != null ? m.group(3) : m.group(4));
        }
        assertEquals("Mufasa", p.get("username"));
        assertEquals("/secure/dir/index.html", p.get("uri"));
        assertEquals("auth", p.get("qop"));
        assertEquals("FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS", p.get("opaque"));
        String ha1 = md5("Mufasa:http-auth@example.org:Circle of Life");
        String ha2 = md5("GET:/secure/dir/index.html");
        String expected = md5(ha1 + ":" + p.get("nonce") + ":" + p.get("nc") + ":" + p.get("cnonce") + ":auth:" + ha2);
        assertEquals(expected, p.get("response"), "the server's own check of the response");
    }

    @Test
    void basicIsNotRepeatedAndNothingIsAnsweredWithoutCredentials() throws Exception {
        URL url = new URL("http://127.0.0.1:8080/secure/page");
        List<String> basic = List.of("Basic realm=\"r\"");
        assertNull(Authentication.answer(manager(AuthManager.Mechanism.BASIC), url, "GET", "/secure/page", basic, true));
        assertEquals("Basic TXVmYXNhOkNpcmNsZSBvZiBMaWZl",
                Authentication.answer(manager(AuthManager.Mechanism.DIGEST), url, "GET", "/secure/page", basic, false));
        assertNull(Authentication.answer(new AuthManager(), url, "GET", "/secure/page", basic, false));
        AuthManager scoped = manager(AuthManager.Mechanism.DIGEST);
        scoped.get(0).setRealm("staff");
        assertNull(Authentication.answer(scoped, url, "GET", "/secure/page", basic, false), "another realm");
        assertEquals("Basic TXVmYXNhOkNpcmNsZSBvZiBMaWZl", Authentication.answer(scoped, url, "GET", "/secure/page",
                List.of("Basic realm=\"staff\""), false));
        assertEquals("staff", Authentication.realmOf("Digest qop=auth, REALM=staff, nonce=\"x\""));
    }
}
