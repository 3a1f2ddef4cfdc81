/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http1;

/**
 * Renders received bytes for error messages. The messages end up in a JTL's one-line response message, so control
 * bytes are escaped and long lines are cut.
 */
final class Ascii {
    static final int MAX_QUOTED = 80;

    private Ascii() {
    }

    /** {@code b[from..end)} as text, control bytes escaped ({@code \r}, {@code \x00}), cut after 80 characters. */
    static String printable(byte[] b, int from, int end) {
        StringBuilder s = new StringBuilder(Math.min(end - from, MAX_QUOTED) + 8);
        int stop = Math.min(end, from + MAX_QUOTED);
        for (int i = from; i < stop; i++) {
            appendEscaped(s, b[i]);
        }
        if (end > stop) {
            s.append("...");
        }
        return s.toString();
    }

    /** One byte for a message: {@code 'x'}, or {@code byte 0x0d} for a control byte. */
    static String describe(byte c) {
        return c >= 0x20 && c < 0x7f ? "'" + (char) c + "'" : String.format("byte 0x%02x", c & 0xff);
    }

    private static void appendEscaped(StringBuilder s, byte c) {
        if (c == '\r') {
            s.append("\\r");
        } else if (c == '\n') {
            s.append("\\n");
        } else if (c == '\t') {
            s.append("\\t");
        } else if ((c >= 0 && c < 0x20) || c == 0x7f) {
            s.append(String.format("\\x%02x", c & 0xff));
        } else {
            s.append((char) (c & 0xff));
        }
    }
}
