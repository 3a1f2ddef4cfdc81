/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stampede.engine.websocket.WebSocketMessage;

import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which received message a sampler waits for: any, one whose text contains a string, one a regular expression finds
 * a match in, or a JSON message whose field (a dotted path such as {@code data.id}, or {@code $.data.id}, with
 * {@code [n]} for array elements) has a given value. A binary message is matched as lower-case hex. Immutable; it
 * runs on the session's event loop.
 */
final class MessageMatch implements Predicate<WebSocketMessage> {
    static final String ANY = "any";
    static final String CONTAINS = "contains";
    static final String REGEX = "regex";
    static final String JSON = "json";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String kind;
    private final String expression;
    private final String value;
    private final Pattern pattern;
    private final String[] path;

    private MessageMatch(String kind, String expression, String value, Pattern pattern, String[] path) {
        this.kind = kind;
        this.expression = expression;
        this.value = value;
        this.pattern = pattern;
        this.path = path;
    }

    /**
     * @throws IllegalArgumentException naming the property and the fix
     */
    static MessageMatch of(String kindText, String expression, String value) {
        String k = kindText == null || kindText.isBlank() ? ANY : kindText.trim().toLowerCase(Locale.ROOT);
        String e = expression == null ? "" : expression;
        switch (k) {
            case ANY:
                return new MessageMatch(k, e, value, null, null);
            case CONTAINS:
                requireExpression(k, e);
                return new MessageMatch(k, e, value, null, null);
            case REGEX:
                requireExpression(k, e);
                try {
                    return new MessageMatch(k, e, value, Pattern.compile(e), null);
                } catch (PatternSyntaxException bad) {
                    throw new IllegalArgumentException(WebSocketSampler.MATCH_EXPRESSION + ": '" + e + "' is not a "
                            + "regular expression (" + bad.getDescription() + "); fix it or use 'contains'");
                }
            case JSON:
                requireExpression(k, e);
                return new MessageMatch(k, e, value == null ? "" : value, null, jsonPath(e));
            default:
                throw new IllegalArgumentException(WebSocketSampler.MATCH + ": '" + kindText + "' is not a kind of "
                        + "match; use any, contains, regex or json");
        }
    }

    private static void requireExpression(String kind, String e) {
        if (e.isEmpty()) {
            throw new IllegalArgumentException(WebSocketSampler.MATCH_EXPRESSION + " is empty; a '" + kind
                    + "' match needs " + (JSON.equals(kind) ? "a field path such as data.id" : "the text to find"));
        }
    }

    private static String[] jsonPath(String e) {
        String p = e.startsWith("$.") ? e.substring(2) : e.startsWith("$") ? e.substring(1) : e;
        String[] parts = p.replace("[", ".[").split("\\.");
        for (String part : parts) {
            if (part.startsWith("[") && !part.matches("\\[\\d+]")) {
                throw new IllegalArgumentException(WebSocketSampler.MATCH_EXPRESSION + ": '" + e + "': an array "
                        + "index is a number in brackets, as in items[0].id");
            }
        }
        return parts;
    }

    /** Whether the inputs are these (so an unchanged sampler reuses its match). */
    boolean is(String k, String e, String v) {
        return kind.equalsIgnoreCase(k == null || k.isBlank() ? ANY : k.trim()) && expression.equals(e)
                && (value == null ? v == null || v.isEmpty() : value.equals(v));
    }

    @Override
    public boolean test(WebSocketMessage m) {
        switch (kind) {
            case CONTAINS:
                return m.text().contains(expression);
            case REGEX:
                return pattern.matcher(m.text()).find();
            case JSON:
                return m.isText() && value.equals(field(m.text()));
            default:
                return true;
        }
    }

    /** The field's text (a string's value, a number or boolean as written), or null if it is not there. */
    private String field(String json) {
        JsonNode n;
        try {
            n = MAPPER.readTree(json);
        } catch (JsonProcessingException notJson) {
            return null;
        }
        for (String part : path) {
            if (n == null) {
                return null;
            }
            if (part.isEmpty()) {
                continue;
            }
            n = part.startsWith("[") ? n.get(Integer.parseInt(part.substring(1, part.length() - 1))) : n.get(part);
        }
        return n == null || n.isContainerNode() ? null : n.asText();
    }

    @Override
    public String toString() {
        return ANY.equals(kind) ? "any message" : JSON.equals(kind) ? expression + " = " + value
                : kind + " " + expression;
    }
}
