/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cli;

import picocli.CommandLine.IVersionProvider;

/** Version from the jar manifest, so `--version` cannot drift from the build. */
final class StampedeVersion implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = StampedeVersion.class.getPackage().getImplementationVersion();
        return new String[] {"stampede " + (v == null ? "(development build)" : v), "JMeter 5.6.3, Netty 4.2"};
    }
}
