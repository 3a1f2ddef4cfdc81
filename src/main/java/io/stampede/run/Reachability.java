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
final class Reachability {

    private Reachability() {}

    /** Returns null when the target accepts a connection, else why not. */
    static String check(String host, int port, int timeoutMs) {
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
}
