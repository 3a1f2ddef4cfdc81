/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

/** One configuration of `compare --plan`: {@code NAME=HOST:PORT}. */
public record NamedTarget(String name, String host, int port) {

    public static NamedTarget parse(String spec) throws CompareInputException {
        int eq = spec.indexOf('=');
        int colon = spec.lastIndexOf(':');
        String fix = " (give --target NAME=HOST:PORT, e.g. --target nginx=127.0.0.1:8080)";
        if (eq <= 0 || colon < eq + 2 || colon == spec.length() - 1) {
            throw new CompareInputException("--target " + spec + ": not NAME=HOST:PORT" + fix);
        }
        String name = spec.substring(0, eq);
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw new CompareInputException("--target " + spec + ": the name " + name + " may hold only letters, "
                    + "digits, '.', '_' and '-' (it names the run folders)" + fix);
        }
        String host = spec.substring(eq + 1, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(spec.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            throw new CompareInputException("--target " + spec + ": the port " + spec.substring(colon + 1)
                    + " is not a TCP port 1-65535" + fix);
        }
        return new NamedTarget(name, host, port);
    }
}
