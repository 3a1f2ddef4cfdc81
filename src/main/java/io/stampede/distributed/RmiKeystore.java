/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import io.stampede.cli.CliNames;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The keystore (alias rmi) that engines and controller share for RMI over TLS; it is their truststore too, as in
 * JMeter's create-rmi-keystore setup. Its password goes to JMeter in a property file, never on a command line.
 */
public record RmiKeystore(Path file, String password) {

    /** The keystore's passwords, for a file only the user can read (JMeter's {@code -q}). */
    public Map<String, String> secretProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("server.rmi.ssl.keystore.password", password);
        p.put("server.rmi.ssl.truststore.password", password);
        return p;
    }

    /** Where the keystore is, for the command line (-J). */
    public Map<String, String> jmeterProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(CliNames.RMI_SSL_DISABLE, "false");
        p.put(CliNames.RMI_KEYSTORE_FILE, file.toAbsolutePath().toString());
        p.put("server.rmi.ssl.truststore.file", file.toAbsolutePath().toString());
        return p;
    }

    @Override
    public String toString() {
        return file.toString(); // never the password
    }
}
