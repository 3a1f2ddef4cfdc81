/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

/**
 * nginx as plans/recorded-shop.jmx expects its site: /test.txt for every request, the login's POST answered like
 * a GET (a static file would get 405), and a session cookie on every answer for the Cookie Manager to keep and
 * send back. docs/http-request.md (recorded-shop.jmx) gives users the same two lines.
 */
public final class ShopSite {

    public static final String SERVER_LINES = "error_page 405 =200 $uri; "
            + "add_header Set-Cookie \"shop_session=c$connection; Path=/\";";

    private ShopSite() {
    }

    public static NginxServer.Options nginx() {
        return NginxServer.Options.defaults().withSite("", SERVER_LINES);
    }
}
