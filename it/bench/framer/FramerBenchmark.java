/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.bench.framer;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Times two versions of {@code io.stampede.engine.ResponseFramer} in one JVM on the same recorded responses: each
 * version in its own class loader, alternating old/new (the order flips every round), after warm-up rounds. Prints
 * CPU ns per response (this thread's CPU time) per round, the medians, the median ratio and the weakest round's ratio (new / old: below 1 means
 * the new framer is faster). Started by it/bench/framer-benchmark.sh, which builds both versions.
 */
public final class FramerBenchmark {
    private static final int KEEP_LIMIT = 64 * 1024;
    private static final ThreadMXBean THREAD_CPU = ManagementFactory.getThreadMXBean();

    private record Options(Path oldClasses, Path newClasses, Path loopClasses, Path oldLoopClasses, Path responses,
                           String oldName, int rounds, int warmupRounds, int millis) {
        static Options parse(String[] args) {
            Path oldClasses = null;
            Path newClasses = null;
            Path loopClasses = null;
            Path oldLoopClasses = null;
            Path responses = null;
            String oldName = "old";
            int rounds = 15;
            int warmup = 5;
            int millis = 200;
            for (int i = 0; i < args.length; i += 2) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                String v = args[i + 1];
                switch (args[i]) {
                    case "--old-classes" -> oldClasses = Path.of(v);
                    case "--new-classes" -> newClasses = Path.of(v);
                    case "--loop-classes" -> loopClasses = Path.of(v);
                    case "--old-loop-classes" -> oldLoopClasses = Path.of(v);
                    case "--responses" -> responses = Path.of(v);
                    case "--old-name" -> oldName = v;
                    case "--rounds" -> rounds = positive(args[i], v);
                    case "--warmup" -> warmup = positive(args[i], v);
                    case "--millis" -> millis = positive(args[i], v);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + " (known: --rounds N, --warmup N, --millis N)");
                }
            }
            if (oldClasses == null || newClasses == null || loopClasses == null || responses == null) {
                throw new IllegalArgumentException("--old-classes, --new-classes, --loop-classes and --responses are"
                        + " required (it/bench/framer-benchmark.sh passes them)");
            }
            return new Options(oldClasses, newClasses, loopClasses, oldLoopClasses == null ? loopClasses : oldLoopClasses,
                    responses, oldName, rounds, warmup, millis);
        }

        private static int positive(String option, String value) {
            try {
                int n = Integer.parseInt(value);
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(option + " must be a positive whole number, not \"" + value + '"');
        }
    }

    /** One recorded response fed in a given way, framed by both versions. */
    private record Case(String name, LongUnaryOperator oldLoop, LongUnaryOperator newLoop) {
    }

    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("framer-benchmark: " + e.getMessage());
            System.exit(2);
            return;
        }
        List<Case> cases = cases(o);
        System.out.printf(Locale.ROOT, "framer benchmark: old = ResponseFramer %s, new = %s; java %s%n"
                        + "%d rounds of %d ms per framer and case after %d warm-up rounds, old/new order flipped"
                        + " every round, one JVM%n%n", o.oldName(), o.newClasses(), Runtime.version(), o.rounds(),
                o.millis(), o.warmupRounds());
        // Every case warms up before any is measured: the JIT compiles each framer with all its paths in use.
        long[] blocks = new long[cases.size()];
        for (int i = 0; i < cases.size(); i++) {
            blocks[i] = calibrate(cases.get(i), o.millis());
        }
        for (int r = 0; r < o.warmupRounds(); r++) {
            for (int i = 0; i < cases.size(); i++) {
                time(cases.get(i).oldLoop(), blocks[i]);
                time(cases.get(i).newLoop(), blocks[i]);
            }
        }
        List<String> summary = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            summary.add(run(cases.get(i), blocks[i], o));
        }
        System.out.printf("%nsummary (ns per response; new/old below 1 = new is faster; weakest = the round worst"
                + " for new)%n%-40s %10s %10s %10s %10s%n", "case", "old med", "new med", "median", "weakest");
        summary.forEach(System.out::println);
    }

    private static List<Case> cases(Options o) throws Exception {
        ClassLoader oldLoader = new IsolatingLoader(o.oldLoopClasses(), o.oldClasses());
        ClassLoader newLoader = new IsolatingLoader(o.loopClasses(), o.newClasses());
        List<Path> files;
        try (Stream<Path> s = Files.list(o.responses())) {
            files = s.filter(p -> p.toString().endsWith(".http")).sorted().toList();
        }
        if (files.isEmpty()) {
            throw new IOException("no *.http recorded responses in " + o.responses());
        }
        List<Case> cases = new ArrayList<>();
        for (Path file : files) {
            byte[] response = Files.readAllBytes(file);
            int headEnd = headEnd(response, file);
            String base = file.getFileName().toString().replace(".http", "");
            for (int[] cuts : new int[][] {{}, {headEnd}}) {
                String name = base + (cuts.length == 0 ? ", 1 read" : ", 2 reads");
                LongUnaryOperator oldLoop = loop(oldLoader, response, cuts);
                LongUnaryOperator newLoop = loop(newLoader, response, cuts);
                String oldOutcome = ((Supplier<?>) oldLoop).get().toString();
                String newOutcome = ((Supplier<?>) newLoop).get().toString();
                if (!oldOutcome.equals(newOutcome)) {
                    throw new IllegalStateException(name + ": the framers disagree: old " + oldOutcome + "; new "
                            + newOutcome);
                }
                System.out.printf("%-28s %4d bytes: %s (both)%n", name, response.length, newOutcome);
                cases.add(new Case(name, oldLoop, newLoop));
            }
        }
        System.out.println();
        return cases;
    }

    private static int headEnd(byte[] b, Path file) {
        for (int i = 0; i + 3 < b.length; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') {
                return i + 4;
            }
        }
        throw new IllegalArgumentException(file + " has no CRLF CRLF after its head");
    }

    private static LongUnaryOperator loop(ClassLoader loader, byte[] response, int[] cuts) throws Exception {
        return (LongUnaryOperator) loader.loadClass(FramerLoop.class.getName())
                .getConstructor(byte[].class, int[].class, Integer.class)
                .newInstance(response, cuts, KEEP_LIMIT);
    }

    /** Responses per block so that one block of one framer takes about {@code millis}. */
    private static long calibrate(Case c, int millis) {
        long n = 1000;
        for (int i = 0; i < 5; i++) {
            long t = time(c.oldLoop(), n) + time(c.newLoop(), n);
            n = Math.max(1000, (long) (n * (2.0 * millis * 1e6 / Math.max(t, 1))));
        }
        return n;
    }

    private static String run(Case c, long n, Options o) {
        System.out.printf("%s: %,d responses per block%nround  order     old ns/resp  new ns/resp  new/old  (thread CPU time)%n",
                c.name(), n);
        double[] olds = new double[o.rounds()];
        double[] news = new double[o.rounds()];
        double[] ratios = new double[o.rounds()];
        for (int r = 0; r < o.rounds(); r++) {
            boolean oldFirst = r % 2 == 0;
            double first = time(oldFirst ? c.oldLoop() : c.newLoop(), n) / (double) n;
            double second = time(oldFirst ? c.newLoop() : c.oldLoop(), n) / (double) n;
            olds[r] = oldFirst ? first : second;
            news[r] = oldFirst ? second : first;
            ratios[r] = news[r] / olds[r];
            System.out.printf(Locale.ROOT, "%5d  %-8s %12.1f %12.1f    x%.3f%n", r + 1,
                    oldFirst ? "old,new" : "new,old", olds[r], news[r], ratios[r]);
        }
        double weakest = Arrays.stream(ratios).max().orElseThrow();
        String line = String.format(Locale.ROOT, "%-40s %10.1f %10.1f %9s  %9s", c.name(), median(olds),
                median(news), String.format(Locale.ROOT, "x%.3f", median(ratios)),
                String.format(Locale.ROOT, "x%.3f", weakest));
        System.out.printf(Locale.ROOT, "median %17.1f %12.1f    x%.3f   weakest round x%.3f%n%n", median(olds),
                median(news), median(ratios), weakest);
        return line;
    }

    /** CPU time of this thread (not wall time), so that other processes on a shared machine count less. */
    private static long time(LongUnaryOperator loop, long n) {
        long start = THREAD_CPU.getCurrentThreadCpuTime();
        long sink = loop.applyAsLong(n);
        long elapsed = THREAD_CPU.getCurrentThreadCpuTime() - start;
        if (sink == 42) {
            System.out.print(""); // keeps the sum alive
        }
        return elapsed;
    }

    private static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }
}
