/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import org.apache.http.NameValuePair;
import org.apache.http.client.entity.UrlEncodedFormEntity;
import org.apache.http.message.BasicNameValuePair;
import org.apache.jmeter.protocol.http.util.HTTPFileArg;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bytes a request goes out as: body rules, multipart, header order and framing, as stock JMeter sends them. */
class RequestBuildingTest {

    private static EngineHttpRequest sampler(String method) {
        EngineHttpRequest s = new EngineHttpRequest();
        s.setName("t");
        s.setDomain("127.0.0.1");
        s.setPort(8080);
        s.setPath("/p");
        s.setMethod(method);
        s.setContentEncoding("UTF-8");
        return s;
    }

    private static String wire(OutgoingRequest r) {
        return new String(r.encode(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void formParametersAreUrlEncodedWithTheEntityContentType() throws Exception {
        EngineHttpRequest s = sampler("POST");
        s.addArgument("name", "Ada Lovelace");
        s.addArgument("lang", "en & fr");
        HeaderFields own = new HeaderFields();
        RequestBody body = RequestBody.of(s, own);
        assertEquals("name=Ada+Lovelace&lang=en+%26+fr", new String(body.bytes(), StandardCharsets.US_ASCII));
        assertEquals("application/x-www-form-urlencoded; charset=UTF-8", body.contentType());
        assertEquals("name=Ada+Lovelace&lang=en+%26+fr", body.shown());
    }

    @Test
    void bodyDataIsSentAsTypedAndTheHeaderManagersContentTypeWins() throws Exception {
        EngineHttpRequest s = sampler("PUT");
        s.setPostBodyRaw(true);
        s.addNonEncodedArgument("", "{\"k\": \"ü\"}", "");
        HeaderFields own = new HeaderFields();
        own.add("Content-Type", "application/json");
        RequestBody body = RequestBody.of(s, own);
        assertEquals("{\"k\": \"ü\"}", new String(body.bytes(), StandardCharsets.UTF_8));
        OutgoingRequest r = OutgoingRequest.of("PUT", new URL("http://127.0.0.1:8080/p"), own, body, null);
        String text = wire(r);
        assertTrue(text.contains("\r\nContent-Type: application/json\r\n"), text);
        assertFalse(text.contains("text/plain"), "the entity's own type is not added when the plan set one: " + text);
        assertTrue(text.contains("\r\nContent-Length: 11\r\n"), "UTF-8 bytes counted: " + text);
    }

    @Test
    void multipartCarriesParametersAndFileAndShowsAPlaceholderForTheFile(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("up.txt"), "FILE-CONTENT");
        EngineHttpRequest s = sampler("POST");
        s.setDoMultipart(true);
        s.addArgument("field", "value");
        s.setHTTPFiles(new HTTPFileArg[] {new HTTPFileArg(file.toString(), "upload", "text/plain")});
        HeaderFields own = new HeaderFields();
        own.add("Content-Type", "application/x-www-form-urlencoded");
        RequestBody body = RequestBody.of(s, own);
        assertFalse(own.contains("Content-Type"), "multipart replaces a Content-Type set before");
        String sent = new String(body.bytes(), StandardCharsets.UTF_8);
        String boundary = body.contentType().replaceAll(".*boundary=([^;]+).*", "$1");
        assertTrue(body.contentType().startsWith("multipart/form-data; boundary="), body.contentType());
        assertTrue(sent.contains("--" + boundary + "\r\nContent-Disposition: form-data; name=\"field\""), sent);
        assertTrue(sent.contains("name=\"upload\"; filename=\"up.txt\"\r\nContent-Type: text/plain"), sent);
        assertTrue(sent.contains("FILE-CONTENT"), sent);
        assertTrue(sent.endsWith("--" + boundary + "--\r\n"), sent);
        assertFalse(body.shown().contains("FILE-CONTENT"), body.shown());
        assertTrue(body.shown().contains(RequestBody.FILE_PLACEHOLDER), body.shown());
    }

    @Test
    void aFileAsTheWholeBodyTakesItsMimeType(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("b.json"), "{}");
        EngineHttpRequest s = sampler("POST");
        s.setHTTPFiles(new HTTPFileArg[] {new HTTPFileArg(file.toString(), "", "application/json")});
        HeaderFields own = new HeaderFields();
        RequestBody body = RequestBody.of(s, own);
        assertEquals("{}", new String(body.bytes(), StandardCharsets.UTF_8));
        assertEquals("application/json", own.first("Content-Type"));
        assertEquals(RequestBody.FILE_PLACEHOLDER, body.shown());
        assertNull(body.contentType());
    }

    @Test
    void headFieldsFollowHttpClient4sOrderAndFraming() throws Exception {
        HeaderFields own = new HeaderFields();
        own.set("Connection", "keep-alive");
        own.add("X-A", "1");
        own.set("Cookie", "a=1");
        OutgoingRequest r = OutgoingRequest.of("POST", new URL("http://h.example:8080/a//c?q=1#frag"), own,
                new RequestBody("x=1".getBytes(StandardCharsets.US_ASCII), "text/plain", "x=1"), "Basic eA==");
        assertEquals("POST /a/c?q=1 HTTP/1.1\r\n"
                + "Connection: keep-alive\r\nX-A: 1\r\nCookie: a=1\r\nContent-Length: 3\r\nContent-Type: text/plain\r\n"
                + "Host: h.example:8080\r\nUser-Agent: " + OutgoingRequest.USER_AGENT + "\r\n"
                + "Authorization: Basic eA==\r\n\r\nx=1", wire(r));
        assertEquals("Connection: keep-alive\nX-A: 1\nContent-Length: 3\nContent-Type: text/plain\n"
                + "Host: h.example:8080\nUser-Agent: " + OutgoingRequest.USER_AGENT + "\nAuthorization: Basic eA==\n",
                r.headers().text(false), "JMeter shows request headers without Cookie");
    }

    @Test
    void theDirectEncodingGivesTheCharsetsBytesAlsoBeyondLatin1() throws Exception {
        for (String value : List.of("plain", "caf\u00e9 \u00ff", "\u20ac 5", "\ud83d\ude00 smile", "lone \ud83d")) {
            HeaderFields own = new HeaderFields();
            own.add("X-Value", value);
            for (RequestBody body : new RequestBody[] {null, RequestBody.EMPTY,
                    new RequestBody(new byte[] {0, (byte) 0xFF, 'b'}, "application/octet-stream", "")}) {
                OutgoingRequest r = OutgoingRequest.of("PUT", new URL("http://h.example/p?q=\u00e9"), own, body, null);
                assertArrayEquals(r.encodeByCharset(), r.encode(), value);
            }
        }
    }

    @Test
    void getWithoutBodyHasNoContentLengthAndAnEmptyPathIsSlash() throws Exception {
        HeaderFields own = new HeaderFields();
        own.set("Connection", "close");
        OutgoingRequest r = OutgoingRequest.of("GET", new URL("http://h.example"), own, null, null);
        String text = wire(r);
        assertTrue(text.startsWith("GET / HTTP/1.1\r\nConnection: close\r\nHost: h.example\r\n"), text);
        assertFalse(text.contains("Content-Length"), text);
        assertFalse(r.keepAlive());
        OutgoingRequest post = OutgoingRequest.of("POST", new URL("http://h.example/"), own, RequestBody.EMPTY, null);
        assertTrue(wire(post).contains("\r\nContent-Length: 0\r\n"), "stock sends Content-Length: 0 for an empty entity");
    }

    @Test
    void requestTargetsAreHttpClient4sAndAnInvalidUriStillFailsEveryTime() throws Exception {
        RequestTargets targets = new RequestTargets();
        assertEquals("/a/c?q=1", targets.of(new URL("http://h.example:8080/a//c?q=1#frag")));
        assertEquals("/a/c?q=1", targets.of(new URL("http://h.example:8080/a//c?q=1#frag")), "from the cache");
        assertEquals("/", targets.of(new URL("http://h.example")));
        URL invalid = new URL("http://h.example/a b");
        for (int i = 0; i < 2; i++) {
            assertThrows(java.net.URISyntaxException.class, () -> targets.of(invalid));
        }
    }

    @Test
    void theFormIsByteForByteHttpClient4sEntityInEveryCharset() throws Exception {
        StringBuilder everyAscii = new StringBuilder();
        for (char c = 0; c < 0x80; c++) {
            everyAscii.append(c);
        }
        List<List<NameValuePair>> forms = List.of(
                List.of(pair("username", "user7"), pair("password", "s3cr3t!"), pair("from", "a b&c=d")),
                List.of(pair(everyAscii.toString(), everyAscii.toString())),
                List.of(pair("", ""), pair("k", null), pair("", null), pair("x", "")),
                List.of(pair("name", "Zoë"), pair("city", "東京")),
                List.of());
        for (String encoding : List.of("UTF-8", "utf-8", "ISO-8859-1", "US-ASCII", "UTF-16", "windows-1252")) {
            for (List<NameValuePair> form : forms) {
                RequestBody ours = RequestBody.form(form, encoding, Charset.forName(encoding));
                UrlEncodedFormEntity stock = new UrlEncodedFormEntity(form, encoding);
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                stock.writeTo(bytes);
                String what = encoding + " " + form;
                assertArrayEquals(bytes.toByteArray(), ours.bytes(), what);
                assertEquals(stock.getContentType().getValue(), ours.contentType(), what);
                assertEquals(new String(bytes.toByteArray(), encoding), ours.shown(), what);
            }
        }
    }

    private static NameValuePair pair(String name, String value) {
        return new BasicNameValuePair(name, value);
    }
}
