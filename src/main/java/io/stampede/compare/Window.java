/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

/**
 * One second of one run: its latencies as a sparse histogram (ascending bucket values in µs, HdrHistogram's
 * highest equivalent value of each bucket, and their counts), and how many samples started in it and failed.
 */
public record Window(int second, long[] values, long[] counts, long samples, long errors) {

    public Window {
        if (values.length != counts.length) {
            throw new IllegalArgumentException("values and counts differ in length");
        }
    }
}
