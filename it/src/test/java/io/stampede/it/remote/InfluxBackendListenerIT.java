/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.FreePort;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMeter's own Backend Listener (InfluxdbBackendListenerClient, the element JMeter users add for Grafana) reports
 * Stampede's samplers as it reports stock ones: a real InfluxDB 1.x (Debian's influxd, run here with its own
 * configuration, data folders and ports) fed during one `stampede run` of a plan with JMeter's HTTP Request (on
 * Stampede's engine), Stampede's HTTP sampler, a request that always fails and a Transaction Controller. At the end,
 * InfluxDB's sums of the listener's rows equal the JTL: samples per label ({@code statut=all}), errors per label
 * ({@code statut=ko}), received bytes per label, the overall row's samples and errors, and the error rows by
 * response code.
 */
class InfluxBackendListenerIT {

    private static final Path ROOT = JMeterHome.stampedeRoot();
    private static final String DB = "stampede";
    /** influxd's own limit: it ends by itself even if this JVM dies before killing it. */
    private static final int INFLUXD_SECONDS = 240;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Process influxd;
    private NginxServer nginx;
    private int influxPort;

    @TempDir
    Path dir;

    @AfterEach
    void stopEverything() throws InterruptedException {
        if (influxd != null) {
            influxd.descendants().forEach(ProcessHandle::destroyForcibly);
            influxd.destroyForcibly();
            influxd.waitFor(10, TimeUnit.SECONDS);
        }
        if (nginx != null) {
            nginx.close();
        }
    }

    @Test
    void influxDbHoldsWhatTheJtlHolds() throws Exception {
        nginx = NginxServer.start(NginxServer.Options.defaults());
        startInfluxd();
        post("CREATE DATABASE " + DB);

        Path console = dir.resolve("run.out");
        List<String> args = List.of("run", Plans.get("influxdb-backend.jmx").toString(), "--out",
                dir.resolve("run").toString(), "--no-dashboard", "--heap", "256m", "--host", "127.0.0.1", "--port",
                Integer.toString(nginx.port()), "-J", "influxdb_port=" + influxPort, "-J", "influxdb_db=" + DB);
        assertEquals(0, StampedeCli.runToEnd(ROOT, dir, console, args), Files.readString(console));
        Jtl jtl = Jtl.read(dir.resolve("run/results.jtl"));
        // 3 users x 20 loops x (login, item, missing, buy)
        assertEquals(3 * 20 * 4, jtl.count(), "samples in the JTL");
        assertEquals(Map.of("buy", 60L, "item", 60L, "login", 60L, "missing", 60L), perLabel(jtl, r -> 1L));

        Map<String, Long> samples = perLabel(jtl, r -> 1L);
        samples.put("all", (long) jtl.count()); // the listener's overall row
        assertEquals(samples, sums("count", "\"statut\"='all'"), "samples by label (transaction tag)");
        Map<String, Long> errors = perLabel(jtl, r -> r.success() ? 0L : 1L);
        errors.values().removeIf(n -> n == 0);
        assertEquals(Map.of("missing", 60L, "buy", 60L), errors, "the JTL's errors: the 404s and their transaction");
        assertEquals(errors, sums("count", "\"statut\"='ko'"), "errors by label");
        assertEquals(Map.of("all", (long) jtl.errors()), sums("countError", "\"transaction\"='all'"), "errors overall");
        assertEquals(Map.of("missing", 60L), sums("count", "\"responseCode\"='404'"), "error rows by response code");
        Map<String, Long> bytes = perLabel(jtl, JtlRow::bytes);
        Map<String, Long> received = sums("rb", "\"statut\"='all'");
        received.remove("all");
        assertEquals(bytes, received, "received bytes by label");
        assertTrue(bytes.get("item") > 0 && bytes.get("login") > 0, "the responses' bytes: " + bytes);

        // every query of the Grafana dashboard in docs/ answers with data, Grafana's macros filled in as it would
        String dashboard = Files.readString(ROOT.resolve("docs/grafana/stampede-influxdb.json"));
        Matcher q = Pattern.compile("\"query\": \"((?:[^\"\\\\]|\\\\.)*)\"").matcher(dashboard);
        int queries = 0;
        while (q.find()) {
            String query = q.group(1).replace("\\\"", "\"").replace("\\\\", "\\");
            if (query.equals("influxdb")) {
                continue; // the data source variable's type, not a query
            }
            String filled = query.replace("$timeFilter", "time > now() - 1h").replace("$__interval_ms", "1000")
                    .replace("$__interval", "1s").replace("$application", "stampede");
            String body = get(filled);
            assertTrue(body.contains("\"series\"") && !body.contains("\"error\""), query + " -> " + body);
            queries++;
        }
        assertTrue(queries >= 10, "queries found in the dashboard: " + queries);
    }

    private static Map<String, Long> perLabel(Jtl jtl, ToLongFunction<JtlRow> value) {
        Map<String, Long> m = new TreeMap<>();
        for (JtlRow r : jtl.rows()) {
            m.merge(r.label(), value.applyAsLong(r), Long::sum);
        }
        return m;
    }

    private void startInfluxd() throws Exception {
        influxPort = FreePort.loopback();
        int rpc = FreePort.loopback();
        Path conf = dir.resolve("influxdb.conf");
        Files.writeString(conf, """
                reporting-disabled = true
                bind-address = "127.0.0.1:%d"
                [meta]
                  dir = "%s"
                [data]
                  dir = "%s"
                  wal-dir = "%s"
                  query-log-enabled = false
                [monitor]
                  store-enabled = false
                [subscriber]
                  enabled = false
                [continuous_queries]
                  enabled = false
                [http]
                  bind-address = "127.0.0.1:%d"
                  log-enabled = false
                """.formatted(rpc, dir.resolve("influx/meta"), dir.resolve("influx/data"), dir.resolve("influx/wal"),
                influxPort));
        Path log = dir.resolve("influxd.log");
        influxd = new ProcessBuilder("timeout", "--kill-after=5", Integer.toString(INFLUXD_SECONDS), "/usr/bin/influxd",
                "run", "-config", conf.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && influxd.isAlive()) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(base() + "/ping")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 204) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("influxd did not answer /ping in 30 s:\n" + Files.readString(log));
    }

    private String base() {
        return "http://127.0.0.1:" + influxPort;
    }

    private String post(String statement) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base() + "/query"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("q=" + URLEncoder.encode(statement, StandardCharsets.UTF_8)))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), statement + " -> " + r.body());
        assertTrue(!r.body().contains("\"error\""), statement + " -> " + r.body());
        return r.body();
    }

    /** The answer to one InfluxQL query of the database. */
    private String get(String query) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(base() + "/query?db=" + DB + "&q="
                    + URLEncoder.encode(query, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString())
                    .body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code sum(field)} of the listener's rows matching {@code where}, per transaction tag (the sample's label). */
    private Map<String, Long> sums(String field, String where) {
        String q = "SELECT sum(\"" + field + "\") FROM \"jmeter\" WHERE " + where + " GROUP BY \"transaction\"";
        String body = get(q);
        // {"results":[{"statement_id":0,"series":[{"name":"jmeter","tags":{"transaction":"item"},
        //   "columns":["time","sum"],"values":[["1970-01-01T00:00:00Z",60]]}, ...]}]}
        Matcher m = Pattern.compile("\"tags\":\\{\"transaction\":\"([^\"]*)\"\\},\"columns\":\\[[^\\]]*\\],"
                + "\"values\":\\[\\[[^,]*,([0-9.eE+-]+)\\]\\]").matcher(body);
        Map<String, Long> out = new TreeMap<>();
        while (m.find()) {
            out.put(m.group(1), Math.round(Double.parseDouble(m.group(2))));
        }
        assertTrue(!out.isEmpty() || body.contains("\"statement_id\":0}"), q + " -> " + body);
        return out;
    }
}
