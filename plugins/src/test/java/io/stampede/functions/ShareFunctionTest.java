/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.jmeter.engine.util.CompoundVariable;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ShareFunctionTest {

    @BeforeAll
    static void jmeterProperties() throws Exception {
        if (JMeterUtils.getJMeterProperties() == null) {
            Path empty = Files.createTempFile("jmeter", ".properties");
            JMeterUtils.loadJMeterProperties(empty.toString());
            Files.delete(empty);
        }
    }

    @AfterEach
    void forget() {
        JMeterUtils.getJMeterProperties().remove(ShareFunction.ENGINES);
        JMeterUtils.getJMeterProperties().remove(ShareFunction.ENGINE);
    }

    private static String call(String... values) throws Exception {
        ShareFunction f = new ShareFunction();
        f.setParameters(List.of(values).stream().map(CompoundVariable::new).toList());
        return f.execute(null, null);
    }

    @Test
    void eachEngineTakesItsOwnShare() throws Exception {
        JMeterUtils.setProperty(ShareFunction.ENGINES, "127.0.0.1:1099,127.0.0.1:1100,10.0.0.3:1099");
        JMeterUtils.setProperty(ShareFunction.ENGINE, "127.0.0.1:1100");
        assertEquals("333", call("334", "333", "333"));
        JMeterUtils.setProperty(ShareFunction.ENGINE, "10.0.0.3:1099");
        assertEquals("1666.666666", call("1666.666667", "1666.666667", "1666.666666"));
        JMeterUtils.setProperty(ShareFunction.ENGINE, "127.0.0.1:1099");
        assertEquals("334", call("334", "333", "333"));
    }

    @Test
    void theEngineNamesItsThreadsByItsShareAndStillFindsItsValues() throws Exception {
        JMeterUtils.setProperty(ShareFunction.ENGINES, "127.0.0.1:1099,127.0.0.1:1100,10.0.0.3:1099");
        JMeterUtils.setProperty(ShareFunction.ENGINE, "127.0.0.1:1100");
        ShareThreadNames names = new ShareThreadNames();
        names.setShares(3);
        names.testStarted("127.0.0.1:1100");
        assertEquals("i2of3", JMeterUtils.getProperty(ShareFunction.ENGINE), "JMeter's thread-name prefix");
        assertEquals("333", call("334", "333", "333"));
        // a second test start on the same engine (another element's order) keeps the share
        names.testStarted("127.0.0.1:1100");
        assertEquals("i2of3", JMeterUtils.getProperty(ShareFunction.ENGINE));
    }

    @Test
    void anEngineInNoShareKeepsItsAddress() {
        JMeterUtils.setProperty(ShareFunction.ENGINES, "127.0.0.1:1099,127.0.0.1:1100");
        JMeterUtils.setProperty(ShareFunction.ENGINE, "10.9.9.9:1099");
        ShareThreadNames names = new ShareThreadNames();
        names.setShares(2);
        names.testStarted("10.9.9.9:1099");
        assertEquals("10.9.9.9:1099", JMeterUtils.getProperty(ShareFunction.ENGINE));
        assertEquals(-1, ShareFunction.index("a:1,b:1", "i3of2", 2), "a share past the count");
        assertEquals(-1, ShareFunction.index("a:1,b:1", "i1of3", 2), "a share of another division");
    }

    @Test
    void anEngineNotListedStopsWithTheReason() {
        JMeterUtils.setProperty(ShareFunction.ENGINES, "127.0.0.1:1099,127.0.0.1:1100");
        JMeterUtils.setProperty(ShareFunction.ENGINE, "10.9.9.9:1099");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> call("1", "1"));
        assertTrue(e.getMessage().contains("this engine (10.9.9.9:1099) is not one of"), e.getMessage());
        JMeterUtils.getJMeterProperties().remove(ShareFunction.ENGINE);
        e = assertThrows(IllegalStateException.class, () -> call("1", "1"));
        assertTrue(e.getMessage().contains("(not an engine)"), e.getMessage());
    }
}
