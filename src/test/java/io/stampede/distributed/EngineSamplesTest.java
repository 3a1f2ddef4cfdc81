/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.results.Sample;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI's side of an engine's spool: every row once, files removed once read whole, nothing left at the end. */
class EngineSamplesTest {

    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,success,grpThreads,"
            + "allThreads,\"stampede_open_connections\",\"stampede_elapsed_us\"\n";

    @TempDir
    Path temp;
    private Path dir;

    private final List<Sample> read = new ArrayList<>();
    private final StringWriter err = new StringWriter();

    private void append(String file, String text) throws Exception {
        Files.writeString(dir.resolve(file), text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static String row(String label, boolean ok) {
        return "1700000000000,3,\"" + label + "\"," + (ok ? "200,OK,true" : "404,Not Found,false") + ",2,2,7,3125\n";
    }

    @Test
    void rowsAreReadOnceAsTheyGrowAndFilesGoOnceRead() throws Exception {
        dir = Files.createDirectory(temp.resolve("spool"));
        EngineSamples samples = new EngineSamples(dir, read::add, new PrintWriter(err));
        append("100-a-000001.jtl", HEADER + row("login, first", true) + "1700000000001,4,item,2");
        samples.poll();
        assertEquals(1, read.size(), "the complete row only");
        assertEquals("login, first", read.get(0).label());
        assertEquals(7, read.get(0).openConnections());
        assertEquals(3125, read.get(0).elapsedUs());

        append("100-a-000001.jtl", "00,OK,true,2,2,7,4000\n");
        append("100-a-000002.jtl", HEADER + row("missing", false));
        append("200-b-000001.jtl", HEADER + row("other stream", true));
        samples.poll();
        assertEquals(List.of("login, first", "item", "missing", "other stream"), read.stream().map(Sample::label).toList());
        assertFalse(Files.exists(dir.resolve("100-a-000001.jtl")), "read whole once the next file exists");
        assertTrue(Files.exists(dir.resolve("100-a-000002.jtl")), "still being written");

        append("100-a-000002.jtl", row("missing", false));
        append("100-a.end", "");
        append("300-c.end", ""); // a sender that spooled nothing
        samples.poll();
        assertEquals(5, read.size());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(dir.resolve("200-b-000001.jtl")), left.toList(), "ended streams are gone");
        }

        samples.poll();
        assertEquals(5, read.size(), "nothing twice");
        samples.close();
        assertFalse(Files.exists(dir), "the folder removed at the end");
        assertEquals("", err.toString());
    }

    @Test
    void aFileThatIsNotAJtlIsSaidOnce() throws Exception {
        dir = Files.createDirectory(temp.resolve("spool"));
        EngineSamples samples = new EngineSamples(dir, read::add, new PrintWriter(err));
        append("100-a-000001.jtl", "not,a,header\n1,2,3\n");
        samples.poll();
        samples.poll();
        assertEquals(1, err.toString().lines().count(), err.toString());
        assertTrue(err.toString().startsWith("stampede server: the engine's samples for --metrics cannot be read"),
                err.toString());
        samples.close();
    }
}
