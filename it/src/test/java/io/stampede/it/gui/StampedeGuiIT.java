/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * `./stampede gui PLAN` as a user meets it, on a private Xvfb display: the window opens with the plan's title,
 * the Stampede sampler can be selected and shows its panel (the screenshots in it/target/gui-command/ are the
 * documentation's pictures in docs/images: it/docs-images.sh), and Ctrl-C or a kill of the CLI ends JMeter too. Without a display the
 * CLI refuses with a hint instead of starting JMeter.
 */
class StampedeGuiIT {

    private static final Path ROOT = Path.of(System.getProperty("stampede.root", "..")).toAbsolutePath().normalize();
    private static final Path SCRIPT = ROOT.resolve("it/src/test/resources/gui/select-stampede-sampler.groovy");
    private static final Path OUT = ROOT.resolve("it/target/gui-command");

    private static Process xvfb;
    private static String display;

    @BeforeAll
    static void startDisplay() throws IOException {
        Assumptions.assumeTrue(new File("/usr/bin/Xvfb").canExecute(), "Xvfb is installed by it/run-tests.sh");
        // -displayfd: Xvfb picks a free display number itself and prints it once it accepts clients.
        xvfb = new ProcessBuilder("Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader reader = new BufferedReader(new InputStreamReader(xvfb.getInputStream(), StandardCharsets.UTF_8));
        String number = reader.readLine();
        assertTrue(number != null && number.strip().matches("\\d+"), "Xvfb printed its display number: " + number);
        display = ":" + number.strip();
        Files.createDirectories(OUT);
    }

    @AfterAll
    static void stopDisplay() throws InterruptedException {
        if (xvfb != null) {
            xvfb.destroy();
            xvfb.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest(name = "{0} ({5}), closed by {4}")
    @CsvSource({
        "quickstart.jmx, GET /test.txt, HttpSamplerGui, http-sampler.png, ctrl-c, bundled JMeter",
        "stepping-raw.jmx, RAW GET /test.txt, HttpRawSamplerGui, http-raw-sampler.png, kill, bundled JMeter",
        "quickstart.jmx, GET /test.txt, HttpSamplerGui, user-jmeter.png, kill, user's JMeter",
    })
    void opensThePlanShowsTheStampedeSamplerAndEndsWithTheCli(String plan, String sampler, String panel, String png,
                                                             String close, String home, @TempDir Path tmp)
            throws Exception {
        Path planPath = ROOT.resolve("plans").resolve(plan);
        Path image = tmp.resolve("window.png");
        Path state = tmp.resolve("window.txt");
        List<String> cmd = new ArrayList<>(List.of(
                // Own process group, SIGINT not ignored: `kill -INT -group` is then what Ctrl-C in a terminal does.
                "setsid", "env", "--default-signal=INT", ROOT.resolve("stampede").toString(), "gui",
                planPath.toString(),
                "-J", "jsr223.init.file=" + SCRIPT, "-J", "stampede.gui.png=" + image,
                "-J", "stampede.gui.state=" + state, "-J", "stampede.gui.size=1200x800"));
        if (home.equals("user's JMeter")) {
            cmd.addAll(List.of("--jmeter-home", jmeterWithoutOurJars(tmp.resolve("jmeter")).toString()));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile()).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("cli.out").toFile());
        pb.environment().put("DISPLAY", display);
        pb.environment().remove("WAYLAND_DISPLAY");
        Process cli = pb.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            while (!Files.exists(state) && cli.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(500);
            }
            String shown = Files.exists(state) ? Files.readString(state) : "";
            assertTrue(cli.isAlive() && !shown.isEmpty(), "the GUI came up and the plan loaded within 180 s:\n"
                    + shown + Files.readString(tmp.resolve("cli.out")));

            String title = plan + " (" + planPath + ") - Apache JMeter (5.6.3)";
            assertTrue(shown.contains("title=" + title + "\n"), "the window's title names the plan:\n" + shown);
            assertTrue(windowsOnTheDisplay().contains("\"" + title + "\""),
                    "a window with that title is mapped on " + display + ":\n" + windowsOnTheDisplay());
            assertTrue(shown.contains("selected=" + sampler + "\n"), shown);
            assertTrue(shown.contains("panel=io.stampede.sampler.gui." + panel + "\n"),
                    "the Stampede sampler's own panel is shown:\n" + shown);
            assertTrue(shown.contains("label=Host:") && shown.contains("label=Port:"), shown);
            BufferedImage window = ImageIO.read(image.toFile());
            assertEquals(1200, window.getWidth(), "the whole window was captured");
            assertTrue(distinctColours(window) > 20, "the screenshot is not blank");
            Files.copy(image, OUT.resolve(png), StandardCopyOption.REPLACE_EXISTING);

            List<ProcessHandle> jmeter = cli.descendants().toList();
            assertFalse(jmeter.isEmpty(), "JMeter runs as the CLI's child");
            if (close.equals("ctrl-c")) {
                signal("-INT", "-" + cli.pid()); // the whole process group, as the terminal does
            } else {
                signal("-TERM", Long.toString(cli.pid())); // the CLI alone: its shutdown hook must end JMeter
            }
            assertTrue(cli.waitFor(30, TimeUnit.SECONDS), "the CLI ended");
            assertEquals(close.equals("ctrl-c") ? 130 : 143, cli.exitValue(), "ended by the signal");
            for (ProcessHandle p : jmeter) {
                p.onExit().get(15, TimeUnit.SECONDS);
                assertFalse(p.isAlive(), "JMeter (pid " + p.pid() + ") ended with the CLI");
            }
        } finally {
            cli.descendants().forEach(ProcessHandle::destroyForcibly);
            cli.destroyForcibly();
        }
    }

    @Test
    void withoutADisplayTheExitIsTwoWithTheHint(@TempDir Path tmp) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(ROOT.resolve("stampede").toString(), "gui",
                ROOT.resolve("plans/quickstart.jmx").toString()).directory(tmp.toFile())
                .redirectOutput(tmp.resolve("out").toFile()).redirectError(tmp.resolve("err").toFile());
        pb.environment().remove("DISPLAY");
        pb.environment().remove("WAYLAND_DISPLAY");
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String err = Files.readString(tmp.resolve("err"));
        assertEquals(2, p.exitValue(), err);
        assertTrue(err.contains("stampede gui: JMeter's GUI needs a display; use `stampede run` for non-GUI runs, "
                + "or run this on a desktop / over X forwarding"), err);
        assertFalse(Files.exists(tmp.resolve("jmeter.log")), "JMeter was not started");
    }

    @Test
    void aMissingPlanExitsTwoWithTheUsualMessage(@TempDir Path tmp) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(ROOT.resolve("stampede").toString(), "gui", "plans/no-such-plan.jmx")
                .directory(ROOT.toFile()).redirectOutput(tmp.resolve("out").toFile())
                .redirectError(tmp.resolve("err").toFile());
        pb.environment().put("DISPLAY", display);
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String err = Files.readString(tmp.resolve("err"));
        assertEquals(2, p.exitValue(), err);
        assertTrue(err.contains("stampede gui: PLAN plans/no-such-plan.jmx does not exist"), err);
    }

    /** A copy of the bundled JMeter home without Stampede's jar and casutg: a user's stock JMeter. */
    private static Path jmeterWithoutOurJars(Path home) throws IOException {
        Path bundled = ROOT.resolve("src/target/jmeter-home");
        try (var paths = Files.walk(bundled)) {
            for (Path p : paths.toList()) {
                String name = p.getFileName().toString();
                if (!(name.startsWith("stampede-plugins") || name.startsWith("jmeter-plugins-"))) {
                    Files.copy(p, home.resolve(bundled.relativize(p).toString()));
                }
            }
        }
        return home;
    }

    private static String windowsOnTheDisplay() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("xwininfo", "-display", display, "-root", "-tree").redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }

    private static void signal(String signal, String target) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", signal, "--", target).inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill " + signal + " " + target);
    }

    private static int distinctColours(BufferedImage image) {
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 7) {
            for (int x = 0; x < image.getWidth(); x += 7) {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }
}
