/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.results.ErrorKind;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class RunDiagnosisTest {

    private static final Optional<PortBudget> FIVE_HUNDRED =
            Optional.of(new PortBudget(40000, 40499, 0, 0, OptionalLong.of(1000), true, false));

    @Test
    void noErrorsNoDiagnosis() {
        RunDiagnosis d = RunDiagnosis.of(Map.of(), 50000, Optional.of(new TimeWaitTrend(0, 3)), FIVE_HUNDRED);
        assertTrue(d.lines().isEmpty());
        assertFalse(d.injectorSuspected());
        RunDiagnosis zeros = RunDiagnosis.of(Map.of(ErrorKind.CONNECTION_RESET, 0L), 10, Optional.empty(), Optional.empty());
        assertTrue(zeros.lines().isEmpty());
    }

    @Test
    void httpErrorsAloneAreNotTheInjectorsBusiness() {
        RunDiagnosis d = RunDiagnosis.of(Map.of(ErrorKind.HTTP_5XX, 40L, ErrorKind.ASSERTION, 2L), 1000,
                Optional.of(new TimeWaitTrend(0, 490)), FIVE_HUNDRED);
        assertTrue(d.lines().isEmpty());
        assertFalse(d.injectorSuspected());
    }

    @Test
    void outOfLocalPortsNamesTheInjectorAndTheFixes() {
        RunDiagnosis d = RunDiagnosis.of(Map.of(ErrorKind.OUT_OF_LOCAL_PORTS, 155L, ErrorKind.HTTP_5XX, 1L), 50000,
                Optional.of(new TimeWaitTrend(2, 500)), FIVE_HUNDRED);
        assertTrue(d.injectorSuspected());
        assertEquals("injector: 155 of 50000 samples (0.31%) failed with \"out of local ports (Cannot assign requested"
                + " address)\": the injector ran out of local ports; the injector, not the server, is the cause;"
                + " TIME_WAIT to the target went from 2 to 500 (of 500 local ports per destination)", d.lines().get(0));
        assertTrue(d.lines().get(1).startsWith("fix: keep connections alive (Stampede samplers: stampede.keep_alive = true"), d.lines().get(1));
        assertTrue(d.lines().get(2).contains("more source addresses or injectors (500 ports each)"), d.lines().get(2));
        assertTrue(d.lines().get(2).contains("net.ipv4.tcp_tw_reuse = 1"));
    }

    @Test
    void resetsWhileTimeWaitPilesUpBlameTheInjector() {
        RunDiagnosis d = RunDiagnosis.of(Map.of(ErrorKind.CONNECTION_RESET, 12L, ErrorKind.PREMATURE_CLOSE, 3L,
                ErrorKind.CONNECTION_REFUSED, 1L), 1600, Optional.of(new TimeWaitTrend(10, 400)), FIVE_HUNDRED);
        assertTrue(d.injectorSuspected());
        assertEquals("injector: 16 of 1600 samples (1.00%) failed with connection reset (12), connection refused (1),"
                + " connection closed before the response was complete (3) while TIME_WAIT to the target went from 10"
                + " to 400 (of 500 local ports per destination): the injector's TIME_WAIT sockets are the likely"
                + " cause, not the server", d.lines().get(0));
    }

    @Test
    void withoutABudgetAThousandMoreTimeWaitSocketsCountAsPilingUp() {
        Map<ErrorKind, Long> resets = Map.of(ErrorKind.CONNECTION_RESET, 5L);
        assertTrue(RunDiagnosis.of(resets, 100, Optional.of(new TimeWaitTrend(100, 1100)), Optional.empty()).injectorSuspected());
        assertFalse(RunDiagnosis.of(resets, 100, Optional.of(new TimeWaitTrend(100, 1099)), Optional.empty()).injectorSuspected());
    }

    @Test
    void resetsWithoutTimeWaitGrowthPointAtTheServer() {
        RunDiagnosis d = RunDiagnosis.of(Map.of(ErrorKind.CONNECTION_RESET, 7L), 700,
                Optional.of(new TimeWaitTrend(5, 6)), FIVE_HUNDRED);
        assertFalse(d.injectorSuspected());
        assertTrue(d.lines().get(0).startsWith("server or network: 7 of 700 samples (1.00%) failed with connection reset (7);"
                + " TIME_WAIT to the target went from 5 to 6"), d.lines().get(0));
        assertTrue(d.lines().get(1).contains("TcpExtListenOverflows"));
        RunDiagnosis unsampled = RunDiagnosis.of(Map.of(ErrorKind.CONNECTION_REFUSED, 2L), 0, Optional.empty(), Optional.empty());
        assertEquals("2 samples failed with connection refused (2); TIME_WAIT was not sampled, so injector and server"
                + " cannot be told apart", unsampled.lines().get(0));
    }
}
