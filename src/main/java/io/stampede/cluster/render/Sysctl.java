/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

/** Helpers for sysctl keys that name an interface. */
final class Sysctl {

    private Sysctl() {
    }

    /** net.ipv4.conf.IFACE.KEY; an interface name with a dot (a VLAN) needs the slash notation. */
    static String confKey(String iface, String key) {
        return iface.contains(".") ? "net/ipv4/conf/" + iface + "/" + key : "net.ipv4.conf." + iface + "." + key;
    }

    static String line(String key, Object value) {
        return key + " = " + value;
    }
}
