/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShareTest {

    private static List<Long> parts(long total, int n) {
        List<Long> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(new Share(i, n).of(total));
        }
        return out;
    }

    @Test
    void wholeNumbersSpreadTheRemainderOverTheFirstShares() {
        assertEquals(List.of(334L, 333L, 333L), parts(1000, 3));
        assertEquals(List.of(3L, 3L, 2L, 2L), parts(10, 4));
        assertEquals(List.of(1L, 1L, 0L), parts(2, 3));
        assertEquals(List.of(7L), parts(7, 1));
    }

    @Test
    void sharesAlwaysAddUpAndBlocksTileTheRows() {
        for (long total : new long[] {0, 1, 2, 99, 100, 1001, 123457}) {
            for (int n = 1; n <= 12; n++) {
                long sum = 0;
                for (int i = 1; i <= n; i++) {
                    Share s = new Share(i, n);
                    assertEquals(sum, s.start(total), total + " over " + n + ", share " + i);
                    sum += s.of(total);
                }
                assertEquals(total, sum, total + " over " + n);
            }
        }
    }

    @Test
    void ratesAreDividedToAMillionthAndAddUp() {
        BigDecimal sum = BigDecimal.ZERO;
        List<String> got = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            BigDecimal part = new Share(i, 3).of(new BigDecimal("5000"));
            got.add(part.toPlainString());
            sum = sum.add(part);
        }
        assertEquals(List.of("1666.666667", "1666.666667", "1666.666666"), got);
        assertEquals(0, sum.compareTo(new BigDecimal("5000")));
        assertEquals("2.5", new Share(2, 2).of(new BigDecimal("5.0")).toPlainString());
    }

    @Test
    void theOptionIsCheckedWithTheFix() {
        assertEquals(new Share(3, 10), Share.parse("3/10"));
        assertEquals("i3of10", Share.parse(" 3 / 10 ").prefix());
        for (String bad : new String[] {"3", "0/3", "4/3", "a/3", "1/0", "-1/2", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Share.parse(bad));
            assertTrue(e.getMessage().startsWith("--share"), e.getMessage());
            assertTrue(e.getMessage().contains("e.g. --share"), e.getMessage());
        }
    }
}
