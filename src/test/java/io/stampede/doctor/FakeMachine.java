/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A directory tree shaped like / with the files the doctor reads; starts with this project's VM's defaults. */
final class FakeMachine {

    final Path root;

    FakeMachine(Path root) {
        this.root = root;
        sysctl("kernel.osrelease", "6.18.0-test");
        sysctl("net.ipv4.ip_local_port_range", "32768\t60999");
        sysctl("net.ipv4.ip_local_reserved_ports", "");
        sysctl("net.ipv4.tcp_tw_reuse", "2");
        sysctl("net.ipv4.tcp_tw_reuse_delay", "1000");
        sysctl("net.ipv4.tcp_timestamps", "1");
        sysctl("net.ipv4.tcp_fin_timeout", "60");
        sysctl("net.ipv4.tcp_max_tw_buckets", "131072");
        sysctl("net.ipv4.tcp_max_syn_backlog", "2048");
        sysctl("net.core.somaxconn", "4096");
        sysctl("fs.file-max", "2466177");
        sysctl("fs.file-nr", "240\t0\t2466177");
        sysctl("fs.nr_open", "1048576");
        file("/proc/self/limits", "Limit                     Soft Limit           Hard Limit           Units     \n"
                + "Max processes             62755                62755                processes \n"
                + "Max open files            20000                20000                files     \n");
        file("/proc/net/tcp", TCP_HEADER);
        file("/proc/net/tcp6", TCP_HEADER);
        file("/etc/sysctl.conf", "# defaults\n#net.ipv4.ip_forward=1\n");
    }

    static final String TCP_HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid"
            + "  timeout inode\n";

    FakeMachine sysctl(String key, String value) {
        return file("/proc/sys/" + key.replace('.', '/'), value + "\n");
    }

    FakeMachine file(String absolute, String text) {
        try {
            Path p = root.resolve(absolute.substring(1));
            Files.createDirectories(p.getParent());
            Files.writeString(p, text);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    FakeMachine remove(String absolute) {
        try {
            Files.deleteIfExists(root.resolve(absolute.substring(1)));
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Doctor linux() {
        return new Doctor(SystemFiles.under(root), "Linux");
    }

    /** One /proc/net/tcp line; addresses in the kernel's format (host-order words), e.g. 0100007F:1F90. */
    static String tcpLine(int n, String local, String remote, String state) {
        return String.format("  %3d: %s %s %s 00000000:00000000 03:00001770 00000000     0        0 0 3 0000000000000000%n",
                n, local, remote, state);
    }
}
