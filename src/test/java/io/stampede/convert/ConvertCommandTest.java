/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cli.StampedeCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ConvertCommandTest {

    static final Path SHOP = Path.of(System.getProperty("user.dir")).resolve("../plans/recorded-shop.jmx").normalize();

    @Test
    void convertsBothWaysAndTheRoundTripIsTheOriginal(@TempDir Path dir) throws Exception {
        Path stampede = dir.resolve("shop-stampede.jmx");
        Result there = convert(SHOP.toString(), "-o", stampede.toString());
        assertEquals(0, there.exit, there.err);
        assertEquals("stampede convert: 3 HTTP Requests switched to Netty engine (EngineHttpRequest); wrote "
                + stampede + "\n", there.out);
        assertTrue(Files.readString(stampede).contains("<io.stampede.httprequest.EngineHttpRequest "));

        Path stock = dir.resolve("shop-stock.jmx");
        Result back = convert(stampede.toString(), "-o", stock.toString(), "--to", "stock");
        assertEquals(0, back.exit, back.err);
        assertEquals(Files.readString(SHOP), Files.readString(stock));

        Result nothing = convert(stock.toString(), "-o", dir.resolve("again.jmx").toString(), "--to", "stock");
        assertEquals(0, nothing.exit, nothing.err);
        assertTrue(nothing.out.contains("shop-stock.jmx has no stampede HTTP Request, nothing to switch"), nothing.out);
    }

    @Test
    void anExistingOutputIsRefusedWithoutForceAndNothingIsWritten(@TempDir Path dir) throws Exception {
        Path existing = Files.writeString(dir.resolve("mine.jmx"), "my own plan");
        Result refused = convert(SHOP.toString(), "-o", existing.toString());
        assertEquals(2, refused.exit);
        assertEquals("stampede convert: -o " + existing + " exists: give --force to replace it, or another path;"
                + " nothing was written\n", refused.err);
        assertEquals("my own plan", Files.readString(existing));
        assertEquals("", refused.out);
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary file left behind");
        }

        Result forced = convert(SHOP.toString(), "-o", existing.toString(), "--force");
        assertEquals(0, forced.exit, forced.err);
        assertTrue(Files.readString(existing).contains("EngineHttpRequest"));
    }

    @Test
    void badInputExitsTwoNamingTheFieldAndWritesNothing(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out.jmx");
        Result engine = convert(SHOP.toString(), "-o", out.toString(), "--to", "fast");
        assertEquals(2, engine.exit);
        assertTrue(engine.err.contains("--to fast: unknown engine; choose one of stampede"), engine.err);

        Result missing = convert(dir.resolve("nope.jmx").toString(), "-o", out.toString());
        assertEquals(2, missing.exit);
        assertTrue(missing.err.contains("nope.jmx does not exist"), missing.err);

        Result noFolder = convert(SHOP.toString(), "-o", dir.resolve("no/such/out.jmx").toString());
        assertEquals(2, noFolder.exit);
        assertTrue(noFolder.err.contains("does not exist; create it or give another path"), noFolder.err);

        Result noOutput = convert(SHOP.toString());
        assertEquals(2, noOutput.exit);
        assertTrue(noOutput.err.contains("Missing required option: '--output=OUT.jmx'"), noOutput.err);
        assertFalse(Files.exists(out));
    }

    record Result(int exit, String out, String err) {}

    static Result convert(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = StampedeCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        String[] all = Stream.concat(Stream.of("convert"), Stream.of(args)).toArray(String[]::new);
        int exit = cli.execute(all);
        return new Result(exit, out.toString(), err.toString());
    }
}
