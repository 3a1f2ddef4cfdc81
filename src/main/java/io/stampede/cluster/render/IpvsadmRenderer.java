/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.Realserver;
import io.stampede.cluster.model.VirtualService;
import java.util.List;

/** The same virtual services as keepalived's, in ipvsadm-save -n form, for directors run without keepalived. */
public final class IpvsadmRenderer {

    public static final String INSTALL = "/etc/ipvsadm.rules";

    public RenderedFile render(ClusterSpec spec, String folder) {
        Header header = new Header("ipvsadm-restore rules (numeric, LVS-DR) for the directors of cluster "
                + spec.name() + "; use either these or keepalived's virtual_server blocks, not both", INSTALL,
                List.of("modprobe ip_vs && ipvsadm-restore < " + INSTALL + "   (ipvsadm-restore clears the table"
                        + " first)", "check: ipvsadm -L -n"),
                List.of("ipvsadm -C && rm " + INSTALL));
        StringBuilder sb = new StringBuilder();
        for (VirtualService s : spec.services()) {
            // a fwmark service is one IPVS service for all its ports; its real servers take no port (DR keeps
            // the packet's own destination port)
            for (int port : s.hasFwmark() ? List.of(0) : s.ports()) {
                String service = port == 0 ? "-f " + s.fwmark() : "-t " + s.vip() + ":" + port;
                sb.append("-A ").append(service).append(" -s ").append(spec.lvs().scheduler());
                if (s.persistenceSeconds() > 0) {
                    sb.append(" -p ").append(s.persistenceSeconds());
                    if (s.persistenceNetmask() != null) {
                        sb.append(" -M ").append(s.persistenceNetmask());
                    }
                }
                sb.append('\n');
                for (Realserver rs : spec.realservers()) {
                    sb.append("-a ").append(service).append(" -r ").append(rs.address())
                            .append(port == 0 ? "" : ":" + port).append(" -g -w ").append(rs.weight()).append('\n');
                }
            }
        }
        return header.file(folder + "/ipvsadm.rules", sb.toString());
    }
}
