/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTP/2 benchmark refuses arguments it cannot honour with a message that names the option, and exit code 2,
 * before it starts nginx or JMeter. Run as a process: the benchmark ends with System.exit.
 */
class Http2BenchmarkArgumentsIT {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--turns 9                             | --turns takes a slice of 1 to 7 seconds",
        "--turns 0.5                           | --turns takes a slice of 1 to 7 seconds",
        "--turns five                          | --turns takes a slice of 1 to 7 seconds",
        "--turns 5 --ab same=1                 | use it without --ab and --profile",
        "--ab -Q                               | --ab takes NAME=VALUE",
        "--setups h2c-10x20@3                  | THREADS must be 1 or more and divide the 10 connections",
        "--setups h3-1x1                       | is not PROTOCOL-CONNSxSTREAMS[@THREADS]",
        "--speed 3                             | unknown option --speed",
    })
    void refusesWithAMessageAndExitCode2(String arguments, String message) throws Exception {
        MainProcess run = MainProcess.run(Http2Benchmark.class, arguments);
        assertEquals(2, run.exitCode(), run.output());
        assertTrue(run.output().contains("h2-benchmark: ") && run.output().contains(message), run.output());
    }
}
