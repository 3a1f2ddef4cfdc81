/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import com.fasterxml.aalto.AsyncByteBufferFeeder;
import com.fasterxml.aalto.AsyncXMLInputFactory;
import com.fasterxml.aalto.AsyncXMLStreamReader;
import com.fasterxml.aalto.stax.InputFactoryImpl;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamConstants;

/**
 * An XMPP stream's bytes to stream events and whole stanzas, on Aalto's non-blocking parser: bytes are fed as they
 * arrive, in any split, and each top-level child of the stream (a stanza, features, a SASL step) comes out as one
 * {@link XmlElement}. A stream restart (after STARTTLS and after SASL) needs a new parser: {@link #restart()}.
 *
 * <p>The parser is made at the first byte of a stream, and dropped between stanzas when the caller asks
 * ({@link #release()}): a new one is then primed with the stream's opening tag, so an idle session holds no parser
 * buffers, only the opening tag's text it already received.
 */
public final class StanzaParser {

    /** Receives what the parser finds, on the thread that feeds it. */
    public interface Sink {
        void streamOpened(XmlElement header) throws XmppException;

        void element(XmlElement element) throws XmppException;

        void streamClosed() throws XmppException;
    }

    /** Never reconfigured after construction: one factory shares Aalto's symbol tables among all parsers. */
    private static final AsyncXMLInputFactory FACTORY = new InputFactoryImpl();
    private static final List<XmlElement> NO_CHILDREN = List.of();
    private static final String[] NO_ATTRIBUTES = new String[0];

    /**
     * The stream around RFC 7395's elements: over WebSocket each message is one element (open, close, a stanza)
     * with no stream around it, read as a child of this one so namespaces resolve as on TCP.
     */
    private static final String FRAMED_STREAM = "<stream:stream xmlns='jabber:client' "
            + "xmlns:stream='http://etherx.jabber.org/streams'>";

    private final Sink sink;
    /** The stream header every new stream starts from: null on TCP (the server's), the framing's otherwise. */
    private final String fixedHeader;
    private AsyncXMLStreamReader<AsyncByteBufferFeeder> reader;
    /** The open elements below the stream: [0] is the stanza being built. */
    private Builder[] open = new Builder[4];
    private int depth;
    /** The stream's opening tag as it came, kept to prime a parser made again after {@link #release()}. */
    private String streamHeader;
    private boolean priming;
    /** Bytes fed to the current parser, the priming included. */
    private long fed;
    /** Where the last stanza (or the stream's opening tag) ended in those bytes; -1 before either. */
    private long boundary = -1;

    public StanzaParser(Sink sink) {
        this(sink, null);
    }

    private StanzaParser(Sink sink, String fixedHeader) {
        this.sink = sink;
        this.fixedHeader = fixedHeader;
        this.streamHeader = fixedHeader;
    }

    /**
     * A parser for XMPP over WebSocket (RFC 7395): the bytes are elements one after another (each message one
     * element, fragments in any split), as children of a stream opened in {@code jabber:client}; the framing's
     * {@code <open/>} and {@code <close/>} come out as elements, and {@link Sink#streamOpened} is never called.
     */
    public static StanzaParser forFramedElements(Sink sink) {
        return new StanzaParser(sink, FRAMED_STREAM);
    }

    /** A new stream starts with the next byte (after STARTTLS's handshake or SASL success). */
    public void restart() {
        closeReader();
        depth = 0;
        streamHeader = fixedHeader;
    }

    /**
     * Drops the parser between stanzas: an idle session keeps no parser state. No-op while anything is half-read: a
     * stanza, or the first bytes of the next one (a read that ends in {@code <pres}), which the parser holds and a new
     * one would never see.
     */
    public void release() {
        if (reader != null && depth == 1 && streamHeader != null && boundary == fed) {
            closeReader();
        }
    }

    /** Feeds the bytes (all of them are read) and hands out every event they complete. */
    public void feed(ByteBuffer bytes) throws XmppException {
        try {
            if (reader == null) {
                reader = FACTORY.createAsyncForByteBuffer();
                fed = 0;
                boundary = -1;
                if (streamHeader != null) {
                    // Re-made after release(): the stream's opening tag again, its event not handed out twice.
                    priming = true;
                    byte[] header = streamHeader.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    fed = header.length;
                    reader.getInputFeeder().feedInput(ByteBuffer.wrap(header));
                    depth = 0;
                    drain();
                    priming = false;
                }
            }
            fed += bytes.remaining();
            reader.getInputFeeder().feedInput(bytes);
            drain();
        } catch (XMLStreamException e) {
            throw new XmppStreamException("not-well-formed", "the client's parser: " + e.getMessage());
        }
    }

    private void drain() throws XMLStreamException, XmppException {
        AsyncXMLStreamReader<AsyncByteBufferFeeder> r = reader;
        for (;;) {
            int event = r.next();
            switch (event) {
                case AsyncXMLStreamReader.EVENT_INCOMPLETE:
                    return;
                case XMLStreamConstants.START_ELEMENT:
                    started(r);
                    if (reader != r) {
                        return; // the sink restarted the stream: what follows is the next stream's
                    }
                    break;
                case XMLStreamConstants.CHARACTERS:
                case XMLStreamConstants.CDATA:
                    if (depth >= 2) {
                        open[depth - 2].text(r.getText());
                    }
                    break;
                case XMLStreamConstants.END_ELEMENT:
                    ended(r);
                    if (reader != r) {
                        return;
                    }
                    break;
                case XMLStreamConstants.END_DOCUMENT:
                    return;
                default:
                    break; // declarations, comments, processing instructions, whitespace between stanzas
            }
        }
    }

    private void started(AsyncXMLStreamReader<AsyncByteBufferFeeder> r) throws XmppException, XMLStreamException {
        Builder b = new Builder(r.getLocalName(), nullToEmpty(r.getNamespaceURI()), attributes(r));
        if (depth == 0) {
            depth = 1;
            boundary = r.getLocationInfo().getEndingByteOffset();
            if (!priming) {
                streamHeader = openingTag(r, b).intern(); // the same few namespaces on every session
                sink.streamOpened(b.build());
            }
            return;
        }
        if (depth - 1 == open.length) {
            open = java.util.Arrays.copyOf(open, open.length * 2);
        }
        open[depth - 1] = b;
        depth++;
    }

    private void ended(AsyncXMLStreamReader<AsyncByteBufferFeeder> r) throws XmppException, XMLStreamException {
        if (depth == 1) {
            depth = 0;
            sink.streamClosed();
            return;
        }
        depth--;
        XmlElement e = open[depth - 1].build();
        open[depth - 1] = null;
        if (depth == 1) {
            boundary = r.getLocationInfo().getEndingByteOffset();
            sink.element(e);
        } else {
            open[depth - 2].child(e);
        }
    }

    private static String[] attributes(AsyncXMLStreamReader<AsyncByteBufferFeeder> r) {
        int n = r.getAttributeCount();
        if (n == 0) {
            return NO_ATTRIBUTES;
        }
        String[] a = new String[n * 2];
        for (int i = 0; i < n; i++) {
            String prefix = r.getAttributePrefix(i);
            String local = r.getAttributeLocalName(i);
            a[2 * i] = prefix == null || prefix.isEmpty() ? local : prefix + ':' + local;
            a[2 * i + 1] = r.getAttributeValue(i);
        }
        return a;
    }

    /** The stream's opening tag rebuilt with its namespace declarations, enough to prime a new parser. */
    private static String openingTag(AsyncXMLStreamReader<AsyncByteBufferFeeder> r, Builder b) {
        StringBuilder s = new StringBuilder(160);
        String prefix = r.getPrefix();
        s.append('<');
        if (prefix != null && !prefix.isEmpty()) {
            s.append(prefix).append(':');
        }
        s.append(r.getLocalName());
        for (int i = 0; i < r.getNamespaceCount(); i++) {
            String p = r.getNamespacePrefix(i);
            s.append(p == null || p.isEmpty() ? " xmlns" : " xmlns:" + p).append("='");
            Xml.escape(r.getNamespaceURI(i), s);
            s.append('\'');
        }
        s.append('>');
        return s.toString();
    }

    private void closeReader() {
        if (reader != null) {
            try {
                reader.close();
            } catch (XMLStreamException e) {
                // nothing to release that matters: the parser is dropped either way
            }
            reader = null;
        }
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    /** An element being read. */
    private static final class Builder {
        private final String name;
        private final String ns;
        private final String[] attributes;
        private List<XmlElement> children = NO_CHILDREN;
        private StringBuilder text;

        Builder(String name, String ns, String[] attributes) {
            this.name = name;
            this.ns = ns;
            this.attributes = attributes;
        }

        void text(String s) {
            if (text == null) {
                text = new StringBuilder(s.length());
            }
            text.append(s);
        }

        void child(XmlElement e) {
            if (children == NO_CHILDREN) {
                children = new ArrayList<>(2);
            }
            children.add(e);
        }

        XmlElement build() {
            return new XmlElement(name, ns, attributes, children, text == null ? "" : text.toString().strip());
        }
    }
}
