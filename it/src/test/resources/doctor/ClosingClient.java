/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * The doctor IT's stand-in injector (run as `java ClosingClient.java HOST PORT COUNT`): COUNT sequential GET
 * requests, each on a new connection that the client closes first after the response, as a load tool without
 * keep-alive does; prints "ok=N" and each failure as JMeter's responseCode would name it, one per line.
 */
public class ClosingClient {
    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        int count = Integer.parseInt(args[2]);
        byte[] request = ("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        int ok = 0;
        Map<String, Integer> failures = new TreeMap<>();
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (int i = 0; i < count && System.nanoTime() < deadline; i++) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), 2000);
                s.setSoTimeout(5000);
                OutputStream out = s.getOutputStream();
                out.write(request);
                out.flush();
                if (readResponse(s.getInputStream())) {
                    ok++;
                }
            } catch (Exception e) {
                String key = "Non HTTP response code: " + e.getClass().getName() + "|Non HTTP response message: "
                        + e.getMessage();
                failures.merge(key, 1, Integer::sum);
            }
        }
        System.out.println("ok=" + ok);
        failures.forEach((k, v) -> System.out.println("fail=" + v + "|" + k));
    }

    /** Reads one response with a Content-Length body; true when it is a 200. */
    private static boolean readResponse(InputStream in) throws Exception {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                throw new java.io.EOFException("closed before the response was complete");
            }
            head.append((char) c);
        }
        int length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        in.readNBytes(length);
        return head.toString().startsWith("HTTP/1.1 200");
    }
}
