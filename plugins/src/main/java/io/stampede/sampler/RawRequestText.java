/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.names.PluginNames;

/** Turns the user's raw request text into what goes on the wire, and reads its request line. */
final class RawRequestText {
    private RawRequestText() {
    }

    /**
     * Line endings become CRLF (text areas and .jmx files keep bare LF) and the header block gets its closing blank
     * line if the text lacks it (a text area trims it away, and the server would then wait forever). Bytes of a body
     * after the blank line are normalised too: use crlf=false to send a body byte for byte.
     */
    static String normalise(String raw) {
        StringBuilder sb = new StringBuilder(raw.length() + 16);
        for (int i = 0; i < raw.length(); i++) {
            char ch = raw.charAt(i);
            if (ch == '\r') {
                sb.append("\r\n");
                if (i + 1 < raw.length() && raw.charAt(i + 1) == '\n') {
                    i++;
                }
            } else if (ch == '\n') {
                sb.append("\r\n");
            } else {
                sb.append(ch);
            }
        }
        if (sb.indexOf("\r\n\r\n") < 0) {
            while (sb.length() > 0 && (sb.charAt(sb.length() - 1) == '\n' || sb.charAt(sb.length() - 1) == '\r')) {
                sb.setLength(sb.length() - 1);
            }
            sb.append("\r\n\r\n");
        }
        return sb.toString();
    }

    /** Adds "Connection: close" after the request line unless the header block already has a Connection header. */
    static String withConnectionClose(String text) {
        int headersEnd = text.indexOf("\r\n\r\n");
        String head = (headersEnd < 0 ? text : text.substring(0, headersEnd)).toLowerCase(java.util.Locale.ROOT);
        if (head.contains("\nconnection:")) {
            return text;
        }
        int eol = text.indexOf("\r\n");
        if (eol < 0) {
            return text;
        }
        return text.substring(0, eol + 2) + "Connection: close\r\n" + text.substring(eol + 2);
    }

    /** The first and second words of the request line: {method, target}. */
    static String[] requestLine(String text) {
        int eol = text.indexOf('\n');
        String line = (eol < 0 ? text : text.substring(0, eol)).trim();
        String[] words = line.split("[ \t]+", 3);
        if (words.length < 2 || words[0].isEmpty()) {
            throw new IllegalArgumentException(PluginNames.RAW_REQUEST + ": the first line must be a request line "
                    + "such as 'GET /path HTTP/1.1', found '" + line + "'");
        }
        return new String[] {words[0], words[1]};
    }
}
