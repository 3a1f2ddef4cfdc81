/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;

/** One TCP connect before the run, so an unreachable target is named at once rather than as 100% errors. */
public final class Reachability {

    private Reachability() {}

    /** Returns null when the target accepts a connection, else why not. */
    public static String check(String host, int port, int timeoutMs) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), timeoutMs);
            return null;
        } catch (UnknownHostException e) {
            return "unknown host " + host;
        } catch (IOException e) {
            return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /**
     * Waits until host:port accepts a connection, polling for at most timeoutMs; returns null then, else the
     * last reason it refused.
     */
    public static String await(String host, int port, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        String why = check(host, port, 1000);
        while (why != null && System.nanoTime() < deadline) {
            Thread.sleep(50);
            why = check(host, port, 1000);
        }
        return why;
    }
}
