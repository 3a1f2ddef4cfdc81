/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.share;

import io.stampede.plan.JmxTree;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.w3c.dom.Element;

/**
 * What each kind of element divides into a share: a thread group's users (or, when some share would get none, its
 * Stampede samplers' connections and target rate), a timer's throughput, a whole count, a CSV Data Set's rows. Each
 * rule writes the share's part in the element's place, adds a note where the plan runs otherwise than a user might
 * expect, or refuses with the reason and the fix.
 */
final class DivisionRules {
    static final String VIRTUAL_USERS = "io.stampede.threads.VirtualUserThreadGroup";
    static final String STEPPING = "kg.apc.jmeter.threads.SteppingThreadGroup";
    static final String CONCURRENCY = "com.blazemeter.jmeter.threads.concurrency.ConcurrencyThreadGroup";
    static final String ARRIVALS = "com.blazemeter.jmeter.threads.arrivals.ArrivalsThreadGroup";
    static final String CONNECTIONS = "stampede.connections_per_thread";
    static final String TARGET_RATE = "stampede.target_rate";

    private final ShareText share;
    private final PlanFields fields;
    private final Path planDir;
    private final List<String> notes = new ArrayList<>();
    private final List<DividedPlan.CsvShare> csv = new ArrayList<>();

    /** @param planDir where the plan's relative CSV file names start */
    DivisionRules(ShareText share, PlanFields fields, Path planDir) {
        this.share = share;
        this.fields = fields;
        this.planDir = planDir;
    }

    /** What the rules noted so far: where a share runs otherwise than by dividing. */
    List<String> notes() {
        return notes;
    }

    /** The CSV Data Sets met so far, each with its rows for every share. */
    List<DividedPlan.CsvShare> csvShares() {
        return csv;
    }

    void group(JmxTree.Entry g) {
        String type = g.type();
        switch (type) {
            case "ThreadGroup", VIRTUAL_USERS -> threads(g, "ThreadGroup.num_threads");
            case STEPPING -> {
                threads(g, "ThreadGroup.num_threads");
                for (String f : List.of("Start users count", "Start users count burst", "Stop users count")) {
                    whole(g, f);
                }
            }
            case CONCURRENCY -> threads(g, "TargetLevel");
            case ARRIVALS -> {
                rate(g, "TargetLevel");
                whole(g, "ConcurrencyLimit");
                whole(g, "ArrivalsLimit");
            }
            case "SetupThreadGroup", "PostThreadGroup" -> notes.add(PlanFields.describe(g) + " runs whole in every"
                    + " share (it prepares or cleans up what each injector needs)");
            default -> throw fields.refuse(g, "Stampede divides the Thread Group, the Stepping, Concurrency and"
                    + " Arrivals Thread Groups and the Virtual User Thread Group, not " + type + "; use one of those,"
                    + " or give each injector its own copy of the plan");
        }
    }

    /**
     * The group's users divided; when some share would get none and the group's load is in its Stampede samplers'
     * connections or target rate per thread, those are divided instead and every share keeps the users.
     */
    private void threads(JmxTree.Entry g, String field) {
        long users = fields.number(g, field);
        List<Element> perThread = new ArrayList<>();
        boolean onlyStampede = g.children() == null || stampedeSamplers(g.children(), perThread);
        if (users >= share.count() || perThread.isEmpty()) {
            PlanFields.write(PlanFields.prop(g.element(), field), share.whole(users));
            return;
        }
        if (!onlyStampede) {
            throw fields.refuse(g, users + " users for " + share.count() + " shares, and samplers other than"
                    + " Stampede's, whose load is per user: give at least " + share.count() + " users or fewer shares");
        }
        for (Element s : perThread) {
            Element c = PlanFields.prop(s, CONNECTIONS);
            if (c != null) {
                long connections = fields.number(g, s, CONNECTIONS);
                if (connections < share.count()) {
                    throw fields.refuse(g, users + " users with " + connections + " connections each for "
                            + share.count() + " shares: give at least " + share.count()
                            + " users or connections, or fewer shares");
                }
                PlanFields.write(c, share.whole(connections));
            }
            Element r = PlanFields.prop(s, TARGET_RATE);
            if (r != null) {
                PlanFields.write(r, share.rate(fields.decimal(g, s, TARGET_RATE)));
            }
        }
        notes.add(PlanFields.describe(g) + ": " + users + " users for " + share.count() + " shares, so every share"
                + " keeps them and divides their connections and target rate");
    }

    /** True when every sampler under the tree is Stampede's; collects those with a per-thread load. */
    private static boolean stampedeSamplers(Element hashTree, List<Element> perThread) {
        boolean only = true;
        for (JmxTree.Entry e : JmxTree.children(hashTree)) {
            String type = e.type();
            if (type.startsWith("io.stampede.")) {
                if (PlanFields.prop(e.element(), CONNECTIONS) != null
                        || PlanFields.prop(e.element(), TARGET_RATE) != null) {
                    perThread.add(e.element());
                }
            } else if (type.contains("Sampler")) {
                only = false;
            }
            if (e.children() != null) {
                only &= stampedeSamplers(e.children(), perThread);
            }
        }
        return only;
    }

    void throughputTimer(JmxTree.Entry t) {
        String mode = fields.value(t, t.element(), "calcMode");
        if (mode.isEmpty() || mode.equals("0")) {
            notes.add(PlanFields.describe(t) + " paces each thread (\"this thread only\"): divided with the threads");
            return;
        }
        rate(t, "throughput");
    }

    void rate(JmxTree.Entry e, String field) {
        Element p = PlanFields.prop(e.element(), field);
        if (p != null && !fields.value(e, e.element(), field).isEmpty()) {
            PlanFields.write(p, share.rate(fields.decimal(e, e.element(), field)));
        }
    }

    /** A whole number divided; absent or blank (the element's own default, such as "no limit") is left alone. */
    void whole(JmxTree.Entry e, String field) {
        Element p = PlanFields.prop(e.element(), field);
        if (p != null && !fields.value(e, e.element(), field).isEmpty()) {
            long n = fields.number(e, field);
            if (n > 0) {
                PlanFields.write(p, share.whole(n));
            }
        }
    }

    void csv(JmxTree.Entry c) {
        String name = fields.value(c, c.element(), "filename");
        if (name.isEmpty()) {
            throw fields.refuse(c, "it has no file name to divide; set Filename");
        }
        Path source = planDir.resolve(name).normalize();
        String encoding = fields.value(c, c.element(), "fileEncoding");
        String text;
        try {
            text = Files.readString(source, encoding.isEmpty() ? StandardCharsets.UTF_8 : Charset.forName(encoding));
        } catch (IOException | IllegalArgumentException ex) {
            throw fields.refuse(c, "its file " + source + " cannot be read to divide its rows (" + ex.getMessage()
                    + "); fix Filename (relative to the plan's folder)");
        }
        boolean header = fields.value(c, c.element(), "variableNames").isEmpty()
                || "true".equals(fields.value(c, c.element(), "ignoreFirstLine"));
        CsvRows rows = CsvRows.of(text, header ? 1 : 0, "true".equals(fields.value(c, c.element(), "quotedData")));
        if (rows.rows().size() < share.count()) {
            throw fields.refuse(c, source.getFileName() + " has " + rows.rows().size() + " rows for " + share.count()
                    + " shares, and two shares never use the same row: give at least " + share.count() + " rows");
        }
        csv.add(new DividedPlan.CsvShare(PlanFields.prop(c.element(), "filename"), source,
                share.shares().stream().map(rows::shareOf).toList(), rows.rows().size()));
    }
}
