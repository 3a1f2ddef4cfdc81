/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.httprequest;

import io.stampede.it.support.HttpbinServer;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.TestCertificate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static io.stampede.it.httprequest.ParityPlan.args;
import static io.stampede.it.httprequest.ParityPlan.bool;
import static io.stampede.it.httprequest.ParityPlan.contains;
import static io.stampede.it.httprequest.ParityPlan.str;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The parity suite of issue 14: one plan of HTTP Requests with the four managers runs once on stock JMeter (HttpClient
 * 4) and once with every HTTP Request on the Stampede engine, against real nginx (static files, gzip, 301/302/307,
 * auth_basic, a 1 MB body, HEAD, 404, embedded resources, https with a self-signed certificate) and Debian's
 * httpbin behind nginx (cookies, redirects,
 * gzip/deflate/brotli, Basic and Digest, form/raw/multipart bodies, status codes, cache validators, chunked streams,
 * random bytes, delays and a timeout). Each sample, sub-results included, is compared: success, code, message, the
 * decoded body (or its MD5), final URL, redirect location, cookies sent, the request headers that matter, query
 * string or post data shape, sub-result count, and assertion results. The only normalisations are the ones the
 * documentation lists as known differences (docs/http-request.md: User-Agent, the random multipart boundary and Digest cnonce),
 * and the date httpbin's /cache gives as Last-Modified (the time of each run).
 */
class HttpRequestParityIT {
    private static NginxServer nginx;
    private static HttpbinServer httpbin;
    /** The site's files, certificate and upload: JUnit deletes the folder after the class, whatever happened. */
    @TempDir
    static Path site;
    private static int httpbinProxyPort;
    private static int tlsPort;

    @BeforeAll
    static void servers() throws Exception {
        Path html = Files.createDirectories(site.resolve("site"));
        Files.writeString(html.resolve("text.txt"), "parity text ".repeat(2000), StandardCharsets.US_ASCII);
        byte[] large = new byte[1 << 20];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i * 31 + (i >> 8));
        }
        Files.write(html.resolve("large.bin"), large);
        Files.writeString(html.resolve("page.html"), "<html><head><link rel=\"stylesheet\" href=\"style.css\">"
                + "<script src=\"app.js\"></script></head><body><img src=\"logo.png\">hello page</body></html>");
        Files.writeString(html.resolve("style.css"), "body { color: black }");
        Files.writeString(html.resolve("app.js"), "var parity = 1;");
        Files.write(html.resolve("logo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10});
        Files.writeString(site.resolve("htpasswd"), "user:{PLAIN}passwd\n");
        Files.writeString(site.resolve("upload.txt"), "uploaded file content\n");
        TestCertificate cert = TestCertificate.make(site, "127.0.0.1");
        tlsPort = io.stampede.it.support.FreePort.loopback();
        httpbin = HttpbinServer.start();
        httpbinProxyPort = io.stampede.it.support.FreePort.loopback();
        String http = "gzip on; gzip_min_length 1; gzip_types text/plain text/css application/json; "
                + "server { listen 127.0.0.1:" + httpbinProxyPort + "; location / { proxy_pass http://127.0.0.1:"
                + httpbin.port() + "; proxy_set_header Host $http_host; proxy_buffering off; "
                + "proxy_next_upstream error timeout; proxy_next_upstream_tries 3; } } "
                + "server { listen 127.0.0.1:" + tlsPort + " ssl; " + cert.nginxDirectives() + " location /site/ { alias "
                + html + "/; } }";
        String server = "location /site/ { alias " + html + "/; } "
                + "location /protected/ { auth_basic \"parity\"; auth_basic_user_file " + site.resolve("htpasswd")
                + "; alias " + html + "/; } "
                + "location = /r301 { return 301 /test.txt; } location = /r302 { return 302 /site/text.txt; } "
                + "location = /r307 { return 307 /test.txt; }";
        nginx = NginxServer.start(NginxServer.Options.defaults().withSite(http, server));
    }

    @AfterAll
    static void stop() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
        if (httpbin != null) {
            httpbin.close();
        }
    }

    private ParityPlan plan() {
        ParityPlan p = new ParityPlan(nginx.port(), httpbinProxyPort, tlsPort, site.resolve("upload.txt").toString());
        String md5 = bool("HTTPSampler.md5", true);
        String auto = bool("HTTPSampler.auto_redirects", true) + bool("HTTPSampler.follow_redirects", false);
        String raw = bool("HTTPSampler.postBodyRaw", true);
        p.request("nginx static", true, "GET", "/test.txt", "", contains("has Hello", "Hello"))
                .request("nginx gzip", true, "GET", "/site/text.txt", "", contains("decoded", "parity text parity"))
                .request("nginx large", true, "GET", "/site/large.bin", md5, "")
                .request("nginx 301 follow", true, "GET", "/r301", "", "")
                .request("nginx 302 auto", true, "GET", "/r302", auto, "")
                .request("nginx 307 follow", true, "GET", "/r307", "", "")
                .request("nginx basic", true, "GET", "/protected/text.txt", "", "")
                .request("nginx HEAD", true, "HEAD", "/test.txt", "", "")
                .request("nginx 404", true, "GET", "/missing", "", contains("says nope", "nope"))
                .https("https gzip", "/site/text.txt", "", contains("decoded over TLS", "parity text parity"))
                .https("https large", "/site/large.bin", md5, "")
                .request("nginx page", true, "GET", "/site/page.html", bool("HTTPSampler.image_parser", true)
                        + bool("HTTPSampler.concurrentDwn", true) + str("HTTPSampler.concurrentPool", "4"), "")
                .local("saved page", site.resolve("site/page.html").toString(), bool("HTTPSampler.image_parser", true))
                .request("java implementation", true, "GET", "/test.txt", str("HTTPSampler.implementation", "Java"),
                        "")
                .request("cookies set", false, "GET", "/cookies/set", args("a", "1", "b", "two words"), "")
                .request("cookies show", false, "GET", "/cookies", "", contains("cookie a", "\"a\""))
                .request("response-headers", false, "GET", "/response-headers",
                        args("X-Parity-Out", "yes", "Set-Cookie", "c=3; Path=/"), "")
                .request("redirect 3", false, "GET", "/redirect/3", "", "")
                .request("relative-redirect 2", false, "GET", "/relative-redirect/2", "", "")
                .request("absolute-redirect 2 auto", false, "GET", "/absolute-redirect/2", auto, "")
                .request("gzip", false, "GET", "/gzip", "", contains("gzipped", "\"gzipped\": true"))
                .request("deflate", false, "GET", "/deflate", "", contains("deflated", "\"deflated\": true"))
                .request("brotli", false, "GET", "/brotli", "", contains("brotli", "\"brotli\": true"))
                .request("basic-auth", false, "GET", "/basic-auth/user/passwd", "", "")
                .request("digest-auth", false, "GET", "/digest-auth/auth/user/passwd", "",
                        contains("authenticated", "\"authenticated\": true"))
                .request("post form", false, "POST", "/post", args("name", "Ada Lovelace", "lang", "en & fr"), "")
                .request("put raw", false, "PUT", "/put", raw + args("", "{\"k\": \"v\", \"n\": 1}"), "")
                .request("patch raw", false, "PATCH", "/patch", raw + args("", "patched=yes"), "")
                .request("delete", false, "DELETE", "/delete", args("id", "7"), "")
                .request("multipart upload", false, "POST", "/anything/upload", bool("HTTPSampler.DO_MULTIPART_POST",
                        true) + args("field", "value ü") + p.file("upload", "text/plain"), "")
                .request("status 418", false, "GET", "/status/418", "", "")
                .request("status 503", false, "GET", "/status/503", "", "")
                .request("cache", false, "GET", "/cache", "", "")
                .request("etag", false, "GET", "/etag/parity-tag", "", "")
                .request("stream 5", false, "GET", "/stream/5", "", "")
                .request("bytes", false, "GET", "/bytes/4096", md5 + args("seed", "7"), "")
                .request("delay 1", false, "GET", "/delay/1", "", "")
                .request("delay 3 timeout", false, "GET", "/delay/3", str("HTTPSampler.response_timeout", "1000"), "")
                .request("options", false, "OPTIONS", "/anything", "", "")
                .request("proxy (fallback)", true, "GET", "/test.txt", str("HTTPSampler.proxyHost", "127.0.0.1")
                        + str("HTTPSampler.proxyPort", Integer.toString(nginx.port())), "");
        return p;
    }

    @Test
    void everySampleMatchesStock(@TempDir Path work) throws Exception {
        ParityPlan plan = plan();
        Path stockPlan = Files.writeString(work.resolve("parity-stock.jmx"), plan.stock());
        Path enginePlan = Files.writeString(work.resolve("parity-engine.jmx"), plan.onEngine());
        long t0 = System.nanoTime();
        JMeterRun.Result stock = run(stockPlan, work.resolve("stock"));
        JMeterRun.Result engine = run(enginePlan, work.resolve("engine"));
        System.out.printf("parity: two JMeter runs in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        assertTrue(stock.succeeded(), stock.describe());
        assertTrue(engine.succeeded(), engine.describe());

        List<Element> s = topSamples(stock.jtl());
        List<Element> e = topSamples(engine.jtl());
        assertEquals(plan.labels().size() * 2, s.size(), "stock samples (2 iterations)");
        assertEquals(s.size(), e.size(), "engine samples");
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < s.size(); i++) {
            compare(s.get(i), e.get(i), "#" + (i / plan.labels().size() + 1) + " ", differences);
        }
        String log = Files.readString(engine.log());
        assertTrue(log.contains("HTTP Request 'proxy (fallback)': proxy server is not supported by the Stampede "
                + "engine"), "one WARN naming the sampler and the feature");
        assertEquals(1, log.split("is not supported by the Stampede engine", -1).length - 1, "exactly one WARN");
        assertEquals(1, log.split("chose JMeter's Java implementation", -1).length - 1, "one INFO for the sampler");
        assertFalse(log.contains("NullPointerException"), "no NPE, file: URLs included");
        assertTrue(differences.isEmpty(), differences.size() + " differences:\n" + String.join("\n", differences));
    }

    private static JMeterRun.Result run(Path plan, Path dir) {
        Map<String, String> xml = new LinkedHashMap<>();
        String p = "jmeter.save.saveservice.";
        xml.put(p + "output_format", "xml");
        for (String f : new String[] {"response_data", "samplerData", "requestHeaders", "responseHeaders", "url",
                "assertions", "subresults", "encoding", "bytes", "sent_bytes", "label", "response_code",
                "response_message", "successful", "assertion_results_failure_message"}) {
            xml.put(p + f, "true");
        }
        xml.put(p + "assertion_results", "all");
        return JMeterRun.of(JMeterHome.fromStampedeRoot(), plan, dir).jtlFormat(xml).timeout(Duration.ofMinutes(3))
                .run();
    }

    private static List<Element> topSamples(Path jtl) throws Exception {
        // A binary body byte below 0x20 is written as a character reference XML 1.0 does not allow: masked.
        String xml = Files.readString(jtl).replaceAll("&#x([0-8bcef]|1[0-9a-f]);", "?");
        Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new java.io.ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
        List<Element> out = children(root, "httpSample");
        out.sort(Comparator.comparingLong(x -> Long.parseLong(x.getAttribute("ts"))));
        return out;
    }

    private static List<Element> children(Element parent, String tag) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element el && (tag == null || el.getTagName().equals(tag))) {
                out.add(el);
            }
        }
        return out;
    }

    private static String text(Element sample, String tag) {
        for (Element c : children(sample, tag)) {
            return c.getTextContent();
        }
        return "";
    }

    private void compare(Element s, Element e, String where, List<String> diffs) {
        String label = s.getAttribute("lb");
        String at = where + label + ": ";
        if (!label.equals(e.getAttribute("lb"))) {
            diffs.add(at + "label " + e.getAttribute("lb"));
            return;
        }
        for (String attr : new String[] {"s", "rc", "rm", "de"}) {
            same(at + attr, s.getAttribute(attr), e.getAttribute(attr), diffs);
        }
        same(at + "url", text(s, "java.net.URL"), text(e, "java.net.URL"), diffs);
        same(at + "redirectLocation", text(s, "redirectLocation"), text(e, "redirectLocation"), diffs);
        same(at + "cookies sent", text(s, "cookies"), text(e, "cookies"), diffs);
        same(at + "post data", normalise(text(s, "queryString")), normalise(text(e, "queryString")), diffs);
        same(at + "body", body(s), body(e), diffs);
        same(at + "request headers", requestHeaders(s), requestHeaders(e), diffs);
        same(at + "assertions", assertions(s), assertions(e), diffs);
        List<Element> subS = children(s, "httpSample");
        List<Element> subE = children(e, "httpSample");
        same(at + "sub-results", Integer.toString(subS.size()), Integer.toString(subE.size()), diffs);
        if (subS.size() == subE.size()) {
            subS.sort(Comparator.comparing(x -> x.getAttribute("lb")));
            subE.sort(Comparator.comparing(x -> x.getAttribute("lb")));
            for (int i = 0; i < subS.size(); i++) {
                compare(subS.get(i), subE.get(i), where + label + " > ", diffs);
            }
        }
    }

    private static void same(String what, String stock, String engine, List<String> diffs) {
        if (!stock.equals(engine)) {
            diffs.add(what + "\n    stock:  " + stock.replace("\n", "\\n") + "\n    engine: "
                    + engine.replace("\n", "\\n"));
        }
    }

    /** The decoded body; a failure's body is a stack trace, of which the exception's first line is compared. */
    private static String body(Element sample) {
        String data = text(sample, "responseData");
        if (sample.getAttribute("rc").startsWith("Non HTTP")) {
            return data.lines().findFirst().orElse("");
        }
        return normalise(data);
    }

    /**
     * The known differences, removed before comparing: the User-Agent (the engine names itself), multipart
     * boundaries (random on both) and the length they give the body, httpbin's echo of the Digest cnonce.
     */
    private static String normalise(String s) {
        return s.replaceAll("(?i)(\"User-Agent\":\\s*\")[^\"]*\"", "$1…\"")
                .replaceAll("boundary=[-\\w]+", "boundary=…")
                .replaceAll("(?m)^--[-\\w]{20,}", "--…")
                .replaceAll("(\"Content-Length\":\\s*\")\\d+(\",\\s*\"Content-Type\":\\s*\"multipart)", "$1…$2");
    }

    private static String requestHeaders(Element sample) {
        Map<String, String> fields = new TreeMap<>();
        for (String line : text(sample, "requestHeader").split("\n")) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            switch (name) {
                case "user-agent" -> value = "…";
                case "authorization" -> value = value.startsWith("Digest") ? "Digest …" : value;
                case "content-type" -> value = normalise(value);
                // httpbin's /cache says Last-Modified: now, so the validator sent back is the time of each run
                case "if-modified-since" -> value = "(a date)";
                case "content-length" -> value = fields.getOrDefault("content-type", "").startsWith("multipart")
                        ? "…" : value;
                default -> {
                }
            }
            fields.put(name, value);
        }
        if (fields.getOrDefault("content-type", "").startsWith("multipart")) {
            fields.put("content-length", "…");
        }
        return fields.toString();
    }

    private static String assertions(Element sample) {
        StringBuilder b = new StringBuilder();
        for (Element a : children(sample, "assertionResult")) {
            b.append(text(a, "name")).append(" failure=").append(text(a, "failure")).append(" error=")
                    .append(text(a, "error")).append("; ");
        }
        return b.toString();
    }
}
