/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import io.stampede.sampler.BodyLimits;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.util.HTTPConstants;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The response data of one sample from the body bytes the connection kept, within {@link BodyLimits}: decoded as a
 * stream through JMeter's own {@code readResponse} (which keeps the first {@code store} bytes, or their MD5), never
 * holding more than the limits allow.
 */
final class ResponseBody {
    private ResponseBody() {
    }

    /**
     * @param head the response head: its Content-Encoding, and its Content-Length for readResponse's buffer
     * @param kept the body bytes the connection kept, at most {@link BodyLimits#rawKept}
     * @param cut whether body bytes arrived that {@code kept} lacks (over {@link BodyLimits#rawKept})
     * @param received the body bytes that arrived, for the messages
     * @throws BodyTooLargeException when the body, raw or decoded, is larger than the limits let a sample hold
     */
    static byte[] read(EngineHttpRequest element, HTTPSampleResult res, BodyLimits limits, ResponseHead head,
                       byte[] kept, boolean cut, long received) throws IOException {
        String coding = head.fields().first(HTTPConstants.HEADER_CONTENT_ENCODING);
        boolean md5 = element.useMD5();
        if (cut && !limits.truncates(md5)) {
            throw BodyTooLargeException.received(received, limits.max());
        }
        if (coding == null && ResponseData.storedAsReceived(element, kept.length)) {
            return kept;
        }
        InputStream in = ContentDecoding.open(coding, kept, kept.length);
        if (coding != null && kept.length > 0) {
            if (cut) {
                in = new EndsWhereCut(in);
            }
            if (!limits.truncates(md5)) {
                in = new DecodedCap(in, limits.max(), coding, received);
            }
        }
        String length = coding == null ? head.last(HTTPConstants.HEADER_CONTENT_LENGTH) : null;
        try (InputStream body = in) {
            return element.readResponse(res, body, length == null ? -1 : parseLong(length));
        }
    }

    private static long parseLong(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The decoded stream of a body JMeter's limit cut: the decoder fails where the kept bytes end, which is the end
     * of what is kept, not a fault of the response.
     */
    private static final class EndsWhereCut extends FilterInputStream {
        EndsWhereCut(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (IOException e) {
                return -1;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (IOException e) {
                return -1;
            }
        }
    }

    /** A decoded stream that fails once it has given more than {@code max} bytes, before JMeter stores them. */
    private static final class DecodedCap extends FilterInputStream {
        private final int max;
        private final String coding;
        private final long received;
        private long given;

        DecodedCap(InputStream in, int max, String coding, long received) {
            super(in);
            this.max = max;
            this.coding = coding;
            this.received = received;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws BodyTooLargeException {
            given += n;
            if (given > max) {
                throw BodyTooLargeException.decoded(coding, received, max);
            }
        }
    }
}
