/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.http2;

import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2PromisedRequestVerifier;
import io.netty.handler.codec.http2.Http2Settings;

/** Builds the {@link Http2Session} of a new connection, with the engine's settings and codec. */
final class Http2SessionBuilder extends AbstractHttp2ConnectionHandlerBuilder<Http2Session, Http2SessionBuilder> {
    private final Http2Connection connection;
    private final long connectStart;

    Http2SessionBuilder(Http2Connection connection, long connectStart) {
        this.connection = connection;
        this.connectStart = connectStart;
        // A header table of 0: the server may not index response fields for us, so decoding a response head
        // adds nothing to a table that every next head would evict again (nginx re-indexes its fields on
        // every response), and a head equal to the last one need not be decoded again.
        initialSettings(Http2Settings.defaultSettings().pushEnabled(false).headerTableSize(0)
                .initialWindowSize(connection.options().streamWindow()));
        // Built as the builder would for a client, but for the headers decoder; the builder's limit on control
        // frames queued for a server that does not read is added back (ControlFrameLimit).
        var codecConnection = new DefaultHttp2Connection(false);
        var reader = new DefaultHttp2FrameReader(new RepeatedHeaderBlockDecoder(Http2CodecUtil.DEFAULT_HEADER_LIST_SIZE));
        var encoder = new ControlFrameLimit(new DefaultHttp2ConnectionEncoder(codecConnection,
                new DefaultHttp2FrameWriter()), ControlFrameLimit.DEFAULT_MAX);
        codec(new DefaultHttp2ConnectionDecoder(codecConnection, encoder, reader,
                Http2PromisedRequestVerifier.ALWAYS_VERIFY, true, true, false, false), encoder);
        gracefulShutdownTimeoutMillis(1000);
    }

    @Override
    public Http2Session build() {
        return super.build();
    }

    @Override
    protected Http2Session build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
                            Http2Settings initialSettings) {
        Http2Session s = new Http2Session(connection, decoder, encoder, initialSettings, connectStart);
        frameListener(s.frames());
        return s;
    }
}
