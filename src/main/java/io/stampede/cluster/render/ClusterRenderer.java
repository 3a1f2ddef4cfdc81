/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

import io.stampede.cluster.model.ArpMethod;
import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.Host;
import io.stampede.cluster.model.Realserver;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Renders every file of a cluster, one folder per host under its role: director/, realserver/, haproxy/, injector/. */
public final class ClusterRenderer {

    /** The injector folder when the description names no injector host: the files suit any of them. */
    public static final String ANY_INJECTOR = "any";

    private final KeepalivedRenderer keepalived = new KeepalivedRenderer();
    private final IpvsadmRenderer ipvsadm = new IpvsadmRenderer();
    private final RealserverUnitRenderer units = new RealserverUnitRenderer();
    private final NginxRenderer nginx = new NginxRenderer();
    private final HaproxyRenderer haproxy = new HaproxyRenderer();
    private final KernelTuningRenderer tuning = new KernelTuningRenderer();
    private final DirectorUnitRenderer director = new DirectorUnitRenderer();

    /** Production output: every file with its real installation path. */
    public List<RenderedFile> render(ClusterSpec spec) {
        return render(spec, host -> Layout.SYSTEM);
    }

    /** Output with a layout per host name (the lab gives each host its own root directory). */
    public List<RenderedFile> render(ClusterSpec spec, Function<String, Layout> layouts) {
        List<RenderedFile> files = new ArrayList<>();
        for (Host h : spec.vrrp().hosts()) {
            if (spec.isDirectRouting()) {
                String folder = folder("director", h.name());
                files.add(keepalived.render(spec, h, folder));
                files.add(ipvsadm.render(spec, folder));
                files.add(ipvsadm.renderReadme(spec, folder));
                files.add(tuning.directorSysctl(spec, h, folder));
                files.add(tuning.directorModprobe(spec, h, folder));
                files.add(tuning.directorModulesLoad(h, folder));
                files.add(director.render(spec, h, folder));
                files.add(director.renderNft(spec, h, folder));
            } else {
                String folder = folder("haproxy", h.name());
                Layout layout = layouts.apply(h.name());
                files.add(haproxy.render(spec, h, layout, folder));
                files.add(haproxy.renderDropIn(spec, h, layout, folder));
                files.add(keepalived.render(spec, h, folder));
                files.add(tuning.haproxySysctl(spec, h, folder));
            }
        }
        for (Realserver rs : spec.realservers()) {
            String folder = folder("realserver", rs.name());
            Layout layout = layouts.apply(rs.name());
            if (spec.isDirectRouting()) {
                files.add(units.render(spec, rs, layout, folder));
                if (rs.arpMethod() == ArpMethod.NFT) {
                    files.add(units.renderNft(spec, rs, layout, folder));
                }
            }
            files.add(nginx.render(spec, rs, layout, folder));
            files.add(tuning.realserverSysctl(spec, rs, folder));
        }
        List<String> injectors = spec.injectors().hosts().stream().map(Host::name).toList();
        for (String name : injectors.isEmpty() ? List.of(ANY_INJECTOR) : injectors) {
            String folder = folder("injector", name);
            files.add(tuning.injectorSysctl(spec, name, folder));
            files.add(tuning.injectorLimits(spec, name, folder));
        }
        return files;
    }

    public static String folder(String role, String host) {
        return role + "/" + host;
    }
}
