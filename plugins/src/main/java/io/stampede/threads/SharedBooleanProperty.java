/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.BooleanProperty;

/**
 * A true/false property of one element of the plan, one object for all users' copies of that element while none of
 * them changes it; a user's first change goes to its own copy, as {@link SharedStringProperty} explains.
 */
final class SharedBooleanProperty extends BooleanProperty {
    private static final long serialVersionUID = 1L;

    /** The running version of {@code name} = {@code value}: its saved value is its value, as in a running copy. */
    SharedBooleanProperty(String name, boolean value) {
        super(name, value);
        super.setRunningVersion(true);
    }

    private BooleanProperty own() {
        return UserOwnedProperties.take(this, clone());
    }

    @Override
    public void setObjectValue(Object v) {
        own().setObjectValue(v);
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
    public BooleanProperty clone() {
        BooleanProperty own = new BooleanProperty(getName(), getBooleanValue());
        own.setRunningVersion(true);
        return own;
    }
}
