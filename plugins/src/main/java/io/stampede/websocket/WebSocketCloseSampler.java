/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.websocket;

import io.stampede.engine.websocket.WebSocketCall;
import io.stampede.sampler.PropertyNumbers;
import io.stampede.sessions.UserSessions;
import org.apache.jmeter.samplers.SampleResult;

import java.util.List;

/**
 * The close handshake on the thread's session(s) of a name: our close frame with its code and reason, then the
 * server's; the sample's response code is the server's close code. A session the server closed earlier fails here
 * with that close, so it is never lost. Nothing opened: the result is ignored.
 */
public class WebSocketCloseSampler extends WebSocketSampler {
    private static final long serialVersionUID = 1L;

    public static final String CLOSE_CODE = "websocket.close_code";
    public static final String CLOSE_REASON = "websocket.close_reason";

    @Override
    SampleResult sample(UserSessions<SessionGroup> ts, SampleResult res) {
        SessionGroup g = ts.get(sessionName());
        if (g == null) {
            res.setIgnore();
            return res;
        }
        int code = PropertyNumbers.whole(CLOSE_CODE, getPropertyAsString(CLOSE_CODE), 1000, 1000, 4999);
        String reason = getPropertyAsString(CLOSE_REASON);
        List<WebSocketCall> done = g.close(code, reason, timeoutMillis());
        if (done == null) {
            return filled(res, null, g, null);
        }
        if (done.isEmpty()) {
            res.setIgnore();
            return res;
        }
        String data = "close " + code + (reason.isEmpty() ? "" : " " + reason);
        if (done.size() == 1) {
            return filled(res, done.get(0), g, data);
        }
        int failed = 0;
        SampleResult first = null;
        for (WebSocketCall c : done) {
            SampleResult sub = new SampleResult();
            sub.setSampleLabel(getName());
            filled(sub, c, g, data);
            if (!sub.isSuccessful() && first == null) {
                first = sub;
            }
            failed += sub.isSuccessful() ? 0 : 1;
            res.addRawSubResult(sub);
        }
        res.setStampAndTime(res.getSubResults()[0].getStartTime(), 0);
        res.setEndTime(System.currentTimeMillis());
        res.setSuccessful(first == null);
        res.setResponseCode(first == null ? Integer.toString(code) : first.getResponseCode());
        res.setResponseMessage(done.size() + " sessions closed" + (failed == 0 ? "" : ", " + failed + " failed"));
        return res;
    }
}
