/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cli.ExitCodes;
import io.stampede.cli.StampedeCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** `stampede server --metrics`: bad input is refused with the fix before any engine starts. */
class ServerMetricsOptionTest {

    private static String server(String... args) throws IOException {
        int free;
        try (ServerSocket s = new ServerSocket(0)) {
            free = s.getLocalPort();
        }
        StringWriter err = new StringWriter();
        CommandLine cli = StampedeCommand.commandLine();
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setErr(new PrintWriter(err));
        String[] all = new String[args.length + 3];
        all[0] = "server";
        all[1] = "--port";
        all[2] = Integer.toString(free);
        System.arraycopy(args, 0, all, 3, args.length);
        assertEquals(ExitCodes.BAD_INPUT, cli.execute(all), err.toString());
        return err.toString();
    }

    @Test
    void aPortOutOfRangeOrABindWithoutMetricsIsRefused() throws IOException {
        String err = server("--metrics", "70000");
        assertTrue(err.startsWith("stampede server: --metrics 70000 is not a TCP port: give 1 to 65535"), err);
        err = server("--metrics-bind", "0.0.0.0");
        assertTrue(err.startsWith("stampede server: --metrics-bind works with --metrics only: add --metrics PORT"),
                err);
    }
}
