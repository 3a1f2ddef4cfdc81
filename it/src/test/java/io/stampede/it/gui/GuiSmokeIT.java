/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * JMeter 5.6.3's GUI, under Xvfb, opens a shipped plan (or an IT's), selects our sampler and takes a screenshot
 * (kept as a build artefact in it/target/gui/). Proves the plans load without warnings, that the panels show
 * their labelled fields, and that every field lies inside the visible part of the panel in a window
 * {@value #WIDTH} pixels wide (none cut off at the right, none below the fold).
 */
class GuiSmokeIT {

    private static final int WIDTH = 1024;
    private static final int HEIGHT = 900;
    /** x,y,width,height as the script writes them (Groovy prints a Rectangle's coordinates as 12.0). */
    private static final Pattern BOUNDS = Pattern.compile("([\\d.]+),([\\d.]+),([\\d.]+),([\\d.]+)");
    private static final Path ROOT = Path.of(System.getProperty("stampede.root", "..")).toAbsolutePath().normalize();

    @ParameterizedTest
    @CsvSource({
        "quickstart.jmx, GET /test.txt, sampler.gui.HttpSamplerGui, host|port|method|path|headers|body",
        "stepping-raw.jmx, RAW GET /test.txt, sampler.gui.HttpRawSamplerGui, host|port|request",
        "nginx-welcome-1000x50.jmx, GET / (welcome page), sampler.gui.HttpSamplerGui, host|port|path",
        // On the build's Java 17: the thread group's editor loads there too; only running it needs Java 21.
        "virtual-users.jmx, Virtual users, threads.gui.VirtualUserThreadGroupGui, users|ramp-up|hold|loops|delay",
        "websocket-chat.jmx, stepping open, websocket.gui.WebSocketOpenSamplerGui, url|subprotocols|headers|timeout|pacing",
        "websocket-chat.jmx, stepping say, websocket.gui.WebSocketRequestReplySamplerGui, session|message|match|expression",
        "websocket-chat.jmx, stepping push, websocket.gui.WebSocketWaitSamplerGui, session|match|expression|timeout",
        // The chat plan neither sends without a reply nor closes: the IT's faults plan (run by WebSocketIT) does.
        "it/src/test/resources/plans/websocket-faults.jmx, send echo, websocket.gui.WebSocketSendSamplerGui,"
                + " session|type|message|timeout",
        "it/src/test/resources/plans/websocket-faults.jmx, close echo, websocket.gui.WebSocketCloseSamplerGui,"
                + " session|close code|reason|timeout",
    })
    void planOpensAndShowsOurSamplerPanel(String plan, String sampler, String panel, String fields) throws Exception {
        Assumptions.assumeTrue(new File("/usr/bin/xvfb-run").canExecute(), "xvfb-run is installed by it/run-tests.sh");
        Path home = ROOT.resolve("src/target/jmeter-home");
        Path out = ROOT.resolve("it/target/gui");
        Files.createDirectories(out);
        // A plan name is a shipped plan in plans/; a path (with a '/') is from the checkout's root.
        Path planFile = plan.contains("/") ? ROOT.resolve(plan) : ROOT.resolve("plans").resolve(plan);
        String base = planFile.getFileName().toString().replace(".jmx", "");
        Path png = out.resolve(base + ".png");
        Path labels = out.resolve(base + ".labels.txt");
        Path log = out.resolve(base + ".jmeter.log");
        Files.deleteIfExists(png);
        Files.deleteIfExists(labels);
        Files.deleteIfExists(log);
        List<String> cmd = new ArrayList<>(List.of("xvfb-run", "-a", "-s", "-screen 0 " + WIDTH + "x" + HEIGHT + "x24",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
                "-jar", home.resolve("bin/ApacheJMeter.jar").toString(),
                "-t", planFile.toString(), "-j", log.toString(),
                "-Jjsr223.init.file=" + ROOT.resolve("it/src/test/resources/gui/screenshot.groovy"),
                "-Jstampede.gui.select=" + sampler, "-Jstampede.gui.width=" + WIDTH,
                "-Jstampede.gui.height=" + HEIGHT, "-Jstampede.gui.png=" + png, "-Jstampede.gui.labels=" + labels,
                "-Jonload.expandtree=true"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(out.resolve(base + ".out").toFile()).start();
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("JMeter's GUI did not finish within 150 s; see " + log);
        }
        assertEquals(0, p.exitValue(), "GUI smoke run failed; see " + labels + " and " + log);

        String text = Files.readString(labels);
        assertTrue(text.contains("panel=io.stampede." + panel), text);
        String lower = text.toLowerCase(Locale.ROOT);
        for (String field : fields.split("\\|")) {
            assertTrue(lower.contains(field), "the panel shows a labelled '" + field + "' field:\n" + text);
        }
        // Every field inside the visible part of the panel in a 1024-pixel window: none cut off at the right.
        assertTrue(text.contains("window=" + WIDTH + "x"), text);
        int[] visible = bounds(text.lines().filter(l -> l.startsWith("visible=")).findFirst().orElseThrow());
        List<String> fieldLines = text.lines().filter(l -> l.startsWith("field=")).toList();
        assertTrue(fieldLines.size() >= fields.split("\\|").length, text);
        for (String line : fieldLines) {
            int[] f = bounds(line);
            assertTrue(f[0] >= visible[0] && f[0] + f[2] <= visible[0] + visible[2]
                    && f[1] >= visible[1] && f[1] + f[3] <= visible[1] + visible[3],
                    "a field outside the visible panel " + java.util.Arrays.toString(visible) + " of a " + WIDTH
                            + "-pixel window: " + line);
        }
        BufferedImage image = ImageIO.read(png.toFile());
        assertTrue(image.getWidth() > 600 && image.getHeight() > 400, "a real window was captured");
        assertTrue(distinctColours(image) > 20, "the screenshot is not blank");

        List<String> problems = Files.readAllLines(log).stream()
                .filter(l -> l.contains(" ERROR ") || (l.contains(" WARN ") && !benignWarning(l)))
                .toList();
        assertEquals(List.of(), problems, "opening " + plan + " logs no errors or warnings");
    }

    /** Warnings JMeter logs on every GUI start-up under Xvfb, unrelated to the plan. */
    private static boolean benignWarning(String line) {
        return line.contains("o.a.j.JMeter: LAF")
                || line.contains("Could not set LAF")
                || line.contains("o.a.j.u.JMeterUtils: Could not find")
                || line.contains("jsr223.init.file");
    }

    private static int[] bounds(String line) {
        Matcher m = BOUNDS.matcher(line);
        assertTrue(m.find(), line);
        int[] b = new int[4];
        for (int i = 0; i < 4; i++) {
            b[i] = (int) Math.round(Double.parseDouble(m.group(i + 1)));
        }
        return b;
    }

    private static int distinctColours(BufferedImage image) {
        java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 7) {
            for (int x = 0; x < image.getWidth(); x += 7) {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }
}
