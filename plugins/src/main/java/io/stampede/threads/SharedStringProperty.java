/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.StringProperty;

/**
 * A text property of one element of the plan, one object for all users' copies of that element while none of them
 * changes it. The first change a user makes (in place, as a running element's {@code setProperty} does, or
 * through any setter) is made on that user's own copy instead, which takes this object's place in the user's
 * element ({@link UserOwnedProperties}); the other users keep reading the plan's value. A clone is an ordinary
 * property, as JMeter's clone of an element makes.
 */
class SharedStringProperty extends StringProperty {
    private static final long serialVersionUID = 1L;

    /** The running version of {@code name} = {@code value}: its saved value is its value, as in a running copy. */
    SharedStringProperty(String name, String value) {
        super(name, value);
        super.setRunningVersion(true);
    }

    private StringProperty own() {
        return UserOwnedProperties.take(this, clone());
    }

    @Override
    public void setObjectValue(Object v) {
        own().setObjectValue(v);
    }

    @Override
    public void setValue(String value) {
        own().setValue(value);
    }

    @Override
    public void setName(String name) {
        own().setName(name);
    }

    /** The running version again changes nothing (its saved value is its value); leaving it needs an own copy. */
    @Override
    public void setRunningVersion(boolean runningVersion) {
        if (!runningVersion) {
            own().setRunningVersion(false);
        }
    }

    /** Nothing to recover: this object's value never changes. */
    @Override
    public void recoverRunningVersion(TestElement owner) {
        // its value is its saved value
    }

    /** An ordinary, modifiable property in the state a running copy of the plan's property is in. */
    @Override
    public StringProperty clone() {
        StringProperty own = new StringProperty(getName(), getStringValue());
        own.setRunningVersion(true);
        return own;
    }
}
