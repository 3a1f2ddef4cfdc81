/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** --heap sizes as -Xmx writes them, compared with the usual initial heap of 512 MB. */
class JMeterProcessTest {
    @Test
    void heapSizesInMegabytes() {
        assertEquals(2048, JMeterProcess.megabytes("2g"));
        assertEquals(64, JMeterProcess.megabytes("64m"));
        assertEquals(64, JMeterProcess.megabytes("64M"));
        assertEquals(1, JMeterProcess.megabytes("1024k"));
        assertEquals(3, JMeterProcess.megabytes("3145728"));
    }
}
