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
        try (URLClassLoader loader = pluginJarLoader()) {
            nativeLoads(loader, "io.stampede.shaded.io.netty.channel.epoll.Epoll");
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
        try (URLClassLoader loader = pluginJarLoader()) {
            Class<?> openSsl = nativeLoads(loader, "io.stampede.shaded.io.netty.handler.ssl.OpenSsl");
            assertEquals(Boolean.TRUE, openSsl.getMethod("isAlpnSupported").invoke(null));
        }
    }

    /** The packaged jar in a loader of its own, with only slf4j beside it, as JMeter's lib/ext has it. */
    private static URLClassLoader pluginJarLoader() throws Exception {
        Path jar = Path.of(System.getProperty("stampede.plugins.jar"));
        assertTrue(Files.isRegularFile(jar), "packaged jar missing: " + jar);
        URL slf4j = LoggerFactory.class.getProtectionDomain().getCodeSource().getLocation();
        return new URLClassLoader(new URL[] {jar.toUri().toURL(), slf4j}, ClassLoader.getPlatformClassLoader());
    }

    /** Netty's check of a native library ({@code Epoll}, {@code OpenSsl}): available, else its cause in the message. */
    private static Class<?> nativeLoads(ClassLoader loader, String checkClass) throws Exception {
        Class<?> c = Class.forName(checkClass, true, loader);
        Object cause = c.getMethod("unavailabilityCause").invoke(null);
        assertEquals(Boolean.TRUE, c.getMethod("isAvailable").invoke(null), checkClass + " unavailable: " + cause);
        return c;
    }
}
