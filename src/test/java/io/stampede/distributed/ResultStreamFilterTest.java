/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.remote.CompactSampleSender;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.management.BadAttributeValueExpException;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The controller's serialization filter, applied to what an engine sends and to what an attacker could. */
class ResultStreamFilterTest {

    private static final ObjectInputFilter FILTER = ObjectInputFilter.Config.createFilter(ResultStreamFilter.PATTERN);

    @BeforeAll
    static void jmeterProperties() throws IOException {
        if (JMeterUtils.getJMeterProperties() == null) {
            Path p = Files.createTempFile("jmeter", ".properties");
            JMeterUtils.loadJMeterProperties(p.toString());
            Files.delete(p);
        }
    }

    /** A batch as the compact sender sends it, and a result of a sampler's own class in JMeter's default form. */
    @Test
    void aBatchOfResultsPasses() throws Exception {
        List<SampleEvent> batch = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            HTTPSampleResult r = new HTTPSampleResult();
            r.setSampleLabel("GET /" + i);
            r.setURL(new URL("http://127.0.0.1/" + i));
            r.setSuccessful(i % 2 == 0);
            batch.add(CompactSampleSender.outgoing(new SampleEvent(r, "Users"), true));
        }
        SampleResult own = new OwnResult();
        own.setSampleLabel("a sampler's own result");
        batch.add(new SampleEvent(own, "Users"));
        Object read = read(write(batch));
        assertEquals(2_001, ((List<?>) read).size());
    }

    /** A sampler's own result class: the sender leaves it in JMeter's default serialization. */
    static final class OwnResult extends SampleResult {
        private static final long serialVersionUID = 1L;
    }

    @Test
    void aForeignClassIsRefused() throws Exception {
        List<Object> batch = new ArrayList<>(List.of(new SampleEvent(new SampleResult(), "Users")));
        batch.add(new BadAttributeValueExpException("gadget"));
        InvalidClassException e = assertThrows(InvalidClassException.class, () -> read(write(batch)));
        assertTrue(e.getMessage().contains("REJECTED"), e.getMessage());
        assertEquals(2, ((List<?>) readUnfiltered(write(batch))).size(), "without the filter it is read");
    }

    @Test
    void deepNestingIsRefused() throws Exception {
        List<Object> outer = new ArrayList<>();
        List<Object> inner = outer;
        for (int i = 0; i < ResultStreamFilter.MAX_DEPTH * 2; i++) {
            List<Object> next = new ArrayList<>();
            inner.add(next);
            inner = next;
        }
        assertThrows(InvalidClassException.class, () -> read(write(outer)));
    }

    /** A batch (a list) claiming 2^31-1 elements: refused before its array is allocated. */
    @Test
    void aHugeBatchIsRefused() throws Exception {
        byte[] b = write(new ArrayList<>(List.of("x")));
        // ArrayList writes its size field, then the size again as a block of 4 bytes (0x77 0x04): both claim 2^31-1
        int at = indexOf(b, new byte[] {0, 0, 0, 1, 0x77, 0x04, 0, 0, 0, 1});
        for (int i : new int[] {at, at + 6}) {
            b[i] = 0x7f;
            b[i + 1] = (byte) 0xff;
            b[i + 2] = (byte) 0xff;
            b[i + 3] = (byte) 0xff;
        }
        InvalidClassException e = assertThrows(InvalidClassException.class, () -> read(b));
        assertTrue(e.getMessage().contains("REJECTED"), e.getMessage());
    }

    private static byte[] write(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    private static Object read(byte[] b) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            in.setObjectInputFilter(FILTER);
            return in.readObject();
        }
    }

    private static Object readUnfiltered(byte[] b) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            return in.readObject();
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        int at = new String(haystack, StandardCharsets.ISO_8859_1).indexOf(new String(needle, StandardCharsets.ISO_8859_1));
        assertTrue(at >= 0, "not in the stream");
        return at;
    }
}
