/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.validate;

import io.stampede.cluster.render.OutputWriter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Walks a rendered tree and gives every file the verdict of the validator made for its kind. */
public final class ClusterValidator {

    private final List<FileValidator> validators = List.of(
            new ScriptUserValidator(new ToolValidator("keepalived", List.of("-t", "-f"), List.of(),
                    p -> name(p).equals("keepalived.conf"), true)),
            new StandInTlsValidator(new ToolValidator("haproxy", List.of("-c", "-f"), List.of(),
                    p -> name(p).endsWith(".cfg"), false)),
            new StandInTlsValidator(new ToolValidator("nginx", List.of("-t", "-q", "-c"), List.of(),
                    p -> name(p).equals("nginx.conf"), false)),
            new ToolValidator("nft", List.of("-c", "-f"), List.of(), p -> name(p).endsWith(".nft"), false),
            new ToolValidator("systemd-analyze", List.of("verify", "--man=no"), List.of(),
                    p -> name(p).endsWith(".service"), false),
            new GrammarValidator("stampede ipvsadm-restore grammar", p -> name(p).endsWith(".rules"),
                    new IpvsadmGrammar()::check),
            new GrammarValidator("stampede sysctl.d syntax", p -> parent(p).equals("sysctl.d"),
                    new SysctlSyntax()::check));

    public List<Verdict> validate(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            // the marker says who wrote the folder; it is no configuration
            files = s.filter(Files::isRegularFile).filter(p -> !name(p).equals(OutputWriter.MARKER)).sorted().toList();
        }
        List<Verdict> verdicts = new ArrayList<>();
        for (Path f : files) {
            String shown = dir.relativize(f).toString();
            verdicts.add(validators.stream().filter(v -> v.accepts(f)).findFirst()
                    .map(v -> v.check(f, shown))
                    .orElse(new Verdict(shown, "no validator for this kind of file", Verdict.Status.NOT_CHECKED, "")));
        }
        return verdicts;
    }

    private static String name(Path p) {
        return p.getFileName().toString();
    }

    private static String parent(Path p) {
        Path parent = p.getParent();
        return parent == null ? "" : parent.getFileName().toString();
    }
}
