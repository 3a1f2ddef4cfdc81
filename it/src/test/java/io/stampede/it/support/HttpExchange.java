/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/1.1 request over a plain socket, answered by a Content-Length response: what the test expects JMeter's
 * {@code bytes} column to hold (status line + headers + body, exactly as received).
 */
public record HttpExchange(String head, int totalBytes) {

    public static HttpExchange send(String host, int port, String request) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 5000);
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!endsWithBlankLine(head)) {
                int b = in.read();
                if (b < 0) {
                    throw new IllegalStateException("server closed before the end of the headers: " + head);
                }
                head.write(b);
            }
            String headText = head.toString(StandardCharsets.ISO_8859_1);
            int length = contentLength(headText);
            int body = in.readNBytes(length).length;
            if (body != length) {
                throw new IllegalStateException("short body: " + body + " of " + length + " bytes");
            }
            return new HttpExchange(headText, head.size() + body);
        } catch (IOException e) {
            throw new UncheckedIOException("request to " + host + ":" + port + " failed", e);
        }
    }

    private static boolean endsWithBlankLine(ByteArrayOutputStream out) {
        byte[] b = out.toByteArray();
        int n = b.length;
        return n >= 4 && b[n - 4] == '\r' && b[n - 3] == '\n' && b[n - 2] == '\r' && b[n - 1] == '\n';
    }

    private static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                return Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new IllegalStateException("response has no Content-Length: " + head);
    }
}
