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

/**
 * The same virtual services as keepalived's, in ipvsadm-save -n form, for directors run without keepalived's
 * virtual_server blocks. The rules file holds rules only: `ipvsadm -R` stops at the first comment line, and
 * Debian's ipvsadm-restore aborts half-way at an indented or trailing one, so the header lives in a sibling README.
 */
public final class IpvsadmRenderer {

    public static final String INSTALL = "/etc/ipvsadm.rules";
    public static final String README = "ipvsadm.rules.README";
    public static final String DOC = "/usr/share/doc/stampede/" + README;

    public RenderedFile render(ClusterSpec spec, String folder) {
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
        return new RenderedFile(folder + "/ipvsadm.rules", INSTALL, sb.toString());
    }

    /** What the rules file is, who owns the IPVS table, and how to apply, check and remove the rules. */
    public RenderedFile renderReadme(ClusterSpec spec, String folder) {
        Header header = new Header("ipvsadm.rules (numeric ipvsadm-save form, LVS-DR) for the directors of cluster "
                + spec.name() + "; this README is not installed", INSTALL,
                List.of("modprobe ip_vs && ipvsadm-restore < " + INSTALL,
                        "(Debian's ipvsadm-restore runs ipvsadm -C, then ipvsadm -R; elsewhere: ipvsadm -C &&"
                                + " ipvsadm -R < " + INSTALL + ")",
                        "check: ipvsadm -S -n | diff - " + INSTALL + "   (no output = the table is exactly the file)"),
                List.of("ipvsadm -C && rm " + INSTALL));
        String body = """
                Who owns the IPVS table: ONE of the two, never both.
                - keepalived (keepalived.conf's virtual_server blocks) is the authoritative owner on these directors:
                  it adds the services at start, removes a realserver whose health check fails and adds it back
                  when it recovers, and clears its services when it stops. It does not re-read the kernel's table.
                - ipvsadm.rules is for a director run WITHOUT keepalived's virtual_server blocks (a static table, no
                  health checks), and as the reference to compare the live table with (the check above).
                Why not both: ipvsadm-restore starts with ipvsadm -C, so loading the file under a running keepalived
                wipes keepalived's table and puts every realserver back, dead ones included; keepalived does not
                notice and will not remove them again until their check state changes. Where keepalived owns the
                table, keep Debian's boot-time restore off (AUTO="false" in /etc/default/ipvsadm).
                Neither ipvsadm -R nor ipvsadm-restore is atomic: a failing line leaves the lines before it applied.
                The file therefore holds rules only, without comments: ipvsadm -R stops at a '#' line.
                """;
        return new RenderedFile(folder + "/" + README, DOC, header.text() + body);
    }
}
