/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import org.apache.http.HttpEntity;
import org.apache.http.NameValuePair;
import org.apache.http.client.entity.UrlEncodedFormEntity;
import org.apache.http.entity.ContentType;
import org.apache.http.entity.FileEntity;
import org.apache.http.entity.StringEntity;
import org.apache.http.entity.mime.FormBodyPartBuilder;
import org.apache.http.entity.mime.HttpMultipartMode;
import org.apache.http.entity.mime.MultipartEntityBuilder;
import org.apache.http.entity.mime.content.FileBody;
import org.apache.http.entity.mime.content.StringBody;
import org.apache.http.message.BasicNameValuePair;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.util.ConversionUtils;
import org.apache.jmeter.protocol.http.util.HTTPArgument;
import org.apache.jmeter.protocol.http.util.HTTPConstants;
import org.apache.jmeter.protocol.http.util.HTTPFileArg;
import org.apache.jmeter.services.FileServer;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.util.JMeterUtils;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The body of a request that carries one (POST, PUT, PATCH, DELETE, and GET with "Body Data" or a file as body), built
 * by the rules stock JMeter's HttpClient 4 sampler follows: multipart/form-data with parameters and files, a file as
 * the whole body, "Body Data" (nameless parameter values), or url-encoded form parameters; the Content-Type from the
 * Header Manager, else a file's MIME type, else the entity's own. The bytes are produced by HttpClient 4's entity
 * classes, which stock JMeter ships, so the bytes on the wire are the ones stock sends.
 *
 * @param bytes what goes on the wire after the head
 * @param contentType the entity's Content-Type, sent when the headers have none (null: none)
 * @param shown the body as JMeter shows it in the sampler data (file contents replaced by a placeholder)
 */
record RequestBody(byte[] bytes, String contentType, String shown) {
    static final String FILE_PLACEHOLDER = "<actual file content, not shown here>";
    private static final boolean ADD_CONTENT_TYPE_IF_MISSING =
            JMeterUtils.getPropDefault("http.post_add_content_type_if_missing", false);

    /** An entity-enclosing request with nothing to send: HttpClient 4 still sends Content-Length: 0. */
    static final RequestBody EMPTY = new RequestBody(new byte[0], null, "");
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    /** The form entity's Content-Type per charset that encodes ASCII as itself, taken from the entity itself. */
    private static final Map<Charset, String> FORM_TYPES = Map.of(
            StandardCharsets.UTF_8, formType(StandardCharsets.UTF_8),
            StandardCharsets.ISO_8859_1, formType(StandardCharsets.ISO_8859_1),
            StandardCharsets.US_ASCII, formType(StandardCharsets.US_ASCII));

    /**
     * Builds the body of {@code sampler}'s request; {@code headers} (the request's own, Header Manager included) may
     * gain or lose a Content-Type as stock's would.
     */
    static RequestBody of(HTTPSamplerBase sampler, HeaderFields headers) throws IOException {
        HTTPFileArg[] files = sampler.getHTTPFiles();
        String encoding = sampler.getContentEncoding();
        Charset charset = Charset.forName(encoding);
        if (sampler.getUseMultipart()) {
            headers.remove(HTTPConstants.HEADER_CONTENT_TYPE);
            return multipart(sampler, files, charset, encoding);
        }
        String userType = headers.first(HTTPConstants.HEADER_CONTENT_TYPE);
        boolean hasContentType = userType != null && !userType.isEmpty();
        if (!sampler.hasArguments() && sampler.getSendFileAsPostBody()) {
            HTTPFileArg file = files[0];
            if (!hasContentType) {
                contentTypeFromFile(headers, file);
            }
            File f = FileServer.getFileServer().getResolvedFile(file.getPath());
            return new RequestBody(bytesOf(new FileEntity(f, (ContentType) null)), null, FILE_PLACEHOLDER);
        }
        if (sampler.getSendParameterValuesAsPostBody()) {
            if (!hasContentType) {
                contentTypeFromFile(headers, files.length > 0 ? files[0] : null);
            }
            StringBuilder body = new StringBuilder();
            for (JMeterProperty p : sampler.getArguments()) {
                body.append(((HTTPArgument) p.getObjectValue()).getEncodedValue(encoding));
            }
            return of(new StringEntity(body.toString(), encoding), encoding);
        }
        if (!hasContentType && ADD_CONTENT_TYPE_IF_MISSING) {
            headers.set(HTTPConstants.HEADER_CONTENT_TYPE, HTTPConstants.APPLICATION_X_WWW_FORM_URLENCODED);
        }
        return form(formPairs(sampler, encoding), encoding, charset);
    }

    private static void contentTypeFromFile(HeaderFields headers, HTTPFileArg file) {
        if (file != null && file.getMimeType() != null && !file.getMimeType().isEmpty()) {
            headers.set(HTTPConstants.HEADER_CONTENT_TYPE, file.getMimeType());
        } else if (ADD_CONTENT_TYPE_IF_MISSING) {
            headers.set(HTTPConstants.HEADER_CONTENT_TYPE, HTTPConstants.APPLICATION_X_WWW_FORM_URLENCODED);
        }
    }

    private static RequestBody multipart(HTTPSamplerBase sampler, HTTPFileArg[] files, Charset charset,
                                         String encoding) throws IOException {
        // "Browser-compatible headers": MIME headers in the request charset; otherwise RFC 6532 (UTF-8).
        boolean browserCompatible = sampler.getDoBrowserCompatibleMultipart();
        MultipartEntityBuilder builder = MultipartEntityBuilder.create().setCharset(charset);
        if (browserCompatible) {
            builder.setLaxMode();
        } else {
            builder.setMode(HttpMultipartMode.RFC6532);
        }
        for (JMeterProperty p : sampler.getArguments()) {
            HTTPArgument arg = (HTTPArgument) p.getObjectValue();
            String name = arg.getName();
            if (arg.isSkippable(name)) {
                continue;
            }
            ContentType type = arg.getContentType().indexOf(';') >= 0
                    ? ContentType.parse(arg.getContentType())
                    : ContentType.create(arg.getContentType(), charset);
            builder.addPart(FormBodyPartBuilder.create(name, new StringBody(arg.getValue(), type)).build());
        }
        List<HideableFileBody> fileBodies = new ArrayList<>(files.length);
        Charset nameCharset = browserCompatible ? charset : StandardCharsets.UTF_8;
        for (HTTPFileArg file : files) {
            File f = FileServer.getFileServer().getResolvedFile(file.getPath());
            HideableFileBody body = new HideableFileBody(f, ContentType.parse(file.getMimeType()), nameCharset);
            fileBodies.add(body);
            builder.addPart(file.getParamName(), body);
        }
        HttpEntity entity = builder.build();
        byte[] bytes = bytesOf(entity);
        fileBodies.forEach(b -> b.hidden = true);
        String shown = new String(bytesOf(entity), encoding);
        return new RequestBody(bytes, entity.getContentType().getValue(), shown);
    }

    /**
     * The url-encoded form, byte for byte {@link UrlEncodedFormEntity}'s: written here when every name and value is
     * ASCII and the charset encodes ASCII as itself (each character then is one byte, whatever the charset), else
     * by the entity. The entity's charset encoder and buffers per field were a tenth of building a POST.
     */
    static RequestBody form(List<NameValuePair> pairs, String encoding, Charset charset) throws IOException {
        String formType = FORM_TYPES.get(charset);
        if (formType != null) {
            StringBuilder text = new StringBuilder(64);
            boolean ascii = true;
            for (int i = 0; i < pairs.size() && ascii; i++) {
                NameValuePair p = pairs.get(i);
                if (text.length() > 0) {
                    text.append('&');
                }
                ascii = appendFormEncoded(text, p.getName());
                if (ascii && p.getValue() != null) {
                    text.append('=');
                    ascii = appendFormEncoded(text, p.getValue());
                }
            }
            if (ascii) {
                String form = text.toString();
                return new RequestBody(form.getBytes(StandardCharsets.US_ASCII), formType, form);
            }
        }
        return of(new UrlEncodedFormEntity(pairs, encoding), encoding);
    }

    /**
     * HttpClient 4's form encoding of an ASCII {@code s}: letters, digits and {@code _-.*} as they are, space as
     * {@code +}, every other character as {@code %XX} (upper-case hex); false, with nothing useful appended, when
     * {@code s} has a character beyond ASCII.
     */
    private static boolean appendFormEncoded(StringBuilder out, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                return false;
            }
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
                    || c == '.' || c == '*') {
                out.append(c);
            } else if (c == ' ') {
                out.append('+');
            } else {
                out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        return true;
    }

    private static List<NameValuePair> formPairs(HTTPSamplerBase sampler, String encoding) throws IOException {
        List<NameValuePair> pairs = new ArrayList<>();
        for (JMeterProperty p : sampler.getArguments()) {
            HTTPArgument arg = (HTTPArgument) p.getObjectValue();
            String name = arg.getName();
            if (arg.isSkippable(name)) {
                continue;
            }
            String value = arg.getValue();
            if (!arg.isAlwaysEncoded()) {
                // The user encoded it already: decoded here so that the form encoding gives back what they typed.
                name = URLDecoder.decode(name, encoding);
                value = URLDecoder.decode(value, encoding);
            }
            pairs.add(new BasicNameValuePair(name, value));
        }
        return pairs;
    }

    private static String formType(Charset charset) {
        try {
            return new UrlEncodedFormEntity(List.of(), charset.name()).getContentType().getValue();
        } catch (IOException e) {
            throw new IllegalStateException(e); // a standard charset is always supported
        }
    }

    private static RequestBody of(HttpEntity entity, String encoding) throws IOException {
        byte[] bytes = bytesOf(entity);
        return new RequestBody(bytes, entity.getContentType() == null ? null : entity.getContentType().getValue(),
                new String(bytes, encoding));
    }

    private static byte[] bytesOf(HttpEntity entity) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.max(32, Math.min(1 << 20,
                entity.getContentLength())));
        entity.writeTo(out);
        return out.toByteArray();
    }

    /** A file part whose content can be replaced by the placeholder, to show the body without the file. */
    private static final class HideableFileBody extends FileBody {
        private boolean hidden;

        HideableFileBody(File file, ContentType type, Charset nameCharset) {
            // HttpClient 4 cannot encode the file name itself; JMeter sends it entity-encoded then percent-encoded.
            super(file, type, ConversionUtils.percentEncode(ConversionUtils.encodeWithEntities(file.getName(),
                    nameCharset)));
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            if (hidden) {
                out.write(FILE_PLACEHOLDER.getBytes(StandardCharsets.UTF_8));
            } else {
                super.writeTo(out);
            }
        }
    }
}
