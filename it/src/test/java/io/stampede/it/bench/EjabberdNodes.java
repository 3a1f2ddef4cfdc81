/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import io.stampede.it.support.EjabberdServer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Independent ejabberd nodes for the XMPP benchmark, not a cluster: each started by {@link EjabberdServer} from a
 * folder of its own (configuration, SQLite users, Mnesia spool, node name, cookie, ports), each with its own users
 * user1..userK. An engine's users message each other (the plan's {@code {peer}} is a session of the same JMeter
 * thread) and their rosters' users of the test are the next users of the same node, so no stanza has to cross nodes
 * and the field report's shape holds on every node; a cluster would add inter-node routing and a shared database
 * that the workload never needs.
 */
final class EjabberdNodes implements AutoCloseable {
    private final List<EjabberdServer> nodes;

    private EjabberdNodes(List<EjabberdServer> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /** Starts {@code count} nodes one after the other, node i with {@code options.apply(i)}; all or none. */
    static EjabberdNodes start(int count, IntFunction<EjabberdServer.Options> options) {
        List<EjabberdServer> started = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                started.add(EjabberdServer.start(options.apply(i)));
            }
        } catch (RuntimeException e) {
            started.forEach(EjabberdServer::close);
            throw e;
        }
        return new EjabberdNodes(started);
    }

    EjabberdServer node(int i) {
        return nodes.get(i);
    }

    int size() {
        return nodes.size();
    }

    /** Every node's Erlang VM and its children, for CPU and resident memory. */
    List<ProcessHandle> processes() {
        List<ProcessHandle> all = new ArrayList<>();
        nodes.forEach(n -> all.addAll(n.processes()));
        return all;
    }

    /** The nodes' resident memory now, summed. */
    long rssKb() {
        return processes().stream().mapToLong(p -> ProcessWatch.rssKb(p.pid())).sum();
    }

    @Override
    public void close() {
        nodes.forEach(EjabberdServer::close);
    }
}
