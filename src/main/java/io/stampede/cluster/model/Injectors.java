/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import java.util.List;

/** The load injectors and the ephemeral-port range they should use. */
public record Injectors(List<Host> hosts, int portLow, int portHigh) {

    public Injectors {
        hosts = List.copyOf(hosts);
    }
}
