/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.docs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Markdown page offers to links and what it links to: the anchors of its headings, spelled as GitHub renders
 * them (the repository site is where users read these pages), and its link targets outside code. Only what the
 * project's pages use is understood: ATX headings, inline links and images, reference definitions, HTML ids.
 */
final class MarkdownPage {
    private static final Pattern FENCE = Pattern.compile("^\\s{0,3}(```|~~~)");
    private static final Pattern HEADING = Pattern.compile("^\\s{0,3}#{1,6}\\s+(.*?)(\\s+#+)?\\s*$");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");
    /** [text](target "title") and ![alt](target); the text may hold code spans with brackets, not nested links. */
    private static final Pattern INLINE_LINK =
            Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(\\s+\"[^\"]*\")?\\s*$");
    private static final Pattern HTML_ID = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");
    /** GitHub keeps letters, marks, digits, '-', '_' and spaces of a heading's text, and drops the rest. */
    private static final Pattern NOT_IN_SLUG = Pattern.compile("[^\\p{L}\\p{M}\\p{N}\\- _]");

    private final Set<String> anchors;
    private final List<Link> links;

    private MarkdownPage(Set<String> anchors, List<Link> links) {
        this.anchors = anchors;
        this.links = links;
    }

    /** A link as written on one line of the page (1-based). */
    record Link(int line, String target) {
    }

    static MarkdownPage parse(String text) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        List<Link> links = new ArrayList<>();
        boolean inFence = false;
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
                continue;
            }
            if (inFence) {
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                anchors.add(unique(slug(h.group(1)), seen));
            }
            Matcher id = HTML_ID.matcher(line);
            while (id.find()) {
                anchors.add(id.group(1));
            }
            Matcher ref = REFERENCE.matcher(line);
            if (ref.matches()) {
                links.add(new Link(i + 1, ref.group(1)));
                continue;
            }
            Matcher l = INLINE_LINK.matcher(withoutCodeSpans(line));
            while (l.find()) {
                links.add(new Link(i + 1, l.group(1)));
            }
        }
        return new MarkdownPage(anchors, links);
    }

    /** The anchor GitHub gives a heading: its rendered text, lower-cased, punctuation dropped, spaces as hyphens. */
    static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "");
        return NOT_IN_SLUG.matcher(text.toLowerCase(Locale.ROOT)).replaceAll("").replace(' ', '-');
    }

    private static String unique(String slug, Map<String, Integer> seen) {
        Integer n = seen.merge(slug, 1, Integer::sum);
        return n == 1 ? slug : slug + "-" + (n - 1);
    }

    /** Code spans blanked out (keeping the line's length), so that a link shown as code is not taken for one. */
    private static String withoutCodeSpans(String line) {
        Matcher m = CODE_SPAN.matcher(line);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(b, Matcher.quoteReplacement(" ".repeat(m.group().length())));
        }
        m.appendTail(b);
        return b.toString();
    }

    Set<String> anchors() {
        return anchors;
    }

    List<Link> links() {
        return links;
    }
}
