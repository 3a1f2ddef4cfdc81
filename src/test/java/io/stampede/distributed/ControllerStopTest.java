/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControllerStopTest {

    @Test
    void findsTheControllersStopPortInItsConsole(@TempDir Path dir) throws Exception {
        Path console = Files.writeString(dir.resolve("jmeter.out"), "Remote engines have been started:[a:1]\n"
                + "Waiting for possible Shutdown/StopTestNow/HeapDump/ThreadDump message on port 4446\n");
        assertEquals(4446, ControllerStop.listenPort(console));
        assertEquals(-1, ControllerStop.listenPort(Files.writeString(dir.resolve("early.out"), "starting\n")));
        assertEquals(-1, ControllerStop.listenPort(dir.resolve("missing.out")));
    }
}
