/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.httprequest;

import java.util.ArrayList;
import java.util.List;

/**
 * The parity suite's plan as JMX text: one user, two iterations as the same user, a Cookie, Header, Authorization and
 * Cache Manager, and one HTTP Request per case against nginx and httpbin. Written with stock's element class
 * (HTTPSamplerProxy); {@link #onEngine} swaps the class the way a converted plan names it, nothing else.
 */
final class ParityPlan {
    static final String ENGINE_CLASS = "io.stampede.httprequest.EngineHttpRequest";

    private final int nginx;
    private final int httpbin;
    private final String uploadFile;
    private final StringBuilder samplers = new StringBuilder();
    private final List<String> labels = new ArrayList<>();

    private final int tls;

    ParityPlan(int nginx, int httpbin, int tls, String uploadFile) {
        this.nginx = nginx;
        this.httpbin = httpbin;
        this.tls = tls;
        this.uploadFile = uploadFile;
    }

    /** One HTTP Request; {@code extra} holds further properties and children (arguments, files). */
    ParityPlan request(String label, boolean onNginx, String method, String path, String extra, String assertion) {
        return request(label, onNginx ? nginx : httpbin, "http", method, path, extra, assertion);
    }

    /** One https request to nginx's TLS server (a self-signed certificate, accepted by both engines). */
    ParityPlan https(String label, String path, String extra, String assertion) {
        return request(label, tls, "https", "GET", path, extra, assertion);
    }

    /** One request for a local file ({@code file:}), which both engines leave to JMeter's own file implementation. */
    ParityPlan local(String label, String path, String extra) {
        return request(label, 0, "file", "GET", path, extra, "");
    }

    private ParityPlan request(String label, int port, String protocol, String method, String path, String extra,
                               String assertion) {
        labels.add(label);
        samplers.append("<HTTPSamplerProxy guiclass=\"HttpTestSampleGui\" testclass=\"HTTPSamplerProxy\" testname=\"")
                .append(label).append("\">\n")
                .append(str("HTTPSampler.domain", "127.0.0.1"))
                .append(str("HTTPSampler.port", Integer.toString(port)))
                .append(str("HTTPSampler.protocol", protocol))
                .append(str("HTTPSampler.path", xml(path)))
                .append(str("HTTPSampler.method", method))
                .append(str("HTTPSampler.contentEncoding", "UTF-8"))
                .append(bool("HTTPSampler.use_keepalive", true))
                .append(extra.contains("HTTPSampler.follow_redirects") || extra.contains("auto_redirects")
                        ? "" : bool("HTTPSampler.follow_redirects", true))
                .append(extra.contains("HTTPsampler.Arguments") ? "" : args())
                .append(extra)
                .append("</HTTPSamplerProxy>\n<hashTree>\n").append(assertion).append("</hashTree>\n");
        return this;
    }

    List<String> labels() {
        return labels;
    }

    static String str(String name, String value) {
        return "  <stringProp name=\"" + name + "\">" + value + "</stringProp>\n";
    }

    static String bool(String name, boolean value) {
        return "  <boolProp name=\"" + name + "\">" + value + "</boolProp>\n";
    }

    /** Arguments; each pair is name, value (an empty name with "Body Data" sends the value as the body). */
    static String args(String... nameValues) {
        StringBuilder b = new StringBuilder("  <elementProp name=\"HTTPsampler.Arguments\" elementType=\"Arguments\""
                + " guiclass=\"HTTPArgumentsPanel\" testclass=\"Arguments\"><collectionProp name=\"Arguments.arguments\">\n");
        for (int i = 0; i < nameValues.length; i += 2) {
            b.append("    <elementProp name=\"").append(xml(nameValues[i])).append("\" elementType=\"HTTPArgument\">")
                    .append(bool("HTTPArgument.always_encode", true))
                    .append(str("Argument.name", xml(nameValues[i])))
                    .append(str("Argument.value", xml(nameValues[i + 1])))
                    .append(str("Argument.metadata", "="))
                    .append(bool("HTTPArgument.use_equals", true))
                    .append("</elementProp>\n");
        }
        return b.append("  </collectionProp></elementProp>\n").toString();
    }

    String file(String param, String mime) {
        return "  <elementProp name=\"HTTPsampler.Files\" elementType=\"HTTPFileArgs\"><collectionProp"
                + " name=\"HTTPFileArgs.files\"><elementProp name=\"" + uploadFile + "\" elementType=\"HTTPFileArg\">"
                + str("File.path", uploadFile) + str("File.paramname", param) + str("File.mimetype", mime)
                + "</elementProp></collectionProp></elementProp>\n";
    }

    static String contains(String name, String text) {
        return "<ResponseAssertion guiclass=\"AssertionGui\" testclass=\"ResponseAssertion\" testname=\"" + name
                + "\"><collectionProp name=\"Asserion.test_strings\"><stringProp name=\"0\">" + xml(text)
                + "</stringProp></collectionProp>" + str("Assertion.custom_message", "")
                + str("Assertion.test_field", "Assertion.response_data") + bool("Assertion.assume_success", false)
                + "<intProp name=\"Assertion.test_type\">16</intProp></ResponseAssertion><hashTree/>\n";
    }

    private static String auth(String url, String mechanism) {
        return "<elementProp name=\"\" elementType=\"Authorization\">" + str("Authorization.url", url)
                + str("Authorization.username", "user") + str("Authorization.password", "passwd")
                + str("Authorization.domain", "") + str("Authorization.realm", "")
                + str("Authorization.mechanism", mechanism) + "</elementProp>\n";
    }

    private static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** The whole plan with stock's HTTP Request. */
    String stock() {
        String managers = "<CookieManager guiclass=\"CookiePanel\" testclass=\"CookieManager\" testname=\"cookies\">"
                + "<collectionProp name=\"CookieManager.cookies\"/>" + bool("CookieManager.clearEachIteration", false)
                + bool("CookieManager.controlledByThreadGroup", false) + "</CookieManager><hashTree/>\n"
                + "<HeaderManager guiclass=\"HeaderPanel\" testclass=\"HeaderManager\" testname=\"headers\">"
                + "<collectionProp name=\"HeaderManager.headers\"><elementProp name=\"\" elementType=\"Header\">"
                + str("Header.name", "Accept-Encoding") + str("Header.value", "gzip, deflate, br")
                + "</elementProp><elementProp name=\"\" elementType=\"Header\">" + str("Header.name", "X-Parity")
                + str("Header.value", "yes") + "</elementProp></collectionProp></HeaderManager><hashTree/>\n"
                + "<AuthManager guiclass=\"AuthPanel\" testclass=\"AuthManager\" testname=\"auth\">"
                + "<collectionProp name=\"AuthManager.auth_list\">"
                + auth("http://127.0.0.1:" + nginx + "/protected/", "BASIC")
                + auth("http://127.0.0.1:" + httpbin + "/basic-auth/", "BASIC")
                + auth("http://127.0.0.1:" + httpbin + "/digest-auth/", "DIGEST")
                + "</collectionProp>" + bool("AuthManager.controlledByThreadGroup", false) + "</AuthManager><hashTree/>\n"
                + "<CacheManager guiclass=\"CacheManagerGui\" testclass=\"CacheManager\" testname=\"cache\">"
                + bool("clearEachIteration", false) + bool("useExpires", false)
                + bool("CacheManager.controlledByThread", false) + "</CacheManager><hashTree/>\n";
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<jmeterTestPlan version=\"1.2\" properties=\"5.0\" jmeter=\"5.6.3\"><hashTree>\n"
                + "<TestPlan guiclass=\"TestPlanGui\" testclass=\"TestPlan\" testname=\"parity\">"
                + "<elementProp name=\"TestPlan.user_defined_variables\" elementType=\"Arguments\" "
                + "guiclass=\"ArgumentsPanel\" testclass=\"Arguments\"><collectionProp name=\"Arguments.arguments\"/>"
                + "</elementProp></TestPlan>\n<hashTree>\n"
                + "<ThreadGroup guiclass=\"ThreadGroupGui\" testclass=\"ThreadGroup\" testname=\"user\">"
                + "<intProp name=\"ThreadGroup.num_threads\">1</intProp><intProp name=\"ThreadGroup.ramp_time\">0"
                + "</intProp>" + bool("ThreadGroup.same_user_on_next_iteration", true)
                + str("ThreadGroup.on_sample_error", "continue")
                + "<elementProp name=\"ThreadGroup.main_controller\" elementType=\"LoopController\" "
                + "guiclass=\"LoopControlPanel\" testclass=\"LoopController\">" + str("LoopController.loops", "2")
                + bool("LoopController.continue_forever", false) + "</elementProp></ThreadGroup>\n<hashTree>\n"
                + managers + samplers + "</hashTree>\n</hashTree>\n</hashTree></jmeterTestPlan>\n";
    }

    /** The same plan with every HTTP Request on the engine. */
    String onEngine() {
        return stock().replace("testclass=\"HTTPSamplerProxy\"", "testclass=\"" + ENGINE_CLASS + "\"")
                .replace("<HTTPSamplerProxy ", "<" + ENGINE_CLASS + " ")
                .replace("</HTTPSamplerProxy>", "</" + ENGINE_CLASS + ">");
    }
}
