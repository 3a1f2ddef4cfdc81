/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cli.StampedeCommand;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A plan converted with `stampede convert` opens in JMeter 5.6.3's GUI (under Xvfb) with the stock HTTP Request
 * panel, and survives File > Save exactly as the stock plan does: the same plan saved from the GUI once as stock and
 * once converted differs only in the HTTP Requests' class, which `stampede convert --to stock` turns back.
 */
class ConvertedPlanGuiIT {

    private static final Path ROOT = Path.of(System.getProperty("stampede.root", "..")).toAbsolutePath().normalize();
    private static final String SAMPLER = "/test.txt?product (view)";

    @Test
    void convertedPlanShowsTheStockPanelAndSavesLikeTheStockPlan() throws Exception {
        Assumptions.assumeTrue(new File("/usr/bin/xvfb-run").canExecute(), "xvfb-run is installed by it/run-tests.sh");
        Path out = ROOT.resolve("it/target/gui/round-trip");
        deleteTree(out);
        Path stockDir = Files.createDirectories(out.resolve("stock"));
        Path stampedeDir = Files.createDirectories(out.resolve("stampede"));
        Path stock = Files.copy(ROOT.resolve("plans/recorded-shop.jmx"), stockDir.resolve("recorded-shop.jmx"));
        Path stampede = stampedeDir.resolve("recorded-shop.jmx");
        assertEquals(0, StampedeCommand.commandLine().execute("convert", stock.toString(), "-o", stampede.toString()));

        String stampedeLabels = openAndSave(stampede, out.resolve("recorded-shop-stampede"));
        assertTrue(stampedeLabels.contains("panel=io.stampede.httprequest.gui.EngineHttpRequestGui\n"), stampedeLabels);
        assertTrue(stampedeLabels.contains("label=HTTP Request (Stampede engine)\n"), stampedeLabels);
        // The stock panel's own fields and both of its tabs (JMeter 5.6.3's English labels).
        for (String field : List.of("Protocol [http]:", "Server Name or IP:", "Port Number:", "Path:",
                "Content encoding:", "Redirect Automatically", "Follow Redirects", "Use KeepAlive",
                "Use multipart/form-data", "tab=Basic", "tab=Advanced", "tab=Parameters", "tab=Body Data")) {
            assertTrue(stampedeLabels.contains(field), "the panel shows '" + field + "':\n" + stampedeLabels);
        }
        assertTrue(stampedeLabels.contains("menu=HTTP Request\n"), "stock's entry stays in Add > Sampler");
        assertTrue(stampedeLabels.contains("menu=HTTP Request (Stampede engine)\n"), "ours is listed beside it");

        String stockLabels = openAndSave(stock, out.resolve("recorded-shop-stock"));
        assertTrue(stockLabels.contains("panel=org.apache.jmeter.protocol.http.control.gui.HttpTestSampleGui\n"),
                stockLabels);

        String savedStampede = Files.readString(stampede);
        assertEquals(3, count(savedStampede, "<io.stampede.httprequest.EngineHttpRequest guiclass=\"io.stampede."
                + "httprequest.gui.EngineHttpRequestGui\" testclass=\"io.stampede.httprequest.EngineHttpRequest\""),
                "the GUI saves the converted requests as Stampede's:\n" + savedStampede);
        assertFalse(savedStampede.contains("HTTPSamplerProxy"));
        Path back = out.resolve("stampede-saved-then-stock.jmx");
        assertEquals(0, StampedeCommand.commandLine().execute("convert", stampede.toString(), "-o", back.toString(),
                "--to", "stock"));
        assertEquals(Files.readString(stock), Files.readString(back),
                "saved from the GUI, the converted plan holds the same properties as the stock plan saved from it");
    }

    /** Opens the plan in JMeter's GUI, selects every sampler, takes the picture, saves; returns the labels file. */
    private static String openAndSave(Path plan, Path base) throws Exception {
        Path png = Path.of(base + ".png");
        Path labels = Path.of(base + ".labels.txt");
        Path log = Path.of(base + ".jmeter.log");
        List<String> cmd = List.of("xvfb-run", "-a", "-s", "-screen 0 1024x900x24",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
                "-jar", ROOT.resolve("src/target/jmeter-home/bin/ApacheJMeter.jar").toString(),
                "-t", plan.toString(), "-j", log.toString(),
                "-Jjsr223.init.file=" + ROOT.resolve("it/src/test/resources/gui/screenshot.groovy"),
                "-Jstampede.gui.select=" + SAMPLER, "-Jstampede.gui.png=" + png, "-Jstampede.gui.labels=" + labels,
                "-Jstampede.gui.save=true", "-Jjmeter.gui.action.save.backup_on_save=false",
                "-Jonload.expandtree=true");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(Path.of(base + ".out").toFile())
                .start();
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("JMeter's GUI did not finish within 150 s; see " + log);
        }
        assertEquals(0, p.exitValue(), "GUI run failed; see " + labels + " and " + log);
        String text = Files.readString(labels);
        assertTrue(text.contains("saved=" + plan + "\n"), text);
        BufferedImage image = ImageIO.read(png.toFile());
        assertTrue(image.getWidth() > 600 && image.getHeight() > 400, "a real window was captured");
        List<String> errors = Files.readAllLines(log).stream().filter(l -> l.contains(" ERROR ")).toList();
        assertEquals(List.of(), errors, "opening and saving " + plan + " logs no errors");
        return text;
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    private static void deleteTree(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
