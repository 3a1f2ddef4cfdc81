/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stops a distributed run from the controller's side. Killing the controller alone would leave the engines
 * running the plan against the target, so it is first sent JMeter's "StopTestNow" datagram, which makes it
 * stop every engine (the same as JMeter's bin/stoptest.sh).
 */
public final class ControllerStop {

    // The non-GUI controller prints this once it listens for Shutdown/StopTestNow datagrams.
    private static final Pattern PORT = Pattern.compile("message on port (\\d+)");

    private ControllerStop() {}

    /** Asks the controller whose console is {@code console} to stop its engines; waits up to {@code seconds}. */
    public static boolean stopEngines(Process controller, Path console, int seconds) {
        int port = listenPort(console);
        if (port < 0 || !controller.isAlive()) {
            return false;
        }
        byte[] command = "StopTestNow".getBytes(StandardCharsets.US_ASCII);
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.send(new DatagramPacket(command, command.length, InetAddress.getLoopbackAddress(), port));
            return controller.waitFor(seconds, TimeUnit.SECONDS);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static int listenPort(Path console) {
        try {
            Matcher m = PORT.matcher(Files.readString(console, StandardCharsets.UTF_8));
            return m.find() ? Integer.parseInt(m.group(1)) : -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
