/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.names;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.httprequest.EngineHttpRequest;
import io.stampede.httprequest.gui.EngineHttpRequestGui;
import io.stampede.remote.CompactSampleSender;
import io.stampede.sampler.HttpRawSampler;
import io.stampede.sampler.HttpSampler;
import io.stampede.threads.VirtualUserThreadGroup;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class PluginNamesTest {

    /** A class moved to another package would leave every saved plan and properties file naming the old one. */
    @Test
    void classNamesAreTheClassesUsersPlansName() {
        assertEquals(HttpSampler.class.getName(), PluginNames.HTTP_SAMPLER_CLASS);
        assertEquals(HttpRawSampler.class.getName(), PluginNames.HTTP_RAW_SAMPLER_CLASS);
        assertEquals(EngineHttpRequest.class.getName(), PluginNames.HTTP_REQUEST_CLASS);
        assertEquals(EngineHttpRequestGui.class.getName(), PluginNames.HTTP_REQUEST_GUI_CLASS);
        assertEquals(VirtualUserThreadGroup.class.getName(), PluginNames.VIRTUAL_USER_THREAD_GROUP_CLASS);
        assertEquals(CompactSampleSender.class.getName(), PluginNames.COMPACT_SAMPLE_SENDER_CLASS);
    }

    /** The command line compiles the names in and does not carry the class, so each must be a constant. */
    @Test
    void everyNameIsADistinctConstant() throws IllegalAccessException {
        Map<Object, String> seen = new HashMap<>();
        for (Field f : PluginNames.class.getDeclaredFields()) {
            int m = f.getModifiers();
            assertTrue(Modifier.isPublic(m) && Modifier.isStatic(m) && Modifier.isFinal(m), f.getName());
            assertTrue(f.getType() == String.class || f.getType() == int.class, f.getName());
            if (f.getType() == String.class) {
                String previous = seen.put(f.get(null), f.getName());
                assertEquals(null, previous, f.getName() + " has the value of " + previous);
            }
        }
    }

    /** Every Stampede property the shipped plans save is declared here, so none is renamed unseen. */
    @Test
    void shippedPlansUseOnlyDeclaredNames() throws IOException, IllegalAccessException {
        Set<Object> declared = new TreeSet<>();
        for (Field f : PluginNames.class.getDeclaredFields()) {
            if (f.getType() == String.class) {
                declared.add(f.get(null));
            }
        }
        Pattern prop = Pattern.compile("name=\"((?:stampede\\.|VirtualUserThreadGroup\\.)[^\"]+)\"");
        Set<String> used = new TreeSet<>();
        try (Stream<Path> plans = Files.list(Path.of("..", "plans"))) {
            for (Path plan : plans.filter(p -> p.toString().endsWith(".jmx")).toList()) {
                Matcher m = prop.matcher(Files.readString(plan));
                while (m.find()) {
                    used.add(m.group(1));
                }
            }
        }
        assertTrue(used.size() >= 10, "the shipped plans were not found or name few properties: " + used);
        used.removeAll(declared);
        assertEquals(Set.of(), used, "saved in shipped plans but not in PluginNames");
    }
}
