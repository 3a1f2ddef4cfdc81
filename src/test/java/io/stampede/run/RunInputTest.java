/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunInputTest {

    @Test
    void propertiesNameTheFieldAndTheFix() {
        RunInputException e = assertThrows(RunInputException.class, () -> RunProperties.of(Map.of("threads", "lots")));
        assertTrue(e.getMessage().contains("-J threads=lots"), e.getMessage());
        assertTrue(e.getMessage().contains("whole number"), e.getMessage());
        assertThrows(RunInputException.class, () -> RunProperties.of(Map.of("duration", "0")));
        assertThrows(RunInputException.class, () -> RunProperties.of(Map.of("rampup", "-1")));
        assertThrows(RunInputException.class, () -> RunProperties.of(Map.of("port", "70000")));
        assertThrows(RunInputException.class, () -> RunProperties.of(Map.of("host", "")));
        RunProperties ok = RunProperties.of(Map.of("threads", "5", "rampup", "0", "custom", "x"));
        assertEquals("5", ok.get("threads"));
        assertEquals("x", ok.get("custom"));
        assertEquals("9", ok.with("port", "9").get("port"));
    }

    @Test
    void planMustExistAndBeAJMeterPlan(@TempDir Path dir) throws Exception {
        assertTrue(assertThrows(RunInputException.class, () -> PlanFile.read(dir.resolve("missing.jmx")))
                .getMessage().contains("does not exist"));
        Path notXml = Files.writeString(dir.resolve("a.jmx"), "hello");
        assertTrue(assertThrows(RunInputException.class, () -> PlanFile.read(notXml))
                .getMessage().contains("not valid XML"));
        Path other = Files.writeString(dir.resolve("b.jmx"), "<project/>");
        assertTrue(assertThrows(RunInputException.class, () -> PlanFile.read(other))
                .getMessage().contains("<jmeterTestPlan>"));
        Path plan = Files.writeString(dir.resolve("c.jmx"),
                "<jmeterTestPlan><hashTree><x>${__P(host,127.0.0.1)}</x></hashTree></jmeterTestPlan>");
        PlanFile read = PlanFile.read(plan);
        assertEquals("c", read.name());
        assertTrue(read.readsProperty("host"));
        assertFalse(read.readsProperty("port"));
    }

    @Test
    void everyShippedPlanIsDocumentedAndReadsTheStandardProperties() throws Exception {
        Path root = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
        Set<String> documented = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| `plans/([^`]+\\.jmx)` \\|")
                .matcher(Files.readString(root.resolve("docs/plans.md")));
        while (row.find()) {
            documented.add(row.group(1));
        }
        try (var files = Files.list(root.resolve("plans"))) {
            var list = files.filter(p -> p.toString().endsWith(".jmx")).toList();
            Set<String> shipped = list.stream().map(p -> p.getFileName().toString())
                    .collect(Collectors.toCollection(TreeSet::new));
            assertEquals(documented, shipped,
                    "every plan in plans/ has a row in the Plans table of docs/plans.md, and every row a plan");
            for (Path p : list) {
                PlanFile plan = PlanFile.read(p);
                // The virtual-user plan counts users and a hold time (its thread group's own settings), not threads
                // and a duration; every other plan reads the five properties the table of docs/plans.md lists.
                // The XMPP plan counts users and their login rate, message interval and turns; the WebSocket plan
                // gives each of its three thread groups its own count and reads the server's URL.
                boolean webSocket = plan.text().contains("io.stampede.websocket.");
                boolean virtualUsers = plan.text().contains("VirtualUserThreadGroup");
                boolean xmpp = plan.text().contains("io.stampede.xmpp.");
                String[] props = webSocket
                        ? new String[] {"url", "duration", "stepping_users", "concurrency_users", "virtual_users"}
                        : virtualUsers
                        ? new String[] {"host", "port", "users", "hold", "rampup"}
                        : xmpp ? new String[] {"host", "port", "users", "login_rate", "message_interval_s", "turns"}
                        : new String[] {"host", "port", "threads", "duration", "rampup"};
                for (String prop : props) {
                    assertTrue(plan.readsProperty(prop), p + " must read -J" + prop);
                }
                assertTrue(plan.text().contains("TestPlan.comments"), p + " needs a description");
            }
        }
    }
}
