/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.remote;

import java.io.EOFException;
import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.samplers.SampleResult;

/**
 * A sample result on its way from an engine to the controller: the fields that JTL files, listeners and the
 * dashboard read, written one by one. JMeter's default serialization of a {@link SampleResult} also writes its save
 * configuration and the ConcurrentHashMap behind its {@code files} set, with 16 compatibility segments, for every
 * sample: that was 56 % of an engine's CPU at 5,000 samples/s with 100,000 connections (issue 20).
 *
 * <p>On the controller the form resolves to a plain {@link SampleResult} or {@link HTTPSampleResult}, so that
 * listeners see JMeter's own classes. Only results of exactly those two classes travel this way
 * ({@link #canCarry}); a sampler's own subclass may hold fields this form does not know.
 */
public final class ResultForm implements Externalizable {
    private static final long serialVersionUID = 1L;

    private static final byte PLAIN = 0;
    private static final byte HTTP = 1;
    /** Deeper trees are rare (embedded resources of a redirect); JMeter's stripping goes 3 levels too. */
    private static final int MAX_DEPTH = 16;

    private static final byte NULL_STRING = 0;
    private static final byte SHORT_STRING = 1;
    private static final byte LONG_STRING = 2;
    /** writeUTF takes at most 65,535 bytes, and a char takes at most 3 of them. */
    private static final int UTF_SAFE_CHARS = 65_535 / 3;

    /*
     * Limits of what a form may claim, checked before anything is allocated: the controller reads whatever
     * reaches its result listener, and one claimed length or an endless chain of sub-results must not end its
     * run with OutOfMemoryError. Far above what an engine sends: response data is stripped by default.
     */
    /** The most bytes of one field (response data, a long string). */
    static final int MAX_FIELD_BYTES = 64 * 1024 * 1024;
    /** The most assertion results, and the most sub-results, of one result. */
    static final int MAX_ITEMS = 100_000;
    /** Bytes of a claimed field are read (and allocated) this many at a time, so a lie costs no more. */
    private static final int CHUNK = 64 * 1024;

    /**
     * SampleResult's own samplerData field: HTTPSampleResult's getter prefixes it with the method, URL, body and
     * cookies, which this form carries as fields of their own.
     */
    private static final VarHandle SAMPLER_DATA = samplerDataField();

    private transient SampleResult result;
    private transient boolean stripData;

    /** For deserialization only. */
    public ResultForm() {
    }

    ResultForm(SampleResult source, boolean stripData) {
        this.result = source;
        this.stripData = stripData;
    }

    /** Whether every result of this tree is one this form can rebuild without losing a field. */
    static boolean canCarry(SampleResult r) {
        return canCarry(r, 0);
    }

    private static boolean canCarry(SampleResult r, int depth) {
        if (depth > MAX_DEPTH || (r.getClass() != SampleResult.class && r.getClass() != HTTPSampleResult.class)) {
            return false;
        }
        for (SampleResult sub : r.getSubResults()) {
            if (!canCarry(sub, depth + 1)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
        out.writeBoolean(stripData);
        write(result, out);
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException {
        stripData = in.readBoolean();
        result = read(in, 0);
    }

    private Object readResolve() {
        return result;
    }

    private void write(SampleResult r, ObjectOutput out) throws IOException {
        boolean http = r instanceof HTTPSampleResult;
        out.writeByte(http ? HTTP : PLAIN);
        writeString(out, r.getSampleLabel());
        writeString(out, r.getThreadName());
        out.writeLong(r.getTimeStamp());
        out.writeLong(r.getTime());
        out.writeLong(r.getIdleTime());
        out.writeLong(r.getLatency());
        out.writeLong(r.getConnectTime());
        out.writeBoolean(r.isSuccessful());
        writeString(out, r.getResponseCode());
        writeString(out, r.getResponseMessage());
        writeString(out, r.getDataType());
        writeString(out, r.getDataEncodingNoDefault());
        writeString(out, r.getContentType());
        out.writeInt(r.getHeadersSize());
        out.writeLong(r.getBodySizeAsLong());
        out.writeLong(r.getBytesAsLong());
        out.writeLong(r.getSentBytes());
        out.writeInt(r.getGroupThreads());
        out.writeInt(r.getAllThreads());
        out.writeInt(r.getSampleCount());
        writeString(out, r.getURL() == null ? null : r.getUrlAsString());
        writeString(out, r.getRequestHeaders());
        writeString(out, r.getResponseHeaders());
        writeString(out, http ? (String) SAMPLER_DATA.get(r) : r.getSamplerData());
        writeString(out, r.getResultFileName());
        byte[] data = stripData ? new byte[0] : r.getResponseData();
        out.writeInt(data.length);
        out.write(data);
        AssertionResult[] assertions = r.getAssertionResults();
        out.writeInt(assertions.length);
        for (AssertionResult a : assertions) {
            writeString(out, a.getName());
            out.writeBoolean(a.isFailure());
            out.writeBoolean(a.isError());
            writeString(out, a.getFailureMessage());
        }
        if (http) {
            HTTPSampleResult h = (HTTPSampleResult) r;
            writeString(out, h.getHTTPMethod());
            writeString(out, h.getRedirectLocation());
            writeString(out, h.getQueryString());
            writeString(out, h.getCookies());
        }
        SampleResult[] subs = r.getSubResults();
        out.writeInt(subs.length);
        for (SampleResult sub : subs) {
            write(sub, out);
        }
    }

    private static SampleResult read(ObjectInput in, int depth) throws IOException {
        if (depth > MAX_DEPTH) {
            throw new IOException("refused a Stampede result form: sub-results nested deeper than " + MAX_DEPTH);
        }
        byte kind = in.readByte();
        if (kind != PLAIN && kind != HTTP) {
            throw new IOException("not a Stampede result form: kind " + kind);
        }
        SampleResult r = kind == HTTP ? new HTTPSampleResult() : new SampleResult();
        r.setSampleLabel(readString(in));
        r.setThreadName(readString(in));
        long stamp = in.readLong();
        long elapsed = in.readLong();
        // As JMeter does when it reads a JTL: start and end follow from the stamp and this JVM's
        // sampleresult.timestamp.start, so timeStamp and elapsed are the engine's to the millisecond.
        r.setStampAndTime(stamp, elapsed);
        r.setIdleTime(in.readLong());
        r.setLatency(in.readLong());
        r.setConnectTime(in.readLong());
        r.setSuccessful(in.readBoolean());
        r.setResponseCode(readString(in));
        r.setResponseMessage(readString(in));
        r.setDataType(readString(in));
        r.setDataEncoding(readString(in));
        r.setContentType(readString(in));
        r.setHeadersSize(in.readInt());
        r.setBodySize(in.readLong());
        r.setBytes(in.readLong());
        r.setSentBytes(in.readLong());
        r.setGroupThreads(in.readInt());
        r.setAllThreads(in.readInt());
        r.setSampleCount(in.readInt());
        r.setURL(url(readString(in)));
        r.setRequestHeaders(readString(in));
        r.setResponseHeaders(readString(in));
        r.setSamplerData(readString(in));
        r.setResultFileName(readString(in));
        r.setResponseData(readBytes(in, "response data"));
        int assertions = count(in, "assertion results");
        for (int i = 0; i < assertions; i++) {
            AssertionResult a = new AssertionResult(readString(in));
            a.setFailure(in.readBoolean());
            a.setError(in.readBoolean());
            a.setFailureMessage(readString(in));
            r.addAssertionResult(a);
        }
        if (kind == HTTP) {
            HTTPSampleResult h = (HTTPSampleResult) r;
            h.setHTTPMethod(readString(in));
            h.setRedirectLocation(readString(in));
            h.setQueryString(readString(in));
            h.setCookies(readString(in));
        }
        int subs = count(in, "sub-results");
        for (int i = 0; i < subs; i++) {
            r.storeSubResult(read(in, depth + 1), false);
        }
        return r;
    }

    private static int count(ObjectInput in, String what) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_ITEMS) {
            throw new IOException("refused a Stampede result form: " + n + " " + what + " (0 to " + MAX_ITEMS + ")");
        }
        return n;
    }

    /** A length-prefixed field, allocated as its bytes arrive. */
    private static byte[] readBytes(ObjectInput in, String what) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_FIELD_BYTES) {
            throw new IOException("refused a Stampede result form: " + what + " of " + length + " bytes (0 to "
                    + MAX_FIELD_BYTES + ")");
        }
        byte[] bytes = new byte[Math.min(length, CHUNK)];
        int read = 0;
        while (read < length) {
            if (read == bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.min(length, bytes.length * 2));
            }
            int n = in.read(bytes, read, bytes.length - read);
            if (n < 0) {
                throw new EOFException("a Stampede result form ended inside its " + what);
            }
            read += n;
        }
        return bytes;
    }

    private static VarHandle samplerDataField() {
        try {
            return MethodHandles.privateLookupIn(SampleResult.class, MethodHandles.lookup())
                    .findVarHandle(SampleResult.class, "samplerData", String.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A URL the engine held always parses; one whose protocol this JVM has no handler for is left out. */
    private static URL url(String spec) {
        if (spec == null) {
            return null;
        }
        try {
            return new URL(spec);
        } catch (MalformedURLException e) {
            return null;
        }
    }

    private static void writeString(ObjectOutput out, String s) throws IOException {
        if (s == null) {
            out.writeByte(NULL_STRING);
        } else if (s.length() <= UTF_SAFE_CHARS) {
            out.writeByte(SHORT_STRING);
            out.writeUTF(s);
        } else {
            out.writeByte(LONG_STRING);
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            out.writeInt(utf8.length);
            out.write(utf8);
        }
    }

    private static String readString(ObjectInput in) throws IOException {
        byte kind = in.readByte();
        switch (kind) {
            case NULL_STRING:
                return null;
            case SHORT_STRING:
                return in.readUTF();
            case LONG_STRING:
                return new String(readBytes(in, "string"), StandardCharsets.UTF_8);
            default:
                throw new IOException("not a Stampede result form: string kind " + kind);
        }
    }
}
