/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The catalogue module's verbose dependency tree ({@code mvn dependency:tree -Dverbose}, catalogue/target/tree.txt):
 * which jars each plugin needs, and whether Maven gave any plugin an older library than it asked for.
 */
final class CatalogueTree {

    /** One line of the tree: an artifact as resolved, the version it asked for, and whether Maven omitted it. */
    record Node(Coordinates coordinates, String requested, boolean omitted, List<Node> children) {}

    private final List<Node> plugins;
    private final Map<String, Node> expanded = new LinkedHashMap<>();

    private CatalogueTree(List<Node> plugins) {
        this.plugins = plugins;
        plugins.forEach(this::remember);
    }

    static CatalogueTree parse(List<String> lines) {
        Node root = new Node(null, null, false, new ArrayList<>());
        List<Node> stack = new ArrayList<>(List.of(root));
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            int start = 0;
            while (start < line.length() && " |+\\-".indexOf(line.charAt(start)) >= 0) {
                start++;
            }
            int depth = start / 3;
            Node node = node(line.substring(start));
            while (stack.size() > depth) {
                stack.remove(stack.size() - 1);
            }
            stack.get(stack.size() - 1).children().add(node);
            stack.add(node);
        }
        return new CatalogueTree(root.children());
    }

    /** {@code g:a:jar:v:scope}, {@code g:a:jar:v:scope (version managed from x)} or {@code (g:a:jar:v:scope - ...)}. */
    private static Node node(String text) {
        boolean omitted = text.startsWith("(");
        String body = omitted ? text.substring(1, text.length() - 1) : text;
        String note = "";
        int cut = body.indexOf(omitted ? " - " : " (");
        if (cut > 0) {
            note = body.substring(cut);
            body = body.substring(0, cut);
        }
        String[] p = body.split(":");
        String version = p.length == 6 ? p[4] : p[3];
        String requested = version;
        int from = note.indexOf("managed from ");
        if (from >= 0) {
            requested = note.substring(from + 13).split("[;)]")[0].trim();
        }
        int conflict = note.indexOf("omitted for conflict with ");
        Coordinates c = new Coordinates(p[0], p[1], version);
        if (conflict >= 0) {
            // the tree shows the version asked for; the one installed is the winner named after "with"
            String winner = note.substring(conflict + 26).replace(")", "").trim();
            return new Node(new Coordinates(p[0], p[1], winner), version, true, new ArrayList<>());
        }
        return new Node(c, requested, omitted, new ArrayList<>());
    }

    private void remember(Node n) {
        if (!n.omitted()) {
            expanded.putIfAbsent(n.coordinates().key(), n);
        }
        n.children().forEach(this::remember);
    }

    List<Node> plugins() {
        return plugins;
    }

    /** Every jar a node needs besides its own, in tree order (omitted duplicates followed to where they are expanded). */
    List<Coordinates> closure(Node node) {
        Set<String> seen = new LinkedHashSet<>();
        List<Coordinates> out = new ArrayList<>();
        collect(node, seen, out);
        out.remove(node.coordinates());
        return out;
    }

    private void collect(Node node, Set<String> seen, List<Coordinates> out) {
        Node full = node.omitted() ? expanded.getOrDefault(node.coordinates().key(), node) : node;
        if (!seen.add(full.coordinates().key())) {
            return;
        }
        out.add(full.coordinates());
        for (Node c : full.children()) {
            collect(c, seen, out);
        }
    }

    /** Every expanded node: each jar the catalogue resolves, once. */
    List<Node> all() {
        return List.copyOf(expanded.values());
    }

    /** Each place where Maven gave an artifact an older version than it asked for, as a sentence. */
    List<String> downgrades() {
        List<String> out = new ArrayList<>();
        plugins.forEach(p -> downgrades(p, p, out));
        return out;
    }

    private static void downgrades(Node plugin, Node n, List<String> out) {
        if (Versions.compare(n.requested(), n.coordinates().version()) > 0) {
            out.add(plugin.coordinates() + " asks for " + n.coordinates().key() + ":" + n.requested()
                    + " but the catalogue resolves " + n.coordinates().version());
        }
        n.children().forEach(c -> downgrades(plugin, c, out));
    }
}
