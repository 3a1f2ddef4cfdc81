/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import java.util.concurrent.ThreadFactory;

/**
 * Reaches Java 21's virtual threads from a class compiled for Java 17. The jar must load on 17 (the build and
 * {@code ./stampede run} target it), so nothing here names a Java 21 type: {@code Thread.ofVirtual()} and
 * {@code Thread.Builder#factory()} are looked up reflectively once per test, and every user thread is then made
 * through the plain {@link ThreadFactory} interface, which costs no more than the direct call. A multi-release jar
 * would need a second compiler (JDK 21) in every build and its versioned classes survive shading only by hand;
 * one reflective lookup per test avoids both.
 */
public final class VirtualThreads {
    /** The first Java release whose virtual threads are final (JEP 444), not a preview. */
    public static final int MINIMUM_JAVA = 21;
    /** From this release a virtual thread no longer pins its carrier inside {@code synchronized} (JEP 491). */
    public static final int UNPINNED_SYNCHRONIZED_JAVA = 24;

    private VirtualThreads() {
    }

    /**
     * A factory of unstarted virtual threads.
     *
     * @throws UnsupportedOperationException with {@link #refusal} when this JVM has none
     */
    public static ThreadFactory factory(String what) {
        int feature = Runtime.version().feature();
        if (feature < MINIMUM_JAVA) {
            throw new UnsupportedOperationException(refusal(what, feature));
        }
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            // The builder's own class is JDK-internal; call through the public interface.
            Class<?> builderType = Class.forName("java.lang.Thread$Builder");
            return (ThreadFactory) builderType.getMethod("factory").invoke(builder);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new UnsupportedOperationException(refusal(what, feature) + " (" + e + ")", e);
        }
    }

    /** The one message a JVM without virtual threads gets: what is needed, what was found, how to fix it. */
    public static String refusal(String what, int foundFeature) {
        return what + " needs Java " + MINIMUM_JAVA + " or newer (virtual threads); found " + foundFeature + " ("
                + System.getProperty("java.home") + "); run with `stampede run --java /path/to/jdk-21-or-newer` "
                + "(engines: `stampede server --java ...`), "
                + "or start JMeter with JAVA_HOME set to a JDK " + MINIMUM_JAVA + "+ (Java "
                + UNPINNED_SYNCHRONIZED_JAVA + "+ recommended: its virtual threads do not pin inside synchronized)";
    }
}
