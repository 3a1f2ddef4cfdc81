/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The status line and header fields of a response, read from the head the engine's framer kept, plus the text JMeter
 * shows as the result's response headers (the status line then each field line as received, each ended by LF, the
 * way stock's HttpClient 4 sampler writes them).
 */
final class ResponseHead {
    private final int status;
    private final String reason;
    private final HeaderFields fields;
    private final String text;

    private ResponseHead(int status, String reason, HeaderFields fields, String text) {
        this.status = status;
        this.reason = reason;
        this.fields = fields;
        this.text = text;
    }

    /** Parses a head the framer already validated: status line, field lines, blank line (CRLF or bare LF). */
    static ResponseHead parse(byte[] block, int length) {
        int nl = indexOf(block, 0, length, '\n');
        if (nl < 0) {
            return parseLines(new String(block, 0, length, StandardCharsets.ISO_8859_1), length);
        }
        // fast path, once per sample: the fields and the shown text straight from the bytes, without a String per
        // line; obs-fold or a line without a colon (neither passes nginx or the framer) take the general way below
        String statusLine = new String(block, 0, lineEnd(block, 0, nl), StandardCharsets.ISO_8859_1);
        StringBuilder shownStatus = new StringBuilder(statusLine.length() + 2);
        int status = statusLine(statusLine, shownStatus);
        byte[] text = new byte[shownStatus.length() + length];
        int at = 0;
        for (int i = 0; i < shownStatus.length(); i++) {
            text[at++] = (byte) shownStatus.charAt(i);
        }
        HeaderFields fields = new HeaderFields();
        for (int from = nl + 1; from < length; ) {
            int next = indexOf(block, from, length, '\n');
            int end = next < 0 ? length : lineEnd(block, from, next);
            if (end == from) {
                break;
            }
            int colon = indexOf(block, from, end, ':');
            if (block[from] == ' ' || block[from] == '\t' || colon < 0) {
                return parseLines(new String(block, 0, length, StandardCharsets.ISO_8859_1), length);
            }
            System.arraycopy(block, from, text, at, end - from);
            at += end - from;
            text[at++] = '\n';
            fields.add(trimmed(block, from, colon), trimmed(block, colon + 1, end));
            if (next < 0) {
                break;
            }
            from = next + 1;
        }
        return new ResponseHead(status, reasonOf(statusLine), fields,
                new String(text, 0, at, StandardCharsets.ISO_8859_1));
    }

    private static int indexOf(byte[] b, int from, int to, char c) {
        for (int i = from; i < to; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    /** The end of the line whose LF is at {@code nl}: before a CR that precedes it. */
    private static int lineEnd(byte[] b, int from, int nl) {
        return nl > from && b[nl - 1] == '\r' ? nl - 1 : nl;
    }

    /** The bytes from..to as ISO-8859-1, trimmed as {@link String#trim()} trims. */
    private static String trimmed(byte[] b, int from, int to) {
        while (from < to && (b[from] & 0xFF) <= ' ') {
            from++;
        }
        while (to > from && (b[to - 1] & 0xFF) <= ' ') {
            to--;
        }
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }

    /** Appends the status line as shown ("version status reason" and LF) to {@code text}; returns the status. */
    private static int statusLine(String statusLine, StringBuilder text) {
        int sp1 = statusLine.indexOf(' ');
        String version = sp1 < 0 ? statusLine : statusLine.substring(0, sp1);
        String rest = sp1 < 0 ? "" : statusLine.substring(sp1 + 1);
        int sp2 = rest.indexOf(' ');
        int status = Integer.parseInt((sp2 < 0 ? rest : rest.substring(0, sp2)).trim());
        text.append(version).append(' ').append(status).append(' ').append(reasonOf(statusLine)).append('\n');
        return status;
    }

    private static String reasonOf(String statusLine) {
        int sp1 = statusLine.indexOf(' ');
        int sp2 = sp1 < 0 ? -1 : statusLine.indexOf(' ', sp1 + 1);
        return sp2 < 0 ? "" : statusLine.substring(sp2 + 1);
    }

    /** The general way: the lines first, obs-fold continuations joined to their field by one space. */
    static ResponseHead parseLines(String all, int length) {
        List<String> lines = lines(all);
        String statusLine = lines.get(0);
        StringBuilder text = new StringBuilder(length);
        int status = statusLine(statusLine, text);
        List<String> fieldLines = new ArrayList<>(lines.size());
        for (int i = 1; i < lines.size() && !lines.get(i).isEmpty(); i++) {
            String line = lines.get(i);
            if ((line.charAt(0) == ' ' || line.charAt(0) == '\t') && !fieldLines.isEmpty()) {
                // obs-fold: a continuation of the previous field, joined by one space
                int last = fieldLines.size() - 1;
                fieldLines.set(last, fieldLines.get(last) + ' ' + line.trim());
            } else {
                fieldLines.add(line);
            }
        }
        HeaderFields fields = new HeaderFields();
        for (String line : fieldLines) {
            text.append(line).append('\n');
            int colon = line.indexOf(':');
            fields.add(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
        }
        return new ResponseHead(status, reasonOf(statusLine), fields, text.toString());
    }

    /** The lines of {@code all}, ended by LF or CRLF (a regex split costs more than the rest of the parse). */
    private static List<String> lines(String all) {
        List<String> lines = new ArrayList<>(16);
        int from = 0;
        for (int nl = all.indexOf('\n'); nl >= 0; nl = all.indexOf('\n', from)) {
            lines.add(all.substring(from, nl > from && all.charAt(nl - 1) == '\r' ? nl - 1 : nl));
            from = nl + 1;
        }
        lines.add(all.substring(from));
        return lines;
    }

    /**
     * This head as HTTP/2 shows it: the status line without a reason phrase ({@code HTTP/2 200}; HTTP/2 has none),
     * and the status's standard phrase as the result's message, as on HTTP/1.1.
     */
    ResponseHead http2(String standardReason) {
        int eol = text.indexOf('\n');
        return new ResponseHead(status, standardReason, fields, text.substring(0, eol).stripTrailing()
                + text.substring(eol));
    }

    int status() {
        return status;
    }

    String reason() {
        return reason;
    }

    /** The headers as JMeter shows them. */
    String text() {
        return text;
    }

    /** How many header fields (stock adds one byte per field to the header size, for the CR it drops). */
    int fieldCount() {
        return fields.size();
    }

    /** The header fields as received. */
    HeaderFields fields() {
        return fields;
    }

    /** The last value of {@code name} (as HttpClient 4's getLastHeader), or null. */
    String last(String name) {
        return fields.last(name);
    }

    /** Every value of {@code name}, in order. */
    List<String> all(String name) {
        return fields.all(name);
    }
}
