/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.testelement.property.StringProperty;

import java.util.Set;

/**
 * An element's GUI or test class name ({@link TestElement#GUI_CLASS}, {@link TestElement#TEST_CLASS}), one object for
 * all users' copies of that element: a running test never reads or writes either (they tell the GUI and the JMX
 * which classes to use), yet JMeter's clone gives every copy its own two property objects. This one never changes:
 * a write is refused naming why (nothing writes them, and an element the class names are shared by need not be one
 * whose users' copies {@link SharedStringProperty} can find), and a clone of it is an ordinary property again, so an
 * element copied at run time owns its copy as in JMeter.
 */
final class SharedClassNameProperty extends SharedStringProperty {
    private static final long serialVersionUID = 1L;

    /** The names of the properties shared this way. */
    static final Set<String> NAMES = Set.of(TestElement.GUI_CLASS, TestElement.TEST_CLASS);

    SharedClassNameProperty(String name, String value) {
        super(name, value);
    }

    /** Whether users may share {@code template}'s object instead of {@code copy}, a clone of it. */
    static boolean shareable(JMeterProperty template, JMeterProperty copy) {
        return NAMES.contains(copy.getName()) && copy.getClass() == StringProperty.class
                && (template instanceof StringProperty) && copy.getStringValue() != null
                && copy.getStringValue().equals(template.getStringValue());
    }

    private UnsupportedOperationException refused() {
        return new UnsupportedOperationException(getName() + " of an element in a "
                + VirtualUserThreadGroup.DISPLAY_NAME + " user's plan is shared by all users and cannot change "
                + "while the test runs; change the plan before it starts");
    }

    @Override
    public void setObjectValue(Object v) {
        throw refused();
    }

    @Override
    public void setValue(String value) {
        throw refused();
    }

    @Override
    public void setName(String name) {
        throw refused();
    }

    /** Always the running version: every user's compile sets it again, which must not write a shared object. */
    @Override
    public void setRunningVersion(boolean runningVersion) {
        // stays as constructed
    }
}
