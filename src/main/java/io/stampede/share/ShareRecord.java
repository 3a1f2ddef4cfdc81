/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.share;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What a share's results folder says about its run ({@code share.properties}), so that {@code stampede merge} can
 * tell folders of one test from folders of different plans or settings: the plan's name and a digest of its bytes,
 * the share, and a digest of the -J properties that shape the load (not host and port: each injector may reach
 * the target, or its own built-in one, at its own address).
 */
public record ShareRecord(String plan, String planDigest, Share share, String propertiesDigest) {

    public static final String FILE = "share.properties";

    public static ShareRecord of(Path plan, Share share, Map<String, String> properties) throws IOException {
        Map<String, String> shaping = new TreeMap<>(properties);
        shaping.keySet().removeIf(k -> k.equals("host") || k.equals("port") || k.startsWith("__jm."));
        return new ShareRecord(plan.getFileName().toString(), sha256(Files.readAllBytes(plan)), share,
                sha256(shaping.toString().getBytes(StandardCharsets.UTF_8)));
    }

    public void write(Path dir) throws IOException {
        Properties p = new Properties();
        p.setProperty("plan", plan);
        p.setProperty("plan.sha256", planDigest);
        p.setProperty("share", share.toString());
        p.setProperty("properties.sha256", propertiesDigest);
        try (Writer w = Files.newBufferedWriter(dir.resolve(FILE))) {
            p.store(w, "stampede run --share: what stampede merge checks");
        }
    }

    /** The record in a results folder. */
    public static ShareRecord read(Path dir) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(dir.resolve(FILE))) {
            p.load(r);
        }
        for (String key : new String[] {"plan", "plan.sha256", "share", "properties.sha256"}) {
            if (p.getProperty(key) == null) {
                throw new IOException(dir.resolve(FILE) + " has no " + key);
            }
        }
        return new ShareRecord(p.getProperty("plan"), p.getProperty("plan.sha256"), Share.parse(p.getProperty("share")),
                p.getProperty("properties.sha256"));
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
