/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine;

import io.netty.handler.ssl.SslContext;

/**
 * Two client TLS contexts, one verifying the server and one trusting any certificate, each made at first use and
 * then shared by every connection of its kind, so that one session cache per kind lets later connections resume.
 */
final class LazyTlsContexts {
    /** Makes the context of one kind. */
    interface Factory {
        SslContext create(boolean trustAll);
    }

    private final Factory factory;
    private volatile SslContext verifying;
    private volatile SslContext trustingAll;

    LazyTlsContexts(Factory factory) {
        this.factory = factory;
    }

    SslContext get(boolean trustAll) {
        SslContext c = trustAll ? trustingAll : verifying;
        if (c == null) {
            synchronized (this) {
                c = trustAll ? trustingAll : verifying;
                if (c == null) {
                    c = factory.create(trustAll);
                    if (trustAll) {
                        trustingAll = c;
                    } else {
                        verifying = c;
                    }
                }
            }
        }
        return c;
    }
}
