/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;

/** Small .jmx plans with one thread group and one Stampede sampler whose fields a test chooses. */
public final class SamplerPlans {

    private SamplerPlans() {}

    /**
     * Writes the plan.
     *
     * @param testClass io.stampede.sampler.HttpRawSampler or io.stampede.sampler.HttpSampler
     * @param fields the sampler's stringProps, written as given
     * @param variables the test plan's user defined variables
     */
    public static Path write(Path file, String testClass, Map<String, String> fields, Map<String, String> variables)
            throws IOException {
        String props = fields.entrySet().stream()
                .map(e -> "          <stringProp name=\"" + e.getKey() + "\">" + e.getValue() + "</stringProp>\n")
                .collect(Collectors.joining());
        String args = variables.entrySet().stream()
                .map(e -> "          <elementProp name=\"" + e.getKey() + "\" elementType=\"Argument\">\n"
                        + "            <stringProp name=\"Argument.name\">" + e.getKey() + "</stringProp>\n"
                        + "            <stringProp name=\"Argument.value\">" + e.getValue() + "</stringProp>\n"
                        + "          </elementProp>\n")
                .collect(Collectors.joining());
        return Files.writeString(file, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<jmeterTestPlan version=\"1.2\" properties=\"5.0\" jmeter=\"5.6.3\">\n  <hashTree>\n"
                + "    <TestPlan guiclass=\"TestPlanGui\" testclass=\"TestPlan\" testname=\"plan\" enabled=\"true\">\n"
                + "      <elementProp name=\"TestPlan.user_defined_variables\" elementType=\"Arguments\">\n"
                + "        <collectionProp name=\"Arguments.arguments\">\n" + args + "        </collectionProp>\n"
                + "      </elementProp>\n    </TestPlan>\n    <hashTree>\n"
                + "      <ThreadGroup guiclass=\"ThreadGroupGui\" testclass=\"ThreadGroup\" testname=\"users\""
                + " enabled=\"true\">\n        <stringProp name=\"ThreadGroup.num_threads\">2</stringProp>\n"
                + "      </ThreadGroup>\n      <hashTree>\n"
                + "        <" + testClass + " testclass=\"" + testClass + "\" testname=\"GET /\" enabled=\"true\">\n"
                + "          <stringProp name=\"stampede.host\">127.0.0.1</stringProp>\n" + props
                + "        </" + testClass + ">\n        <hashTree/>\n      </hashTree>\n    </hashTree>\n"
                + "  </hashTree>\n</jmeterTestPlan>\n");
    }
}
