/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Loads the packaged plugin jar the way JMeter's lib/ext does (in its own loader, with only slf4j beside it) and
 * checks that the relocated Netty finds its renamed native library, so users get epoll and not a silent NIO fallback.
 */
class ShadedJarIT {
    @Test
    void relocatedNettyLoadsItsNativeEpoll() throws Exception {
        Path jar = Path.of(System.getProperty("stampede.plugins.jar"));
        assertTrue(Files.isRegularFile(jar), "packaged jar missing: " + jar);
        URL slf4j = LoggerFactory.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL(), slf4j},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> epoll = Class.forName("io.stampede.shaded.io.netty.channel.epoll.Epoll", true, loader);
            Object cause = epoll.getMethod("unavailabilityCause").invoke(null);
            assertEquals(Boolean.TRUE, epoll.getMethod("isAvailable").invoke(null), "epoll unavailable: " + cause);
            Class<?> engine = Class.forName("io.stampede.engine.Engine", true, loader);
            assertEquals(loader, engine.getClassLoader());
            Object running = engine.getMethod("get").invoke(null);
            try {
                assertEquals("epoll", engine.getMethod("transport").invoke(running));
            } finally {
                engine.getMethod("shutdown").invoke(null);
            }
        }
    }

    /** h2's TLS runs on the shaded BoringSSL: its library must load under the relocated name too, with ALPN. */
    @Test
    void relocatedNettyLoadsBoringSsl() throws Exception {
        Path jar = Path.of(System.getProperty("stampede.plugins.jar"));
        URL slf4j = LoggerFactory.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL(), slf4j},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> openSsl = Class.forName("io.stampede.shaded.io.netty.handler.ssl.OpenSsl", true, loader);
            Object cause = openSsl.getMethod("unavailabilityCause").invoke(null);
            assertEquals(Boolean.TRUE, openSsl.getMethod("isAvailable").invoke(null), "BoringSSL unavailable: " + cause);
            assertEquals(Boolean.TRUE, openSsl.getMethod("isAlpnSupported").invoke(null));
        }
    }
}
