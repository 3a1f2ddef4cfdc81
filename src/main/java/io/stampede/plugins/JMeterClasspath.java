/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The classes a JMeter will see: its lib/ and lib/ext/ jars and the extra jars it is given by search_paths, as
 * NewDriver and JMeter load them, read from the jars' directories without loading a class. Also the aliases and
 * renamed classes it accepts in a plan (bin/saveservice.properties, bin/upgrade.properties), and which library
 * versions it already holds.
 */
public final class JMeterClasspath {

    /** A jar on the class path, with the artifact it says it is (META-INF/maven/.../pom.properties) when it says. */
    public record Library(Path jar, String group, String artifact, String version) {}

    /** What follows {@code artifactId-} in a jar's name when it is the version (1.5.0-b01.jar, not 1.2-api-2.22.1.jar). */
    private static final Pattern VERSION = Pattern.compile("\\d[0-9A-Za-z.]*(-[0-9A-Za-z.]+)?\\.jar");

    private final Path home;
    private final List<Path> homeJars;
    private final List<Path> jars;
    private final Map<String, String> aliases;
    private final Map<String, String> renamed;

    private JMeterClasspath(Path home, List<Path> homeJars, List<Path> jars, Map<String, String> aliases,
                            Map<String, String> renamed) {
        this.home = home;
        this.homeJars = homeJars;
        this.jars = jars;
        this.aliases = aliases;
        this.renamed = renamed;
    }

    /** The home's jars and the extra ones (jar files, or folders of jars) it is given. */
    public static JMeterClasspath of(Path home, List<Path> extra) throws IOException {
        List<Path> own = new ArrayList<>();
        own.addAll(jarsIn(home.resolve("lib")));
        own.addAll(jarsIn(home.resolve("lib/ext")));
        List<Path> all = new ArrayList<>(own);
        for (Path p : extra) {
            if (Files.isDirectory(p)) {
                all.addAll(jarsIn(p));
            } else if (Files.isRegularFile(p)) {
                all.add(p);
            }
        }
        return new JMeterClasspath(home, List.copyOf(own), List.copyOf(all),
                properties(home.resolve("bin/saveservice.properties")),
                properties(home.resolve("bin/upgrade.properties")));
    }

    private static List<Path> jarsIn(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        }
    }

    /**
     * The artifact a jar is, from its pom.properties when it has them for this name, else from its file name; a
     * jar named without its version (lib/ext's, as Stampede's JMeter home names JMeter's own modules) gives the
     * version its manifest declares, as JMeter's jars carry no pom.properties.
     */
    private static Library library(Path jar, Coordinates wanted) throws IOException {
        // lib/ names its jars artifactId-version.jar; lib/ext without the version
        String file = jar.getFileName().toString().replaceFirst("\\.jar$", "");
        boolean named = file.length() > wanted.artifact().length();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry e = zip.getEntry("META-INF/maven/" + wanted.group() + "/" + wanted.artifact() + "/pom.properties");
            if (e != null) {
                Properties pom = new Properties();
                try (InputStream in = zip.getInputStream(e)) {
                    pom.load(in);
                }
                if (pom.getProperty("version") != null) {
                    return new Library(jar, wanted.group(), wanted.artifact(), pom.getProperty("version"));
                }
            }
            return new Library(jar, null, wanted.artifact(),
                    named ? file.substring(wanted.artifact().length() + 1) : declaredVersion(zip));
        } catch (IOException e) {
            throw unreadable(jar, e);
        }
    }

    /** The Implementation-Version a jar's manifest declares, "" when it declares none. */
    private static String declaredVersion(ZipFile zip) throws IOException {
        ZipEntry m = zip.getEntry("META-INF/MANIFEST.MF");
        if (m == null) {
            return "";
        }
        try (InputStream in = zip.getInputStream(m)) {
            String v = new Manifest(in).getMainAttributes().getValue(Attributes.Name.IMPLEMENTATION_VERSION);
            return v == null ? "" : v.strip();
        }
    }

    private static IOException unreadable(Path jar, IOException e) {
        return new IOException(jar + " cannot be read as a jar (" + e.getMessage() + "): remove or replace it", e);
    }

    private static Map<String, String> properties(Path file) throws IOException {
        Map<String, String> out = new HashMap<>();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            p.load(r);
        }
        // saveservice.properties gives some classes several aliases: "HTTPSamplerProxy,HTTPSampler,HTTPSampler2=..."
        p.forEach((k, v) -> {
            for (String key : k.toString().split(",")) {
                out.put(key.trim(), v.toString().trim());
            }
        });
        return out;
    }

    public Path home() {
        return home;
    }

    /** The class a plan's name for it stands for: an alias resolved, a renamed class followed to its new name. */
    public String resolve(String name) {
        String cls = aliases.getOrDefault(name, name);
        for (int hops = 0; hops < 5 && renamed.containsKey(cls); hops++) {
            cls = renamed.get(cls);
        }
        return cls;
    }

    /**
     * The classes of those given that this JMeter cannot load. Each jar's directory is looked up, not listed: a
     * plan names a few dozen classes, JMeter's jars hold tens of thousands. The JDK's own classes always load.
     */
    public Set<String> lacking(Set<String> classNames) throws IOException {
        Set<String> lacking = new HashSet<>();
        for (String c : classNames) {
            if (!c.startsWith("java.") && !c.startsWith("javax.swing.")) {
                lacking.add(c);
            }
        }
        for (Path jar : jars) {
            if (lacking.isEmpty()) {
                break;
            }
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                lacking.removeIf(c -> zip.getEntry(c.replace('.', '/') + ".class") != null);
            } catch (IOException e) {
                throw unreadable(jar, e);
            }
        }
        return lacking;
    }

    /**
     * The jar of this JMeter (lib/ or lib/ext/) that holds this library in some version, found by its file name as
     * JMeter's own build and Stampede's name them ({@code artifactId-version.jar} or {@code artifactId.jar}).
     */
    public Optional<Library> library(Coordinates c) throws IOException {
        for (Path jar : homeJars) {
            String file = jar.getFileName().toString();
            if (file.equals(c.artifact() + ".jar") || file.startsWith(c.artifact() + "-")
                    && VERSION.matcher(file.substring(c.artifact().length() + 1)).matches()) {
                return Optional.of(library(jar, c));
            }
        }
        return Optional.empty();
    }
}
