/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterThread;
import org.apache.jorphan.collections.HashTree;

/**
 * Gives a user its own copy of a property its element copies shared with the other users
 * ({@link SharedStringProperty}, {@link SharedBooleanProperty}), at the moment it is about to change it. The shared
 * object does not know which user's element asked: a user's elements are reached only by that user's thread
 * (JMeter's contract for cloned elements), so the elements to mend are those of the plan of the thread's
 * {@link JMeterThread}. Every element there that holds the shared object gets the own copy in its place; the
 * change then goes to the own copy, exactly as it would have gone to the user's clone in JMeter.
 */
final class UserOwnedProperties {
    private UserOwnedProperties() {
    }

    /**
     * Puts {@code own} (an ordinary copy of {@code shared}) in {@code shared}'s place in the current user's elements
     * and returns it. A thread that is no virtual user, or whose elements do not hold {@code shared}, is refused
     * naming the property: the change would otherwise reach every user at once.
     */
    static <P extends JMeterProperty> P take(JMeterProperty shared, P own) {
        JMeterThread user = JMeterContextService.getContext().getThread();
        HashTree plan = user == null ? null : ThreadBookkeeping.plan(user);
        if (plan == null || !swap(plan, shared, own)) {
            throw new IllegalStateException("property " + shared.getName() + " of an element in a "
                    + VirtualUserThreadGroup.DISPLAY_NAME + " user's plan is shared by the users that have not "
                    + "changed it, and can only be changed from its own user's thread (this is "
                    + Thread.currentThread().getName() + ")");
        }
        return own;
    }

    private static boolean swap(HashTree tree, JMeterProperty shared, JMeterProperty own) {
        boolean found = false;
        for (Object key : tree.list()) {
            if (key instanceof TestElement element) {
                found |= CompactProperties.swap(element, shared, own);
            }
            found |= swap(tree.getTree(key), shared, own);
        }
        return found;
    }
}
