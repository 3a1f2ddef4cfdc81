/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StanzaParserTest {
    private static final String HEADER = "<?xml version='1.0'?><stream:stream xmlns='jabber:client' "
            + "xmlns:stream='http://etherx.jabber.org/streams' id='s1' from='example.org' version='1.0'>";
    private static final String MESSAGE = "<message to='a@example.org' xml:lang='en'><body>x &amp; y</body>"
            + "<stampede xmlns='urn:stampede:sent' at='12'/></message>";

    private final List<String> events = new ArrayList<>();
    private final StanzaParser parser = new StanzaParser(new StanzaParser.Sink() {
        @Override
        public void streamOpened(XmlElement header) {
            events.add("open " + header.attr("id"));
        }

        @Override
        public void element(XmlElement e) {
            events.add(e.ns() + " " + e.toXml());
        }

        @Override
        public void streamClosed() {
            events.add("closed");
        }
    });

    private void feed(String s) throws XmppException {
        parser.feed(ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void readsStanzasSplitAtEveryByte() throws Exception {
        for (byte b : (HEADER + MESSAGE + "</stream:stream>").getBytes(StandardCharsets.UTF_8)) {
            parser.feed(ByteBuffer.wrap(new byte[] {b}));
        }
        assertEquals(List.of("open s1", "jabber:client " + MESSAGE, "closed"), events);
    }

    @Test
    void aReleaseAfterEveryReadLosesNoByteOfAStanzaBegunInIt() throws Exception {
        // Reads that end inside the next stanza's first tag ("<pres"): the parser holds those bytes, so it must stay.
        String presence = "<presence from='b@example.org/r'><show>away</show></presence>";
        byte[] all = (HEADER + MESSAGE + presence + MESSAGE + "</stream:stream>").getBytes(StandardCharsets.UTF_8);
        for (byte b : all) {
            parser.feed(ByteBuffer.wrap(new byte[] {b}));
            parser.release();
        }
        assertEquals(List.of("open s1", "jabber:client " + MESSAGE, "jabber:client " + presence,
                "jabber:client " + MESSAGE, "closed"), events);
    }

    @Test
    void aParserReleasedBetweenStanzasReadsTheNextOneInTheSameNamespaces() throws Exception {
        feed(HEADER);
        parser.release();
        feed("<stream:features><starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/></stream:features>");
        parser.release();
        feed(MESSAGE);
        assertEquals(List.of("open s1",
                "http://etherx.jabber.org/streams <features xmlns='http://etherx.jabber.org/streams'>"
                        + "<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/></features>",
                "jabber:client " + MESSAGE), events);
    }

    @Test
    void aRestartReadsANewStreamHeader() throws Exception {
        feed(HEADER + "<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>");
        parser.restart();
        feed(HEADER.replace("s1", "s2") + MESSAGE);
        assertEquals(List.of("open s1", "urn:ietf:params:xml:ns:xmpp-sasl <success "
                + "xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>", "open s2", "jabber:client " + MESSAGE), events);
    }

    @Test
    void framedElementsOfRfc7395ComeOutOneByOneInTheClientNamespaceAcrossAnySplit() throws Exception {
        List<String> framed = new ArrayList<>();
        StanzaParser p = StanzaParser.forFramedElements(new StanzaParser.Sink() {
            @Override
            public void streamOpened(XmlElement header) {
                framed.add("stream opened");
            }

            @Override
            public void element(XmlElement e) {
                framed.add(e.ns() + " " + e.name() + " " + e.attr("id"));
            }

            @Override
            public void streamClosed() {
                framed.add("stream closed");
            }
        });
        String open = "<open xmlns='urn:ietf:params:xml:ns:xmpp-framing' from='example.org' id='s1' version='1.0'/>";
        String features = "<stream:features xmlns:stream='http://etherx.jabber.org/streams'><mechanisms "
                + "xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms>"
                + "</stream:features>";
        byte[] all = (open + features + MESSAGE.replace("<message", "<message id='m1'")
                + "<message xmlns='jabber:client' id='m2'/><close xmlns='urn:ietf:params:xml:ns:xmpp-framing'/>")
                .getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < all.length; i += 7) {
            p.feed(ByteBuffer.wrap(all, i, Math.min(7, all.length - i)));
            p.release(); // as between two frames: a parser made again reads on in the same namespaces
        }
        assertEquals(List.of("urn:ietf:params:xml:ns:xmpp-framing open s1", "http://etherx.jabber.org/streams features "
                + "null", "jabber:client message m1", "jabber:client message m2",
                "urn:ietf:params:xml:ns:xmpp-framing close null"), framed);
    }

    @Test
    void malformedXmlIsAStreamErrorOfItsOwn() throws Exception {
        feed(HEADER);
        XmppStreamException e = assertThrows(XmppStreamException.class, () -> feed("<message><body></message>"));
        assertEquals("not-well-formed", e.condition());
    }
}
