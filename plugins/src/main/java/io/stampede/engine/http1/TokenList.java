/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

/**
 * A cursor over a comma-separated header value such as Transfer-Encoding or Connection (RFC 9110 §5.6.1): each
 * element is a token with optional {@code ;name=value} parameters (RFC 9112 §7, transfer-coding). Empty elements are
 * skipped, as the RFC asks of recipients. CR and LF count as whitespace because a value continued on the next line
 * (obs-fold) keeps its line break in the header block. One instance per framer, reused; never allocates unless an
 * element is malformed.
 */
final class TokenList {
    private static final boolean[] TCHAR = new boolean[256];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
    }

    private byte[] b;
    private int pos;
    private int end;
    private int nameStart;
    private int nameEnd;
    private boolean parameters;
    private String problem;

    TokenList over(byte[] bytes, int from, int to) {
        b = bytes;
        pos = from;
        end = to;
        return this;
    }

    /** Moves to the next non-empty element; false when none is left. */
    boolean next() {
        problem = null;
        parameters = false;
        while (pos < end && (b[pos] == ',' || isWhitespace(b[pos]))) {
            pos++;
        }
        if (pos == end) {
            return false;
        }
        nameStart = pos;
        nameEnd = tokenEnd(b, pos, end);
        pos = nameEnd;
        if (nameEnd == nameStart) {
            problem = Ascii.describe(b[pos]) + " where a token belongs";
        } else {
            readParameters();
        }
        if (problem != null) {
            while (pos < end && b[pos] != ',') {
                pos++;
            }
        }
        return true;
    }

    private void readParameters() {
        for (;;) {
            int p = skipWhitespace(pos);
            if (p == end || b[p] == ',') {
                pos = p;
                return;
            }
            pos = p;
            if (b[p] != ';') {
                problem = Ascii.describe(b[p]) + " after \"" + Ascii.printable(b, nameStart, p) + "\" where ',' or ';'"
                        + " belongs";
                return;
            }
            parameters = true;
            int name = skipWhitespace(p + 1);
            int n = tokenEnd(b, name, end);
            if (n == name) {
                problem = "a parameter without a name";
                return;
            }
            p = skipWhitespace(n);
            if (p == end || b[p] != '=') {
                problem = "parameter \"" + Ascii.printable(b, name, n) + "\" without '='";
                return;
            }
            p = skipWhitespace(p + 1);
            int v = p < end && b[p] == '"' ? quotedEnd(b, p, end) : tokenEnd(b, p, end);
            if (v <= p) {
                problem = "a parameter without a value";
                pos = p;
                return;
            }
            pos = v;
        }
    }

    /** Index after the closing quote of the quoted-string starting at {@code open}, or -1 when it is unterminated. */
    static int quotedEnd(byte[] b, int open, int end) {
        for (int i = open + 1; i < end; i++) {
            if (b[i] == '\\') {
                i++;
            } else if (b[i] == '"') {
                return i + 1;
            }
        }
        return -1;
    }

    private int skipWhitespace(int from) {
        while (from < end && isWhitespace(b[from])) {
            from++;
        }
        return from;
    }

    /** Why the current element is malformed, or null when it is well-formed. */
    String problem() {
        return problem;
    }

    /** Whether the element is well-formed and its token is {@code lower} (case-insensitive), parameters or not. */
    boolean nameIs(String lower) {
        if (problem != null || nameEnd - nameStart != lower.length()) {
            return false;
        }
        for (int i = 0; i < lower.length(); i++) {
            if ((b[nameStart + i] | 0x20) != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the element carried {@code ;name=value} parameters. */
    boolean hasParameters() {
        return parameters;
    }

    static boolean isTchar(byte c) {
        return TCHAR[c & 0xff];
    }

    /** End of the token starting at {@code from} (== from when there is none). */
    static int tokenEnd(byte[] b, int from, int end) {
        int i = from;
        while (i < end && isTchar(b[i])) {
            i++;
        }
        return i;
    }

    private static boolean isWhitespace(byte c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }
}
