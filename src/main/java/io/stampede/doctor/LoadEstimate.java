/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import io.stampede.names.PluginNames;
import io.stampede.plan.JmxTree;
import io.stampede.plan.PlanException;
import io.stampede.plan.PropertyResolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;


/**
 * What a plan will ask of the injector: how many threads, whether they keep connections alive, how many
 * connections each thread holds, and so how many connections are open at once and how many new ones are opened
 * per second. Stampede's samplers are read through the plugin's own property names.
 *
 * <p>A plain thread has no fixed rate: it sends its next request as soon as the last one is answered. Without
 * timers that rate is bounded by the response time, so the estimate assumes {@link #ASSUMED_SAMPLE_MILLIS} per
 * sample (a LAN response time) and says so; --rate replaces the estimate with a real figure.
 *
 * @param load the connections and new connections per second, with how they were obtained
 * @param targets the distinct host:port pairs the plan's samplers address
 */
public record LoadEstimate(PlannedLoad load, Set<String> targets) {

    /** Assumed time per sample of a thread with no timers; stated in the report. */
    public static final int ASSUMED_SAMPLE_MILLIS = 10;

    public LoadEstimate {
        targets = Set.copyOf(targets);
    }

    /**
     * The estimate for a parsed plan.
     *
     * @param properties JMeter properties given with -J name=value, used by ${__P(name,default)}
     * @throws PlanException naming the element, the field and the fix when a figure cannot be known
     */
    public static LoadEstimate of(JmxTree plan, Map<String, String> properties) throws PlanException {
        PlanLoadReader reader = new PlanLoadReader(plan.fileName(), new PropertyResolver(plan.fileName(), properties));
        reader.tree(plan.top(), null);
        if (reader.groups.isEmpty()) {
            throw new PlanException(reader.file + ": no enabled thread group found; add one or give --connections/--rate");
        }
        return result(reader);
    }

    /**
     * The users of the plan's Stampede Virtual User Thread Groups (0 when it has none): what its heap must hold.
     *
     * @throws PlanException naming the element and the field when a user count cannot be read
     */
    public static long virtualUsers(JmxTree plan, Map<String, String> properties) throws PlanException {
        PlanLoadReader reader = new PlanLoadReader(plan.fileName(), new PropertyResolver(plan.fileName(), properties));
        reader.tree(plan.top(), null);
        return reader.groups.stream().filter(PlanLoadReader.Group::virtual).mapToLong(PlanLoadReader.Group::threads)
                .sum();
    }

    private static LoadEstimate result(PlanLoadReader reader) throws PlanException {
        long connections = 0;
        double rate = 0;
        long total = 0;
        boolean totalKnown = true;
        List<String> basis = new ArrayList<>();
        boolean assumed = false;
        for (PlanLoadReader.Group g : reader.groups) {
            long perThread = 1;
            int newPerIteration = 0;
            int serverClosedPerIteration = 0;
            boolean resets = false;
            for (PlanLoadReader.Sampler s : g.samplers()) {
                if (s.serverCloses()) {
                    serverClosedPerIteration++;
                } else if (!s.keepAlive()) {
                    newPerIteration++;
                } else if (s.resetsPerIteration()) {
                    resets = true;
                } else {
                    perThread = Math.max(perThread, s.connectionsPerThread());
                }
            }
            if (resets) {
                newPerIteration++;
            }
            int samplesPerIteration = Math.max(1, g.samplers().size());
            double iterationsPerSecond;
            if (g.arrivalsPerSecond().isPresent()) {
                iterationsPerSecond = g.arrivalsPerSecond().getAsDouble();
            } else {
                iterationsPerSecond = g.threads() * 1000.0 / (samplesPerIteration * (double) ASSUMED_SAMPLE_MILLIS);
                assumed |= newPerIteration + serverClosedPerIteration > 0;
            }
            long groupConnections = g.threads() * perThread;
            double groupRate = iterationsPerSecond * newPerIteration;
            connections += groupConnections;
            rate += groupRate;
            if (g.loops().isPresent()) {
                total += g.threads() * g.loops().getAsLong() * newPerIteration;
            } else if (newPerIteration > 0) {
                totalKnown = false;
            }
            basis.add(describe(g, perThread, newPerIteration, serverClosedPerIteration > 0, groupRate));
            if (serverClosedPerIteration > 0) {
                basis.add("thread group " + g.name() + ": " + serverClosedPerIteration + " sampler(s) send 'Connection:"
                        + " close' (keep-alive off): about " + Numbers.rate(iterationsPerSecond * serverClosedPerIteration)
                        + " new connections/s that the server closes, so their TIME_WAIT is on the server, not here");
            }
        }
        if (assumed) {
            basis.add("new connections/s assume " + ASSUMED_SAMPLE_MILLIS + " ms per sample (LAN, no timers);"
                    + " give --rate for the real figure");
        }
        connections = shared(reader, connections, basis);
        OptionalDouble r = OptionalDouble.of(rate);
        OptionalLong t = rate > 0 && totalKnown ? OptionalLong.of(total) : OptionalLong.empty();
        return new LoadEstimate(new PlannedLoad(OptionalLong.of(connections), r, t, basis), reader.targets);
    }

    /**
     * With {@code stampede.connection_sharing=engine} Stampede's samplers borrow from one pool per target, so
     * the open connections are capped by the pool, whatever the number of users.
     */
    private static long shared(PlanLoadReader reader, long connections, List<String> basis) throws PlanException {
        String mode = reader.setting(PluginNames.CONNECTION_SHARING, "thread");
        if (!mode.equals("engine")) {
            if (!mode.equals("thread") && !mode.isEmpty()) {
                throw new PlanException(PluginNames.CONNECTION_SHARING + "=" + mode + ": give thread (each user keeps its "
                        + "own connections) or engine (users share a pool of " + PluginNames.POOL_SIZE + ")");
            }
            if (reader.groups.stream().anyMatch(PlanLoadReader.Group::virtual) && connections > 0) {
                basis.add("virtual users keep their own connections (" + PluginNames.CONNECTION_SHARING + "=thread); with"
                        + " many idle users, -J " + PluginNames.CONNECTION_SHARING + "=engine shares a pool of at most "
                        + PluginNames.POOL_SIZE + " (default " + PluginNames.DEFAULT_POOL_SIZE + ") per target instead");
            }
            return connections;
        }
        String raw = reader.setting(PluginNames.POOL_SIZE, Long.toString(PluginNames.DEFAULT_POOL_SIZE));
        long size;
        try {
            size = Long.parseLong(raw);
        } catch (NumberFormatException e) {
            size = 0;
        }
        if (size < 1) {
            throw new PlanException(PluginNames.POOL_SIZE + "=" + raw + ": give the most connections per target the shared"
                    + " pool may open, a whole number of 1 or more (default " + PluginNames.DEFAULT_POOL_SIZE + ")");
        }
        long cap = size * Math.max(1, reader.targets.size());
        basis.add("connections shared by all users (" + PluginNames.CONNECTION_SHARING + "=engine): at most " + size
                + " per target (" + PluginNames.POOL_SIZE + ") x " + Math.max(1, reader.targets.size()) + " target(s)");
        return Math.min(connections, cap);
    }

    private static String describe(PlanLoadReader.Group g, long perThread, int newPerIteration, boolean serverCloses, double rate) {
        StringBuilder s = new StringBuilder("thread group " + g.name() + ": ");
        if (g.arrivalsPerSecond().isPresent()) {
            s.append(Numbers.rate(g.arrivalsPerSecond().getAsDouble())).append(" arrivals/s, ");
        }
        s.append(g.threads()).append(g.virtual() ? (g.threads() == 1 ? " virtual user" : " virtual users")
                : g.threads() == 1 ? " thread" : " threads");
        if (g.loops().isPresent()) {
            s.append(" x ").append(g.loops().getAsLong()).append(" loops");
        }
        s.append(", ").append(g.samplers().size()).append(" HTTP sampler(s), ");
        if (newPerIteration == 0) {
            s.append(serverCloses ? "no connections closed by the injector" : "keep-alive");
            if (perThread > 1) {
                s.append(", ").append(perThread).append(" connections per thread");
            }
        } else {
            s.append(newPerIteration).append(" connection(s) per iteration closed by the injector (");
            s.append(g.samplers().stream().anyMatch(PlanLoadReader.Sampler::resetsPerIteration)
                    ? "stock JMeter without 'Same user on each iteration' closes them at each iteration end"
                    : "keep-alive off");
            s.append(") = ").append(Numbers.rate(rate)).append(" new connections/s");
        }
        return s.toString();
    }
}
