/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

/** A named machine of the cluster; the name becomes its output folder and its lab namespace. */
public record Host(String name, Ipv4 address) {
}
