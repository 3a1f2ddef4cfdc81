/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

/** IPVS connection timeouts in seconds, as ipvsadm --set TCP TCPFIN UDP and keepalived's lvs_timeouts take them. */
public record IpvsTimeouts(int tcp, int tcpFin, int udp) {

    /** The kernel's defaults (ipvsadm -L --timeout on a fresh kernel: 900 120 300). */
    public static final IpvsTimeouts KERNEL = new IpvsTimeouts(900, 120, 300);
}
