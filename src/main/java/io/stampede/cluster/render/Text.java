/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.render;

/** A small line builder with indentation, so renderers read like the files they produce. */
final class Text {

    private final StringBuilder sb = new StringBuilder();
    private int depth;

    Text line(String line) {
        sb.append("    ".repeat(depth)).append(line).append('\n');
        return this;
    }

    Text blank() {
        sb.append('\n');
        return this;
    }

    /** Opens "head {" and indents what follows until {@link #close()}. */
    Text open(String head) {
        line(head + " {");
        depth++;
        return this;
    }

    /**
     * Opens an nft table that replaces any earlier copy: declaring then deleting it first makes the file
     * idempotent, so a second load (a restart, a reload) replaces the table and never duplicates its rules.
     */
    Text openReplacedNftTable(String family, String name) {
        line("table " + family + " " + name);
        line("delete table " + family + " " + name);
        blank();
        return open("table " + family + " " + name);
    }

    Text close() {
        depth--;
        return line("}");
    }

    Text indent() {
        depth++;
        return this;
    }

    Text outdent() {
        depth--;
        return this;
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
