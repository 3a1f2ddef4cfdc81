/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.validate;

import io.stampede.cluster.sys.StandInCertificate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * nginx -t and haproxy -c load the certificate files a configuration names, and those live on the target hosts,
 * usually not where the files are validated. A file naming TLS material that is missing here is checked as a copy
 * whose missing paths point at a self-signed stand-in, and its verdict names every missing path, so the rest of the
 * configuration is still judged by the real tool while nobody mistakes the pass for one with the real material.
 */
final class StandInTlsValidator extends CopyCheckingValidator {

    /** nginx's ssl_certificate / ssl_certificate_key take the path next; so does HAProxy's crt on a bind line. */
    private static final Set<String> TLS_KEYWORDS = Set.of("ssl_certificate", "ssl_certificate_key", "crt");

    StandInTlsValidator(ToolValidator tool) {
        super(tool);
    }

    @Override
    public Verdict check(Path file, String shownName) {
        String content;
        try {
            content = Files.readString(file);
        } catch (IOException e) {
            return tool.check(file, shownName);
        }
        Set<String> missing = tlsPaths(content).stream().filter(p -> !Files.exists(Path.of(p)))
                .collect(Collectors.toCollection(LinkedHashSet::new));
        if (missing.isEmpty()) {
            return tool.check(file, shownName);
        }
        try {
            String note = "TLS material not on this machine, checked with a self-signed stand-in: "
                    + String.join(", ", missing) + " (put the real files there before reloading)";
            return checkCopy(file, shownName, dir -> {
                Path standIn = dir.resolve("stand-in.pem");
                StandInCertificate.write(standIn);
                return replace(content, missing, standIn.toString());
            }, note);
        } catch (IOException e) {
            return new Verdict(shownName, "TLS material", Verdict.Status.FAIL, "missing here: "
                    + String.join(", ", missing) + ", and no stand-in could be made: " + e.getMessage());
        }
    }

    /** Every absolute path the file names as TLS material, in file order. */
    static List<String> tlsPaths(String content) {
        List<String> paths = new ArrayList<>();
        for (String line : content.split("\n")) {
            String[] tokens = tokens(line);
            for (int i = 0; i + 1 < tokens.length; i++) {
                String value = strip(tokens[i + 1]);
                if (TLS_KEYWORDS.contains(tokens[i]) && value.startsWith("/")) {
                    paths.add(value);
                }
            }
        }
        return paths;
    }

    private static String replace(String content, Set<String> missing, String standIn) {
        StringBuilder out = new StringBuilder();
        for (String line : content.split("\n", -1)) {
            String[] tokens = tokens(line);
            String replaced = line;
            for (int i = 0; i + 1 < tokens.length; i++) {
                String value = strip(tokens[i + 1]);
                if (TLS_KEYWORDS.contains(tokens[i]) && missing.contains(value)) {
                    replaced = replaced.replace(" " + value, " " + standIn);
                }
            }
            out.append(replaced).append('\n');
        }
        return out.substring(0, out.length() - 1);
    }

    private static String[] tokens(String line) {
        String code = line.contains("#") ? line.substring(0, line.indexOf('#')) : line;
        return code.strip().split("\\s+");
    }

    private static String strip(String token) {
        return token.endsWith(";") ? token.substring(0, token.length() - 1) : token;
    }
}
