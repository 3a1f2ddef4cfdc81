/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.engine.KeptBody;
import io.stampede.names.PluginNames;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;

import java.lang.reflect.Field;

/**
 * How much of one response body a sample holds, for every sampler on the engine. Two concerns, two settings, as in
 * JMeter:
 * <ul>
 *   <li><b>bytes stored in the result</b>: JMeter's {@code httpsampler.max_bytes_to_store_per_request} ({@code store}):
 *   above 0, the first that many bytes are kept and the rest only counted. JMeter's HTTP Request keeps them as stock
 *   does; the Stampede samplers keep their own {@value PluginNames#RESPONSE_BYTES_KEPT} (saved in the plan), never
 *   more than JMeter's limit when it is set ({@link #keptBySampler}).</li>
 *   <li><b>a safety cap</b>, {@value PluginNames#HTTPREQUEST_MAX_BODY_BYTES} ({@code max}): where a sample asked for
 *   the whole body (JMeter's limit off, or only its MD5 kept), the most bytes it may hold, raw or decoded. A longer
 *   body, or a decompression bomb, fails its sample rather than the run with OutOfMemoryError. The Stampede samplers
 *   never hold a whole body unasked, so they do not need it.</li>
 * </ul>
 *
 * @param store JMeter's limit, 0 or below for none
 * @param max the most bytes one response holds when JMeter's limit is off (or when the body is only hashed, MD5)
 */
public record BodyLimits(int store, int max) {
    /** 64 MiB: the largest body of {@code stampede target}, well above pages and API answers. */
    public static final int DEFAULT_MAX = 64 * 1024 * 1024;
    private static final int LARGEST = KeptBody.MAX_ARRAY;

    public BodyLimits {
        if (max < 1 || max > LARGEST) {
            throw new IllegalArgumentException("JMeter property " + PluginNames.HTTPREQUEST_MAX_BODY_BYTES + " " + max
                    + " is out of range: use 1 to " + LARGEST + " bytes");
        }
    }

    /**
     * The limits of JMeter's HTTP Request: JMeter's store limit as its own sampler read it, and the cap from
     * {@code maxText}, the value of {@value PluginNames#HTTPREQUEST_MAX_BODY_BYTES} (empty for the default).
     *
     * @throws IllegalArgumentException naming the property and the accepted values
     */
    public static BodyLimits ofHttpRequest(String maxText) {
        return of(Math.max(0, JMeterStore.VALUE), maxText);
    }

    /**
     * As {@link #ofHttpRequest} with the store limit given.
     *
     * @throws IllegalArgumentException naming the property and the accepted values
     */
    public static BodyLimits of(int store, String maxText) {
        String t = maxText.trim();
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

    /**
     * The bytes a Stampede sampler keeps of each body: its {@value PluginNames#RESPONSE_BYTES_KEPT}, within JMeter's
     * store limit when that is set.
     */
    public static int keptBySampler(int responseBytesKept) {
        return keptBySampler(responseBytesKept, JMeterStore.VALUE);
    }

    /** As above, with JMeter's limit given (0 or below: off). */
    static int keptBySampler(int responseBytesKept, int jmeterStore) {
        return jmeterStore > 0 ? Math.min(responseBytesKept, jmeterStore) : responseBytesKept;
    }

    /**
     * JMeter's {@code httpsampler.max_bytes_to_store_per_request} as its HTTP samplers read it (once, when they
     * load): 0 when off, -1 when it cannot be read (then the HTTP Request leaves every body to JMeter's readResponse).
     */
    public static int jmeterStore() {
        return JMeterStore.VALUE;
    }

    /** Whether JMeter's own limit truncates this body (it does not when only the MD5 is kept). */
    public boolean truncates(boolean md5) {
        return store > 0 && !md5;
    }

    /** The most raw (still encoded) bytes the connection keeps for one response. */
    public int rawKept(boolean md5) {
        return truncates(md5) ? store : max;
    }

    /** Read when first needed: HTTPSamplerBase loads JMeter's HTTP classes, which a unit test may not have set up. */
    private static final class JMeterStore {
        static final int VALUE = read();

        private JMeterStore() {
        }

        private static int read() {
            try {
                Field f = HTTPSamplerBase.class.getDeclaredField("MAX_BYTES_TO_STORE_PER_REQUEST");
                f.setAccessible(true);
                return Math.max(0, f.getInt(null));
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return -1;
            }
        }
    }
}
