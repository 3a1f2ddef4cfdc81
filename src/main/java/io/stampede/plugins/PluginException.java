/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

/**
 * A plan needs what this JMeter lacks and cannot be given: the message names what, where, and the fix. Bad input
 * (exit 2), as every command reports an IllegalArgumentException.
 */
public final class PluginException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public PluginException(String message) {
        super(message);
    }
}
