/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.cluster;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cluster.model.ClusterSpec;
import io.stampede.cluster.model.Realserver;
import io.stampede.cluster.model.SpecReader;
import io.stampede.cluster.render.ClusterRenderer;
import io.stampede.cluster.render.Layout;
import io.stampede.cluster.render.NginxRenderer;
import io.stampede.cluster.render.RenderedFile;
import io.stampede.cluster.sys.StandInCertificate;
import io.stampede.it.support.Folders;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.Plans;
import io.stampede.it.support.ProcessTrees;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Our h2 sampler through the front end of the HAProxy example with HTTP/2 (haproxy/example-h2): its haproxy.cfg and
 * nginx.conf files rendered from the checked-in description (with a per-host file root, as the lab renders them),
 * real HAProxy on node ha1 holding the VIP, the three nginx realservers behind it in their own network namespaces on
 * one bridge, and JMeter in ha1's namespace sending h2 over TLS with ALPN to VIP:443. HAProxy's own counters, read
 * on the generated stats socket, prove that the front-end connections spoke HTTP/2 and none HTTP/1.1.
 * Namespaces are named sth2-*; run under {@code flock /tmp/stampede-netns.lock}.
 */
class HaproxyHttp2IT {

    private static final String EXAMPLE = "haproxy/example-h2/cluster.yaml";
    private static final String HA = "sth2-ha";
    private static final int THREADS = 4;
    private static final int LOOPS = 100;
    private static final int STREAMS = 10;
    private static final String RAW = "RAW GET /test.txt";
    private static final String HTTP = "HTTP GET /test.txt";

    private static Path dir;
    private static ClusterSpec spec;
    private static final List<Process> started = new ArrayList<>();
    private static final List<String> namespaces = new ArrayList<>();

    @BeforeAll
    static void startCluster() throws Exception {
        assertTrue("root".equals(System.getProperty("user.name")), "needs root: network namespaces");
        spec = new SpecReader().read(Files.readString(StampedeJar.root().resolve(EXAMPLE)));
        removeLeftovers();
        dir = Files.createTempDirectory("stampede-h2-haproxy-");
        // nginx's workers run as www-data and must be able to walk down to the document roots
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<RenderedFile> files = new ClusterRenderer().render(spec, HaproxyHttp2IT::layout);
        buildNetwork();
        String node = spec.haproxy().vrrp().master().name();
        for (Realserver rs : spec.realservers()) {
            install(files, rs.name());
            Path docroot = Path.of(layout(rs.name()).path(NginxRenderer.DOCROOT));
            Files.createDirectories(docroot);
            Files.writeString(docroot.resolve("test.txt"), "served by " + rs.name() + "\n");
            Path conf = installed(files, "realserver/" + rs.name() + "/nginx.conf");
            start(ns(rs.name()), rs.name() + "-nginx", "nginx", "-c", conf.toString(), "-g", "daemon off;");
        }
        install(files, node);
        StandInCertificate.write(Path.of(layout(node).path(spec.tls().certificate())));
        Path cfg = installed(files, "haproxy/" + node + "/haproxy.cfg");
        start(HA, node + "-haproxy", "prlimit", "--nofile=" + spec.haproxy().fileDescriptorNeed(), "haproxy", "-db",
                "-f", cfg.toString());
        awaitServersUp();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        for (Process p : started) {
            ProcessTrees.kill(p); // nginx masters among them: the parent first, or it respawns a worker
        }
        for (String ns : namespaces) {
            exec(List.of("ip", "netns", "del", ns), false);
        }
        if (dir != null) {
            Folders.deleteQuietly(dir);
        }
    }

    private static Layout layout(String host) {
        return new Layout(dir.resolve(host).toString());
    }

    private static String ns(String host) {
        return "sth2-" + host;
    }

    /** One bridge in the HAProxy node's namespace; each realserver hangs on it by a veth, as on one L2 segment. */
    private static void buildNetwork() throws Exception {
        String prefix = "/" + spec.network().prefix();
        addNamespace(HA);
        ip(HA, "link", "add", "br0", "type", "bridge");
        ip(HA, "addr", "add", spec.haproxy().vrrp().master().address() + prefix, "dev", "br0");
        // the VIP, as keepalived would put it on the MASTER (VRRP itself is the lab's check 6, not this test's)
        ip(HA, "addr", "add", spec.vip() + "/32", "dev", "br0");
        ip(HA, "link", "set", "br0", "up");
        for (Realserver rs : spec.realservers()) {
            String ns = ns(rs.name());
            addNamespace(ns);
            exec(List.of("ip", "link", "add", "eth0", "netns", ns, "type", "veth", "peer", "name", "v-" + rs.name(),
                    "netns", HA), true);
            ip(HA, "link", "set", "v-" + rs.name(), "master", "br0", "up");
            ip(ns, "addr", "add", rs.address() + prefix, "dev", "eth0");
            ip(ns, "link", "set", "eth0", "up");
        }
    }

    private static void addNamespace(String ns) throws Exception {
        exec(List.of("ip", "netns", "add", ns), true);
        namespaces.add(ns);
        ip(ns, "link", "set", "lo", "up");
    }

    private static void removeLeftovers() throws Exception {
        String list = exec(List.of("ip", "netns", "list"), true);
        for (String line : list.split("\n")) {
            String name = line.split(" ")[0];
            if (name.startsWith("sth2-")) {
                exec(List.of("ip", "netns", "del", name), false);
            }
        }
    }

    private static void ip(String ns, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("ip", "-n", ns));
        cmd.addAll(List.of(args));
        exec(cmd, true);
    }

    private static String exec(List<String> command, boolean mustWork) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), String.join(" ", command) + " hangs");
        if (mustWork && p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + ": " + out);
        }
        return out;
    }

    /** Writes a host's generated files where its layout puts them, plus the folders its daemons write into. */
    private static void install(List<RenderedFile> files, String host) throws IOException {
        for (RenderedFile f : files) {
            if (f.relativePath().split("/")[1].equals(host)) {
                Path p = target(f, host);
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.content());
            }
        }
        for (String d : List.of("/run/haproxy", "/run", "/var/log/nginx")) {
            Files.createDirectories(Path.of(layout(host).path(d)));
        }
    }

    private static Path target(RenderedFile f, String host) {
        String root = layout(host).root();
        return Path.of(f.installPath().startsWith(root) ? f.installPath() : root + f.installPath());
    }

    private static Path installed(List<RenderedFile> files, String relative) {
        RenderedFile f = files.stream().filter(x -> x.relativePath().equals(relative)).findFirst().orElseThrow();
        return target(f, relative.split("/")[1]);
    }

    private static void start(String ns, String name, String... command) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        cmd.addAll(List.of(command));
        started.add(new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile()).start());
    }

    /** HAProxy's stats socket (the generated {@code stats socket} line, under the node's layout). */
    private static String stats(String command) throws IOException {
        Path socket = Path.of(layout(spec.haproxy().vrrp().master().name()).path("/run/haproxy/admin.sock"));
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ch.write(ByteBuffer.wrap((command + "\n").getBytes(StandardCharsets.US_ASCII)));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteBuffer buf = ByteBuffer.allocate(65536);
            while (ch.read(buf) >= 0) {
                out.write(buf.array(), 0, buf.position());
                buf.clear();
            }
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    /** {@code show stat}: one map per proxy/server line, keyed "pxname/svname", of the named columns. */
    private static Map<String, Map<String, String>> showStat() throws IOException {
        String[] lines = stats("show stat").split("\n");
        String[] header = lines[0].replaceFirst("^# ", "").split(",", -1);
        Map<String, Map<String, String>> rows = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            String[] v = lines[i].split(",", -1);
            if (v.length < 2) {
                continue;
            }
            Map<String, String> row = new HashMap<>();
            for (int c = 0; c < Math.min(header.length, v.length); c++) {
                row.put(header[c], v[c]);
            }
            rows.put(v[0] + "/" + v[1], row);
        }
        return rows;
    }

    private static void awaitServersUp() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        String last = "no stats socket yet";
        while (System.nanoTime() < deadline) {
            try {
                Map<String, Map<String, String>> s = showStat();
                if (spec.realservers().stream().allMatch(rs -> s.containsKey("be_nginx/" + rs.name())
                        && s.get("be_nginx/" + rs.name()).get("status").equals("UP"))) {
                    return;
                }
                last = s.toString();
            } catch (IOException notYet) {
                last = notYet.toString();
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("HAProxy's servers are not all UP after 20 s: " + last + "\n"
                + Files.readString(dir.resolve(spec.haproxy().vrrp().master().name() + "-haproxy.log")));
    }

    /**
     * JMeter runs in the HAProxy node's namespace, where the VIP is: a java that enters it first (the support
     * class starts {@code <java home>/bin/java}; this home's java is {@code ip netns exec HA <real java>}).
     */
    private static Path javaInNamespace() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("java-in-" + HA + "/bin"));
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\nexec ip netns exec " + HA + " " + Path.of(System.getProperty("java.home"),
                "bin", "java") + " \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin.getParent();
    }

    @Test
    void h2OverTlsThroughTheHaproxyFrontEndGivesExactCountsAndHaproxySawOnlyHttp2() throws Exception {
        Map<String, String> before = showStat().get("fe_web/FRONTEND");
        JMeterRun.Result r = JMeterRun.of(JMeterHome.fromStampedeRoot(), Plans.get("h2-stepping.jmx"),
                        dir.resolve("jmeter"))
                .java(javaInNamespace())
                .property("host", spec.vip()).property("port", 443).property("protocol", "h2")
                .property("tls", true).property("scheme", "https").property("threads", THREADS)
                .property("loops", LOOPS).property("conns", 1).property("streams", STREAMS)
                .property("sample_variables", "stampede_protocol")
                .timeout(Duration.ofSeconds(120)).run();
        assertTrue(r.succeeded(), r.describe());
        Jtl jtl = Jtl.read(r.jtl());
        Map<String, Map<String, String>> stat = showStat();
        Map<String, String> fe = stat.get("fe_web/FRONTEND");
        long h2Connections = delta(fe, before, "h2_total_connections");
        long h1Connections = delta(fe, before, "h1_total_connections");
        long h2Streams = delta(fe, before, "h2_headers_rcvd");
        System.out.printf("HAProxy fe_web during the run: %d h2 connections, %d HTTP/1 connections, %d HEADERS frames"
                + " received; %d samples%n", h2Connections, h1Connections, h2Streams, jtl.count());
        int perLabel = THREADS * LOOPS;
        String first = jtl.rows().stream().filter(x -> !x.success()).map(JtlRow::toString).findFirst().orElse("none");
        assertAll(
                () -> assertEquals(Set.of(RAW, HTTP), jtl.labels()),
                () -> assertEquals(perLabel, jtl.count(RAW), "RAW samples"),
                () -> assertEquals(perLabel, jtl.count(HTTP), "HTTP samples"),
                () -> assertEquals(0, jtl.errors(), "failed samples, first: " + first),
                () -> assertEquals(Set.of("200"), jtl.statusCodes()),
                () -> assertTrue(jtl.rows().stream().allMatch(x -> x.get("stampede_protocol").equals("h2")),
                        "every sample spoke h2 (the JTL's protocol column)"),
                () -> assertTrue(jtl.rows().stream().allMatch(x -> x.url().startsWith("https://" + spec.vip() + ":443")),
                        "https URLs to the VIP"),
                // one TLS connection per thread and sampler, every one negotiated h2 by ALPN
                () -> assertEquals(THREADS * 2, h2Connections, "HAProxy's h2 front-end connections: " + fe),
                () -> assertEquals(0, h1Connections, "HAProxy's HTTP/1 front-end connections: " + fe),
                // a thread that ends may leave up to streams - 1 requests in flight that no sample reports
                () -> assertTrue(h2Streams >= 2L * perLabel && h2Streams <= 2L * perLabel + THREADS * 2 * (STREAMS - 1),
                        "HEADERS frames HAProxy received: " + h2Streams),
                () -> assertTrue(spec.realservers().stream().allMatch(rs ->
                        Long.parseLong(stat.get("be_nginx/" + rs.name()).get("stot")) > 0),
                        "every nginx behind HAProxy served requests: " + stat.keySet()));
    }

    private static long delta(Map<String, String> now, Map<String, String> before, String column) {
        return Long.parseLong(now.get(column)) - Long.parseLong(before.get(column));
    }
}
