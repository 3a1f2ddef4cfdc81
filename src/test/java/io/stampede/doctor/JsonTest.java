/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void writesNestedValuesInOrderAndEscapesStrings() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "a \"q\" \\ b\nc\t\u0001");
        m.put("n", 2);
        m.put("d", 8.5);
        m.put("b", true);
        m.put("z", null);
        m.put("l", List.of("x", List.of()));
        m.put("e", Map.of());
        assertEquals("{\n  \"s\": \"a \\\"q\\\" \\\\ b\\nc\\t\\u0001\",\n  \"n\": 2,\n  \"d\": 8.5,\n  \"b\": true,\n"
                + "  \"z\": null,\n  \"l\": [\n    \"x\",\n    []\n  ],\n  \"e\": {}\n}", Json.write(m));
    }

    @Test
    void refusesValuesItCannotWrite() {
        assertThrows(IllegalArgumentException.class, () -> Json.write(new Object()));
    }
}
