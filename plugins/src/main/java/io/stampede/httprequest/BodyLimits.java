/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.names.PluginNames;

/**
 * How much of one response body the HTTP Request on the engine holds.
 *
 * <p>{@code store} is JMeter's {@code httpsampler.max_bytes_to_store_per_request}: above 0, the first that many
 * (decoded) bytes are kept and the rest only counted, as stock keeps them; 0 or below keeps everything, in stock
 * without any bound. Here "everything" stops at {@code max} ({@value PluginNames#HTTPREQUEST_MAX_BODY_BYTES}), raw or decoded: a longer body
 * fails its sample with {@link BodyTooLargeException} rather than the run with OutOfMemoryError.
 *
 * @param store JMeter's limit, 0 or below for none
 * @param max the most bytes one response holds when JMeter's limit is off (or when the body is only hashed, MD5)
 */
record BodyLimits(int store, int max) {
    /** 64 MiB: the largest body of {@code stampede target}, well above pages and API answers. */
    static final int DEFAULT_MAX = 64 * 1024 * 1024;
    private static final int LARGEST = Integer.MAX_VALUE - 8;

    BodyLimits {
        if (max < 1 || max > LARGEST) {
            throw new IllegalArgumentException("JMeter property " + PluginNames.HTTPREQUEST_MAX_BODY_BYTES + " " + max
                    + " is out of range: use 1 to " + LARGEST + " bytes");
        }
    }

    /**
     * Reads {@link PluginNames#HTTPREQUEST_MAX_BODY_BYTES} ({@code text}, empty for the default).
     *
     * @throws IllegalArgumentException naming the property and the accepted values
     */
    static BodyLimits of(int store, String text) {
        String t = text.trim();
        if (t.isEmpty()) {
            return new BodyLimits(store, DEFAULT_MAX);
        }
        try {
            return new BodyLimits(store, Integer.parseInt(t));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("JMeter property " + PluginNames.HTTPREQUEST_MAX_BODY_BYTES + " '" + t
                    + "' is not a number of bytes: use 1 to " + LARGEST + " (default " + DEFAULT_MAX + ")", e);
        }
    }

    /** Whether JMeter's own limit truncates this body (it does not when only the MD5 is kept). */
    boolean truncates(boolean md5) {
        return store > 0 && !md5;
    }

    /** The most raw (still encoded) bytes the connection keeps for one response. */
    int rawKept(boolean md5) {
        return truncates(md5) ? store : max;
    }
}
