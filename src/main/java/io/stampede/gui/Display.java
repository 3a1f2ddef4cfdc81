/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.gui;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a window can be opened at all. On Linux a Swing window needs an X server (or Wayland with XWayland);
 * without either, JMeter would fail deep in AWT with a HeadlessException, so the CLI says so first.
 */
final class Display {

    static final String HINT = "JMeter's GUI needs a display; use `stampede run` for non-GUI runs, or run this on a "
            + "desktop / over X forwarding";

    private Display() {}

    /** The reason no window can be opened, or empty when one can (or the platform is not Linux). */
    static Optional<String> missing(Map<String, String> environment, String osName) {
        if (!osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return Optional.empty(); // Windows and macOS always have a desktop for a logged-in user
        }
        if (isSet(environment.get("DISPLAY")) || isSet(environment.get("WAYLAND_DISPLAY"))) {
            return Optional.empty();
        }
        return Optional.of(HINT + " (DISPLAY and WAYLAND_DISPLAY are unset; e.g. ssh -X, or xvfb-run for scripts)");
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }
}
