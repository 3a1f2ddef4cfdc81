/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;

/**
 * JMeter's regular-expression matcher of the current thread ({@code JMeterUtils.getMatcher()}: an ORO
 * {@code Perl5Matcher} in a {@code ThreadLocal}). After a match it keeps the input it matched (a char copy of the
 * response text or headers), its offset tables, a stack and its last result, until that thread's next match; a
 * thread of JMeter's Thread Group keeps one, and so would each of 100,000 thinking virtual users. Every use in
 * JMeter takes the matcher, matches and lets go within one call, so a user may drop it between two samplers and
 * the next extractor gets a fresh one. Where this JMeter has no such field, nothing is dropped.
 */
final class RegexMatcherOfThread {
    private static final Logger log = LoggerFactory.getLogger(RegexMatcherOfThread.class);
    private static final ThreadLocal<?> MATCHER = matcher();

    private RegexMatcherOfThread() {
    }

    private static ThreadLocal<?> matcher() {
        try {
            Field f = JMeterUtils.class.getDeclaredField("localMatcher");
            f.setAccessible(true);
            return f.get(null) instanceof ThreadLocal<?> t ? t : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.debug("JMeter's per-thread regex matcher not dropped between samplers: {}", e.toString());
            return null;
        }
    }

    /** Drops the current thread's matcher, if it has one; the next {@code JMeterUtils.getMatcher()} makes another. */
    static void forget() {
        if (MATCHER != null) {
            MATCHER.remove();
        }
    }

    /** Whether this JMeter's matcher can be dropped at all (for tests). */
    static boolean available() {
        return MATCHER != null;
    }
}
