/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The XMPP benchmark's division of users over nodes and engines ({@link XmppSplit}), and its refusals of what it
 * cannot run, before any ejabberd node or JMeter starts: a message naming the option, exit code 2.
 */
class XmppBenchmarkArgumentsIT {

    @Test
    void theHundredThousandUsersGoToSixNodesThatRampTogetherAtTheWholeRate() {
        XmppSplit split = XmppSplit.of(100_000, 250, 100, 6, 20_000, 30);
        assertEquals(List.of(new XmppSplit.Part(17_000, 17), new XmppSplit.Part(17_000, 17),
                new XmppSplit.Part(17_000, 17), new XmppSplit.Part(17_000, 17), new XmppSplit.Part(16_000, 16),
                new XmppSplit.Part(16_000, 16)), split.parts());
        assertTrue(split.parts().stream().allMatch(p -> p.rampMillis() == 1_000_000), split.describe());
    }

    @Test
    void threadsLeftOverGoToTheEnginesClosestToTheirShare() {
        // 30 threads at 34, 33, 33 logins/s: 10.2, 9.9, 9.9 threads; the two left over go to the 9.9s.
        XmppSplit split = XmppSplit.of(3000, 100, 100, 3, 20_000, 30);
        assertEquals(List.of(new XmppSplit.Part(1000, 34), new XmppSplit.Part(1000, 33),
                new XmppSplit.Part(1000, 33)), split.parts());
        assertEquals(List.of(new XmppSplit.Part(19_000, 100)), XmppSplit.of(19_000, 250, 100, 1, 20_000, 30).parts());
    }

    @Test
    void aNodeOverTheFileLimitIsRefusedWithTheNodesThatWouldHoldTheUsers() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> XmppSplit.of(100_000, 250, 100, 5, 20_000, 30));
        assertTrue(e.getMessage().contains("20,000 users on engine and node 1")
                && e.getMessage().contains("use --nodes 6 or more"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--users 4000000 --sessions-per-thread 1000 --nodes 2 | does not fit the per-process file limit",
        "--users 3000 --nodes 3 --engines 2                    | give as many engines as nodes",
        "--users 3000 --nodes 2 --tools stampede,tsung         | --tools tsung runs against one node",
        "--users 3000 --nodes 3 --login-rate 2                 | gives less than one login per second",
        "--users 3000 --nodes 3 --sessions-per-thread 1500     | fewer than the 3 engines",
        "--users 3000 --nodes three                            | --nodes three: give a whole number",
        "--users 3000 --speed 3                                | unknown option --speed",
    })
    void refusesWithAMessageAndExitCode2(String arguments, String message) throws Exception {
        MainProcess run = MainProcess.run(XmppBenchmark.class, arguments);
        assertEquals(2, run.exitCode(), run.output());
        assertTrue(run.output().contains("xmpp-benchmark: ") && run.output().contains(message), run.output());
    }
}
