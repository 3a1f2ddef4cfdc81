/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What the test will ask of this injector, from a plan or from numbers.
 *
 * @param connections open connections at the same time (each one a file descriptor)
 * @param newConnectionsPerSecond new TCP connections per second to the target that the injector closes first, so that
 *     their local ports wait in TIME_WAIT here; 0 when connections are kept alive or the server closes them
 * @param totalNewConnections all new connections of a run with a fixed number of loops; empty when open-ended
 * @param basis how the figures were obtained, with every assumption stated, for the report
 */
public record PlannedLoad(
        OptionalLong connections,
        OptionalDouble newConnectionsPerSecond,
        OptionalLong totalNewConnections,
        List<String> basis) {

    public PlannedLoad {
        basis = List.copyOf(basis);
    }

    /** Nothing planned: the doctor checks the machine only. */
    public static PlannedLoad unknown() {
        return new PlannedLoad(OptionalLong.empty(), OptionalDouble.empty(), OptionalLong.empty(), List.of());
    }

    /**
     * From --connections and --rate.
     *
     * @throws IllegalArgumentException naming the option when a figure is not positive
     */
    public static PlannedLoad of(Long connections, Double newConnectionsPerSecond) {
        if (connections != null && connections < 1) {
            throw new IllegalArgumentException("--connections must be at least 1, got " + connections);
        }
        if (newConnectionsPerSecond != null
                && (!(newConnectionsPerSecond > 0) || newConnectionsPerSecond.isInfinite())) {
            throw new IllegalArgumentException("--rate must be a positive number of new connections per second, got "
                    + newConnectionsPerSecond);
        }
        List<String> basis = new java.util.ArrayList<>();
        if (connections != null) {
            basis.add(connections + " connections open at once (--connections)");
        }
        if (newConnectionsPerSecond != null) {
            basis.add(Numbers.rate(newConnectionsPerSecond) + " new connections/s to the target, closed by the injector (--rate)");
        }
        return new PlannedLoad(
                connections == null ? OptionalLong.empty() : OptionalLong.of(connections),
                newConnectionsPerSecond == null ? OptionalDouble.empty() : OptionalDouble.of(newConnectionsPerSecond),
                OptionalLong.empty(),
                basis);
    }

    /** Figures given on the command line replace the plan's estimates. */
    public PlannedLoad overriddenBy(PlannedLoad numbers) {
        List<String> merged = new java.util.ArrayList<>(basis);
        merged.addAll(numbers.basis);
        return new PlannedLoad(
                numbers.connections.isPresent() ? numbers.connections : connections,
                numbers.newConnectionsPerSecond.isPresent() ? numbers.newConnectionsPerSecond : newConnectionsPerSecond,
                numbers.newConnectionsPerSecond.isPresent() ? OptionalLong.empty() : totalNewConnections,
                merged);
    }

    /** True when the load opens new connections all the time (no keep-alive). */
    public boolean churnsConnections() {
        return newConnectionsPerSecond.isPresent() && newConnectionsPerSecond.getAsDouble() > 0;
    }
}
