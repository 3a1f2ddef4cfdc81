/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.share;

import io.stampede.names.PluginNames;
import io.stampede.plan.JmxTree;
import io.stampede.plan.PlanException;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

/**
 * The file `stampede run` gives JMeter: the user's plan, or one share of it, with the plugin's element that starts
 * the injector monitor ({@value PluginNames#INJECTOR_MONITOR_CLASS}) first under the test plan, so that the monitor
 * starts before any other element's test start (a share's start-at wait included), in whichever JMeter runs the
 * threads. Written beside the user's plan, so that its relative paths stay where the user put them; into the results
 * folder when that folder is read-only. The caller deletes it when the run ends.
 */
public final class LoadedPlan {

    private LoadedPlan() {}

    /**
     * The whole plan at {@code plan}, with the monitor's element.
     *
     * @return the plan to load
     */
    public static Path whole(Path plan, Path results) throws IOException {
        try {
            return write(JmxTree.parse(plan), "run", results);
        } catch (PlanException e) {
            throw new IOException("cannot read the plan again to start it: " + e.getMessage(), e);
        }
    }

    /** Adds the monitor's element to {@code plan} and writes it, named after the plan and {@code kind}. */
    static Path write(JmxTree plan, String kind, Path results) throws IOException {
        PlanDivider.leading(plan, PluginNames.INJECTOR_MONITOR_CLASS, "Stampede: injector monitor", "stringProp",
                PluginNames.INJECTOR_MONITOR_PLAN_NAME, plan.fileName());
        String xml = serialize(plan);
        String base = plan.fileName().replaceFirst("\\.jmx$", "");
        removeCopiesOfEndedRuns(plan.path(), base);
        String name = "." + base + "." + kind + "." + ProcessHandle.current().pid() + ".jmx";
        try {
            return Files.writeString(plan.path().resolveSibling(name), xml, StandardCharsets.UTF_8);
        } catch (IOException readOnly) {
            return Files.writeString(results.resolve("plan-" + kind + ".jmx"), xml, StandardCharsets.UTF_8);
        }
    }

    /**
     * A run that was killed (SIGKILL, a lost machine) could not remove its copy: the next run of the same plan removes
     * the copies whose process has ended. A copy of a run still going is left alone.
     */
    private static void removeCopiesOfEndedRuns(Path plan, String base) {
        Pattern copy = Pattern.compile("\\." + Pattern.quote(base) + "\\.(run|share-of-\\d+)\\.(\\d+)\\.jmx");
        Path folder = plan.toAbsolutePath().getParent();
        try (Stream<Path> siblings = Files.list(folder)) {
            for (Path sibling : (Iterable<Path>) siblings::iterator) {
                Matcher m = copy.matcher(sibling.getFileName().toString());
                if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(2))).isEmpty()) {
                    Files.deleteIfExists(sibling);
                }
            }
        } catch (IOException | NumberFormatException unreadable) {
            // a folder that cannot be listed or written keeps its files; the run itself is not at stake
        }
    }

    private static String serialize(JmxTree plan) throws IOException {
        try {
            Transformer t = TransformerFactory.newInstance().newTransformer();
            t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            StringWriter out = new StringWriter();
            t.transform(new DOMSource(plan.top().getOwnerDocument()), new StreamResult(out));
            return out.toString();
        } catch (TransformerException e) {
            throw new IOException("cannot write the plan JMeter loads: " + e.getMessage(), e);
        }
    }
}
