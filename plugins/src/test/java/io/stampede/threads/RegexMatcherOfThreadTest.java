/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.util.JMeterUtils;
import org.apache.oro.text.regex.Perl5Compiler;
import org.apache.oro.text.regex.Perl5Matcher;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegexMatcherOfThreadTest {
    @Test
    void aUserDropsItsMatcherAndTheNextExtractorGetsAFreshOneThatMatches() throws Exception {
        assertTrue(RegexMatcherOfThread.available(), "JMeter 5.6.3 keeps its matcher in JMeterUtils.localMatcher");
        Perl5Matcher used = JMeterUtils.getMatcher();
        assertSame(used, JMeterUtils.getMatcher(), "one matcher per thread until dropped");
        assertTrue(used.contains("next=abc", new Perl5Compiler().compile("next=(\\S+)")));
        assertEquals("abc", used.getMatch().group(1), "the matcher holds its last match");

        RegexMatcherOfThread.forget();
        Perl5Matcher fresh = JMeterUtils.getMatcher();
        assertNotSame(used, fresh);
        assertTrue(fresh.contains("next=xyz", new Perl5Compiler().compile("next=(\\S+)")));
        assertEquals("xyz", fresh.getMatch().group(1));
    }
}
