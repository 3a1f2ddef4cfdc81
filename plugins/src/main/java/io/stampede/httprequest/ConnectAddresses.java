/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.util.JMeterUtils;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.UnknownHostException;

/** Where a hop connects to (DNS Cache Manager or the system) and from ("IP source address"), read as stock reads them. */
final class ConnectAddresses {
    private static final String LOCAL_ADDRESS = JMeterUtils.getPropDefault("httpclient.localaddress", "").trim();

    private ConnectAddresses() {
    }

    /**
     * The "IP source address" field: a host name or IP, or a device's first address of the chosen family; else
     * JMeter's {@code httpclient.localaddress}; null lets the kernel choose.
     */
    static InetAddress source(HTTPSamplerBase element) throws IOException {
        String source = element.getIpSource().trim();
        if (source.isEmpty()) {
            return LOCAL_ADDRESS.isEmpty() ? null : InetAddress.getByName(LOCAL_ADDRESS);
        }
        HTTPSamplerBase.SourceType type = HTTPSamplerBase.SourceType.values()[element.getIpSourceType()];
        if (type == HTTPSamplerBase.SourceType.HOSTNAME) {
            return InetAddress.getByName(source);
        }
        Class<? extends InetAddress> family = switch (type) {
            case DEVICE_IPV4 -> Inet4Address.class;
            case DEVICE_IPV6 -> Inet6Address.class;
            default -> InetAddress.class;
        };
        NetworkInterface device = NetworkInterface.getByName(source);
        if (device == null) {
            throw new UnknownHostException("Cannot find interface " + source);
        }
        for (InterfaceAddress a : device.getInterfaceAddresses()) {
            if (family.isInstance(a.getAddress())) {
                return a.getAddress();
            }
        }
        throw new UnknownHostException("Interface " + source + " does not have address of type "
                + family.getSimpleName());
    }

    /** The DNS Cache Manager's answer when the plan has one, else the system's; the first address is used. */
    static InetAddress remote(HTTPSamplerBase element, String host) throws IOException {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (element.getDNSResolver() != null) {
            return element.getDNSResolver().resolve(h)[0];
        }
        return InetAddress.getAllByName(h)[0];
    }
}
