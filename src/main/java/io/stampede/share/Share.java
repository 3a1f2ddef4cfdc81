/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.share;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Share {@code index} of {@code count} of a plan's load ({@code stampede run --share I/N}). Whole numbers are split
 * as evenly as possible with the remainder going one each to the first shares (1,000 over 3 = 334 + 333 + 333), so
 * the shares always add up to the plan's number; rates are split to a millionth, the last millionths likewise.
 */
public record Share(int index, int count) {

    /** Decimal places of a divided rate. */
    static final int RATE_SCALE = 6;

    public Share {
        if (count < 1 || index < 1 || index > count) {
            throw new IllegalArgumentException("--share " + index + "/" + count + ": I must be 1 to N and N at least 1,"
                    + " e.g. --share 1/3 for the first of three injectors");
        }
    }

    /** Parses the option's value, I/N. */
    public static Share parse(String value) {
        String v = value == null ? "" : value.trim();
        int slash = v.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("--share " + value + ": give I/N, this injector's share and the number"
                    + " of injectors, e.g. --share 2/3");
        }
        int i;
        int n;
        try {
            i = Integer.parseInt(v.substring(0, slash).trim());
            n = Integer.parseInt(v.substring(slash + 1).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--share " + value + ": I and N must be whole numbers, e.g. --share 2/3");
        }
        return new Share(i, n);
    }

    /** This share of a whole number. */
    public long of(long total) {
        return total / count + (index <= total % count ? 1 : 0);
    }

    /** Where this share's part of {@code total} items starts (0-based), the shares before it taking theirs first. */
    public long start(long total) {
        long before = index - 1;
        return before * (total / count) + Math.min(before, total % count);
    }

    /** This share of a rate, to {@link #RATE_SCALE} decimals; the shares add up to the rate so rounded. */
    public BigDecimal of(BigDecimal total) {
        BigDecimal units = total.setScale(RATE_SCALE, RoundingMode.HALF_UP).movePointRight(RATE_SCALE);
        long whole = units.longValueExact();
        return BigDecimal.valueOf(of(whole)).movePointLeft(RATE_SCALE).stripTrailingZeros();
    }

    /** What thread names start with, as JMeter's distributed mode puts the engine there: {@code i3of10}. */
    public String prefix() {
        return "i" + index + "of" + count;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
