/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.names;

/**
 * The names users keep of the plugin: the element classes and properties <b>saved in users' plans</b> (.jmx), the
 * JMeter properties <b>typed in users' properties</b> ({@code jmeter.properties}, {@code user.properties},
 * {@code -J}), the variables named in {@code sample_variables} and the values users filter their JTL on.
 * <b>Do not rename any of them</b>: a renamed name silently reads as unset in every plan and properties file that
 * has it (as JMeter's own {@code //+ JMX names - do not change}). A new name is added here, and everything else,
 * the {@code stampede} command line included, refers to it here.
 *
 * <p>Only compile-time constants: the command line compiles them into its own classes and does not carry this
 * class, and no JMeter or Netty class is needed to read it.
 */
public final class PluginNames {

    // ---- element classes, saved in plans as testclass / guiclass ------------------------------------------------

    /** The Stampede HTTP sampler. */
    public static final String HTTP_SAMPLER_CLASS = "io.stampede.sampler.HttpSampler";
    /** The Stampede HTTP RAW sampler. */
    public static final String HTTP_RAW_SAMPLER_CLASS = "io.stampede.sampler.HttpRawSampler";
    /** JMeter's HTTP Request on the engine. */
    public static final String HTTP_REQUEST_CLASS = "io.stampede.httprequest.EngineHttpRequest";
    /** Its panel: the stock HTTP Request panel plus the protocol field. */
    public static final String HTTP_REQUEST_GUI_CLASS = "io.stampede.httprequest.gui.EngineHttpRequestGui";
    /** The Virtual User Thread Group. */
    public static final String VIRTUAL_USER_THREAD_GROUP_CLASS = "io.stampede.threads.VirtualUserThreadGroup";

    // ---- the Stampede samplers' properties, saved in plans -------------------------------------------------------

    public static final String HOST = "stampede.host";
    public static final String PORT = "stampede.port";
    public static final String CONNECT_TIMEOUT = "stampede.connect_timeout";
    public static final String RESPONSE_TIMEOUT = "stampede.response_timeout";
    public static final String KEEP_ALIVE = "stampede.keep_alive";
    public static final String RESPONSE_BYTES_KEPT = "stampede.response_bytes_kept";
    public static final String TLS_TRUST_ALL = "stampede.tls.trust_all";
    public static final String TLS_SNI = "stampede.tls.sni";
    /**
     * http/1.1 (default), h2 (HTTP/2 over TLS, ALPN) or h2c (HTTP/2 over cleartext, prior knowledge); on the
     * Stampede samplers, on JMeter's HTTP Request on the engine, and plan-wide as a JMeter property.
     */
    public static final String PROTOCOL = "stampede.protocol";
    /** HTTP/2: streams in flight per connection (capped by the server's SETTINGS_MAX_CONCURRENT_STREAMS). */
    public static final String H2_STREAMS = "stampede.h2.streams";
    /** HTTP/2: requests per connection before a graceful reconnect; empty or 0 for none. */
    public static final String H2_MAX_REQUESTS = "stampede.h2.max_requests";
    /** HTTP/2: receive window per stream in bytes (the connection's is 1 GiB). */
    public static final String H2_WINDOW = "stampede.h2.window";
    /** HTTP/2: PING after this many ms without a frame from the server (keep-alive, dead-peer check); 0 for none. */
    public static final String H2_PING_MS = "stampede.h2.ping_ms";
    public static final String CONNECTIONS_PER_THREAD = "stampede.connections_per_thread";
    public static final String PACING_MS = "stampede.pacing_ms";
    public static final String TARGET_RATE = "stampede.target_rate";
    public static final String PIPELINE_DEPTH = "stampede.pipeline_depth";
    /** Local addresses, ranges and CIDR blocks the connections are opened from. */
    public static final String SOURCE_ADDRESSES = "stampede.source_addresses";

    public static final int DEFAULT_PORT = 80;
    public static final int DEFAULT_CONNECT_TIMEOUT = 5000;
    public static final int DEFAULT_RESPONSE_TIMEOUT = 30000;
    public static final int DEFAULT_RESPONSE_BYTES_KEPT = 65536;

    // the HTTP sampler's own
    public static final String HTTP_METHOD = "stampede.http.method";
    public static final String HTTP_PATH = "stampede.http.path";
    public static final String HTTP_HEADERS = "stampede.http.headers";
    public static final String HTTP_BODY = "stampede.http.body";
    /** http (default) or https. */
    public static final String HTTP_SCHEME = "stampede.http.scheme";

    // the HTTP RAW sampler's own
    public static final String RAW_REQUEST = "stampede.raw.request";
    public static final String RAW_CRLF = "stampede.raw.crlf";
    /** boolProp: send over TLS (handshake inside Connect). */
    public static final String RAW_TLS = "stampede.tls";

    // ---- the Virtual User Thread Group's properties, saved in plans ----------------------------------------------

    /** Ramp-up and delay keep the names of JMeter's Thread Group, so plans and tools read them alike. */
    public static final String USERS_RAMP_UP = "ThreadGroup.ramp_time";
    public static final String USERS_DELAY = "ThreadGroup.delay";
    public static final String USERS_HOLD = "VirtualUserThreadGroup.hold";

    // ---- JMeter properties, typed in users' properties -------------------------------------------------------------

    /** {@code thread} or {@code engine}: who does the I/O of the thread's own connections. */
    public static final String IO_MODE = "stampede.io_mode";
    /** {@code thread} (default) or {@code engine}: one pool per target for all threads of the JVM. */
    public static final String CONNECTION_SHARING = "stampede.connection_sharing";
    /** The most connections the engine-wide pool opens per target. */
    public static final String POOL_SIZE = "stampede.pool_size";
    public static final int DEFAULT_POOL_SIZE = 1000;
    /** The largest response body JMeter's HTTP Request on the engine holds while JMeter's own limit is off. */
    public static final String HTTPREQUEST_MAX_BODY_BYTES = "stampede.httprequest.max_body_bytes";
    /** A Java system property (-D): the engine's event loop count. */
    public static final String IO_THREADS = "stampede.io_threads";

    /** The element `stampede run --remote` adds to the plan it divides: each engine's share in its thread names. */
    public static final String SHARE_THREAD_NAMES_CLASS = "io.stampede.functions.ShareThreadNames";
    /** Its property: how many shares the plan was divided into. */
    public static final String SHARE_THREAD_NAMES_SHARES = "ShareThreadNames.shares";
    /** The element `stampede run --share --start-at` adds to its plan: the thread groups start at one moment. */
    public static final String START_AT_CLASS = "io.stampede.functions.StartAt";
    /** Its property: the moment, in milliseconds since the epoch. */
    public static final String START_AT_EPOCH_MILLIS = "StartAt.epochMillis";

    /**
     * The element the command line adds first under the test plan of every plan it runs: it starts the injector
     * monitor at the test's start, in the JMeter that runs the threads (the engines of a distributed run).
     */
    public static final String INJECTOR_MONITOR_CLASS = "io.stampede.injector.InjectorMonitorAtStart";
    /**
     * The file name of the user's plan, on that element: JMeter loads a copy of the plan, and the element gives
     * {@code __TestPlanName} the user's name back when the test starts.
     */
    public static final String INJECTOR_MONITOR_PLAN_NAME = "InjectorMonitorAtStart.plan_name";

    /** The value of JMeter's {@code mode} property that chooses Stampede's compact sample sender. */
    public static final String COMPACT_SAMPLE_SENDER_CLASS = "io.stampede.remote.CompactSampleSender";
    /** Samples waiting for the sender thread; a sampling thread waits when it is full (counted, logged). */
    public static final String SENDER_QUEUE_SIZE = "stampede.sender.queue_size";
    /** The most samples one call to the controller carries. */
    public static final String SENDER_BATCH_SIZE = "stampede.sender.batch_size";
    /** How long a batch may wait to fill before it is sent. */
    public static final String SENDER_LINGER_MS = "stampede.sender.linger_ms";
    /** How long the end of the test waits for the queue to drain before it reports the end anyway. */
    public static final String SENDER_DRAIN_SECONDS = "stampede.sender.drain_seconds";
    /** How long a sampling thread waits for room in a full queue before its sample is dropped (counted). */
    public static final String SENDER_QUEUE_WAIT_MS = "stampede.sender.queue_wait_ms";

    /**
     * Where the injector monitor writes its series (set by `stampede run` and `stampede server`); without it the
     * monitor's element starts nothing.
     */
    public static final String INJECTOR_CSV = "stampede.injector_csv";
    /** Set by the monitor once it runs, to the file it writes: a JMeter process starts one monitor, not one a test. */
    public static final String INJECTOR_MONITOR_RUNNING = "stampede.injector_monitor.running";
    /** The URL of the controller's collector an engine sends its injector rows to (set by `stampede run`). */
    public static final String INJECTOR_COLLECTOR = "stampede.injector_collector";
    /** An engine's name in those rows: its advertised address and registry port (set by `stampede server`). */
    public static final String ENGINE_NAME = "stampede.engine_name";
    /** The folder an engine spools its own samples into for `stampede server --metrics` (set by it). */
    public static final String ENGINE_SAMPLES_DIR = "stampede.engine_samples_dir";

    // ---- JMeter variables a sample sets, named in sample_variables (JTL columns) --------------------------------

    /** Connections open in this JMeter engine (all Stampede samplers, all threads) when the sample completed. */
    public static final String OPEN_CONNECTIONS_VARIABLE = "stampede_open_connections";
    /** The sample's elapsed time in microseconds (JMeter's elapsed column has only milliseconds). */
    public static final String ELAPSED_US_VARIABLE = "stampede_elapsed_us";
    /**
     * Microseconds from the intended send time (pacing or target rate schedule) to the complete response: the
     * latency corrected for coordinated omission; equal to the elapsed time without a schedule.
     */
    public static final String CORRECTED_US_VARIABLE = "stampede_corrected_us";
    /**
     * The protocol the sample spoke: http/1.1, h2, h2c, or {@link #ALPN_FALLBACK}; empty when an h2/h2c request
     * failed before its connection was negotiated.
     */
    public static final String PROTOCOL_VARIABLE = "stampede_protocol";
    /** The protocol variable's value when h2 was asked and the server did not choose it in ALPN. */
    public static final String ALPN_FALLBACK = "http/1.1 (ALPN fallback)";

    // ---- what the plugin writes for the command line (and users' scripts read) -------------------------------

    /** The columns of the injector monitor's series (injector.csv, and the rows an engine sends its controller). */
    public static final String INJECTOR_SERIES_HEADER =
            "second,process_cpu_cores,machine_cpu_cores,cores,gc_pause_ms,gc_count,stall_max_ms,heap_used_mb,"
            + "loop_lag_max_ms";
    /** The columns of an engine's sample-sender counts, sent to the controller at the end of a test. */
    public static final String DELIVERY_HEADER = "samples_sent,samples_dropped,samples_unconfirmed";
    /** The HTTP header that names the engine in what it sends to the controller's collector. */
    public static final String ENGINE_HTTP_HEADER = "X-Stampede-Engine";

    private PluginNames() {}
}
