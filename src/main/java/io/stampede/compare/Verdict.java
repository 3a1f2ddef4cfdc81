/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import java.util.Locale;

/** The sentence a performance engineer reads: which way, by how much, how sure. */
public record Verdict(boolean significant, String text) {

    public static Verdict of(String name, Estimate e, Margin margin) {
        boolean beyondNoise = e.excludesZero();
        boolean worthIt = margin.exceededBy(e);
        if (e.latency()) {
            double d = e.difference() / 1000;
            String amount = String.format(Locale.ROOT, "%s ms", ms(Math.abs(d)));
            String pm = String.format(Locale.ROOT, "±%s", ms(e.halfWidth() / 1000));
            if (beyondNoise && worthIt) {
                return new Verdict(true, String.format(Locale.ROOT, "%s is %s %s at %s (%s)", name, amount,
                        d > 0 ? "slower" : "faster", e.statistic(), pm));
            }
            return new Verdict(false, String.format(Locale.ROOT, "%s: no significant difference at %s (%s%s ms %s%s)",
                    name, e.statistic(), d >= 0 ? "+" : "-", ms(Math.abs(d)), pm,
                    beyondNoise ? ", under the margin" : ""));
        }
        double pct = (e.ratio() - 1) * 100;
        double half = (e.ratioHi() - e.ratioLo()) / 2 * 100;
        if (beyondNoise && worthIt) {
            return new Verdict(true, String.format(Locale.ROOT, "%s does %.1f %% %s req/s (±%.1f)", name,
                    Math.abs(pct), pct > 0 ? "more" : "fewer", half));
        }
        return new Verdict(false, String.format(Locale.ROOT, "%s: no significant difference in req/s (%+.1f %% ±%.1f%s)",
                name, pct, half, beyondNoise ? ", under the margin" : ""));
    }

    /** Milliseconds with three significant digits and at least µs resolution. */
    static String ms(double ms) {
        double a = Math.abs(ms);
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", ms);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", ms);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", ms);
        }
        return String.format(Locale.ROOT, "%.3f", ms);
    }
}
