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
import java.nio.file.Path;
import java.util.List;
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
    void resetsWhileTimeWaitNearTheBudgetBlameTheInjector() {
        RunDiagnosis d = RunDiagnosis.of(Map.of(ErrorKind.CONNECTION_RESET, 12L, ErrorKind.PREMATURE_CLOSE, 3L,
                ErrorKind.CONNECTION_REFUSED, 1L), 1600, Optional.of(new TimeWaitTrend(10, 450, OptionalLong.of(400))),
                FIVE_HUNDRED);
        assertTrue(d.injectorSuspected());
        assertEquals("injector: 16 of 1600 samples (1.00%) failed with connection reset (12), connection refused (1),"
                + " connection closed before the response was complete (3) while 400 of 500 local ports to the target"
                + " were in TIME_WAIT: the injector's TIME_WAIT sockets are the likely cause, not the server",
                d.lines().get(0));
        assertTrue(d.lines().get(1).startsWith("fix: keep connections alive"), d.lines().get(1));
    }

    @Test
    void timeWaitJustBelowFourFifthsOfTheBudgetIsNotEvidence() {
        Map<ErrorKind, Long> resets = Map.of(ErrorKind.CONNECTION_RESET, 5L);
        assertTrue(RunDiagnosis.of(resets, 100, Optional.of(new TimeWaitTrend(0, 400, OptionalLong.of(400))),
                FIVE_HUNDRED).injectorSuspected());
        assertFalse(RunDiagnosis.of(resets, 100, Optional.of(new TimeWaitTrend(0, 500, OptionalLong.of(399))),
                FIVE_HUNDRED).injectorSuspected());
    }

    @Test
    void aHighTimeWaitPeakAfterTheFailuresIsNotEvidence() {
        // TIME_WAIT reached the whole budget only when the injector closed its connections at the end of the run;
        // when the resets happened it stood at 20.
        RunDiagnosis d = RunDiagnosis.of(Map.of(ErrorKind.CONNECTION_RESET, 5L), 100,
                Optional.of(new TimeWaitTrend(0, 500, OptionalLong.of(20))), FIVE_HUNDRED);
        assertFalse(d.injectorSuspected(), d.lines().toString());
        assertTrue(d.lines().get(0).contains("at most 20 of 500 local ports to the target were in TIME_WAIT when they"
                + " failed"), d.lines().get(0));
    }

    @Test
    void withoutAPortBudgetOnlyOutOfPortsErrorsBlameTheInjector() {
        Map<ErrorKind, Long> resets = Map.of(ErrorKind.CONNECTION_RESET, 5L);
        assertFalse(RunDiagnosis.of(resets, 100, Optional.of(new TimeWaitTrend(100, 30000)), Optional.empty())
                .injectorSuspected());
        assertTrue(RunDiagnosis.of(Map.of(ErrorKind.OUT_OF_LOCAL_PORTS, 1L), 100,
                Optional.of(new TimeWaitTrend(100, 100)), Optional.empty()).injectorSuspected());
    }

    /**
     * Issue 20's distributed run: 247 closed early and 6 resets of 484,210 samples, TIME_WAIT to the target from 1
     * to 16,227 of 28,232 ports, no sample out of local ports, and nginx's log saying 184 times that it reused
     * connections. The server closed them; the injector had ports to spare.
     */
    @Test
    void theIssuesRunIsTheServersDoing() {
        Optional<PortBudget> defaults = Optional.of(new PortBudget(32768, 60999, 0, 2, OptionalLong.of(1000), true, true));
        Map<ErrorKind, Long> errors = Map.of(ErrorKind.PREMATURE_CLOSE, 247L, ErrorKind.CONNECTION_RESET, 6L,
                ErrorKind.OUT_OF_LOCAL_PORTS, 0L);
        Optional<TimeWaitTrend> timeWait = Optional.of(new TimeWaitTrend(1, 16227));
        Optional<ServerLogFindings> log = Optional.of(new ServerLogFindings(Path.of("/tmp/bench/error.log"),
                Map.of(ServerLogEvent.REUSING_CONNECTIONS, 184L)));

        RunDiagnosis d = RunDiagnosis.of(errors, 484210, timeWait, defaults, log);
        assertFalse(d.injectorSuspected(), d.lines().toString());
        assertEquals("server or network: 253 of 484210 samples (0.05%) failed with connection reset (6), connection"
                + " closed before the response was complete (247); no sample ran out of local ports and at most 16227"
                + " of 28232 local ports to the target were in TIME_WAIT when they failed (TIME_WAIT went from 1 to"
                + " 16227 over the run, which includes the injector closing its connections at the end), so the server"
                + " or the network closed these connections", d.lines().get(0));
        assertEquals("server log error.log: \"reusing connections\" 184 times: nginx closed idle keep-alive connections"
                + " to make room for new ones: a worker reached its worker_connections; raise worker_connections or"
                + " worker_processes, and add reuseport to every listen so the kernel spreads connections evenly over"
                + " the workers", d.lines().get(1));
        assertEquals(RunDiagnosis.SERVER_CAUSES, d.lines().get(2));
        for (String cause : List.of("keepalive_timeout", "worker_connections", "a balancer's or firewall's idle timeouts")) {
            assertTrue(d.lines().get(2).contains(cause), cause);
        }
        assertTrue(d.lines().stream().noneMatch(l -> l.contains("injector") && !l.contains("injector closing")),
                d.lines().toString());

        // The same run without nginx's log: still the server's or the network's, never the injector's.
        RunDiagnosis withoutLog = RunDiagnosis.of(errors, 484210, timeWait, defaults);
        assertFalse(withoutLog.injectorSuspected());
        assertTrue(withoutLog.lines().get(0).startsWith("server or network: 253 of 484210 samples"));
        assertEquals(RunDiagnosis.SERVER_CAUSES, withoutLog.lines().get(1));
    }

    @Test
    void aServerLogIsReportedEvenWhenNoSampleFailed() {
        Optional<ServerLogFindings> log = Optional.of(new ServerLogFindings(Path.of("error.log"),
                Map.of(ServerLogEvent.REUSING_CONNECTIONS, 3L, ServerLogEvent.TOO_MANY_OPEN_FILES, 1L)));
        RunDiagnosis d = RunDiagnosis.of(Map.of(), 1000, Optional.of(new TimeWaitTrend(0, 0)), FIVE_HUNDRED, log);
        assertFalse(d.injectorSuspected());
        assertEquals(3, d.lines().size(), d.lines().toString());
        assertTrue(d.lines().get(0).startsWith("server: no sample failed on its connection, but the server's log"));
        assertTrue(d.lines().get(1).startsWith("server log error.log: \"reusing connections\" 3 times: "));
        assertTrue(d.lines().get(2).startsWith("server log error.log: \"too many open files\" 1 time: "));
        RunDiagnosis quiet = RunDiagnosis.of(Map.of(), 1000, Optional.empty(), FIVE_HUNDRED,
                Optional.of(new ServerLogFindings(Path.of("error.log"), Map.of())));
        assertTrue(quiet.lines().isEmpty());
    }

    @Test
    void resetsWithoutTimeWaitGrowthPointAtTheServer() {
        RunDiagnosis d = RunDiagnosis.of(Map.of(ErrorKind.CONNECTION_RESET, 7L), 700,
                Optional.of(new TimeWaitTrend(5, 6)), FIVE_HUNDRED);
        assertFalse(d.injectorSuspected());
        assertTrue(d.lines().get(0).startsWith("server or network: 7 of 700 samples (1.00%) failed with connection reset (7);"
                + " no sample ran out of local ports and at most 6 of 500 local ports"), d.lines().get(0));
        assertTrue(d.lines().get(1).contains("TcpExtListenOverflows"));
        RunDiagnosis unsampled = RunDiagnosis.of(Map.of(ErrorKind.CONNECTION_REFUSED, 2L), 0, Optional.empty(), Optional.empty());
        assertEquals("server or network: 2 samples failed with connection refused (2); no sample ran out of local"
                + " ports (TIME_WAIT was not sampled), so the server or the network closed these connections",
                unsampled.lines().get(0));
    }

    @Test
    void namesEachXmppKindWithWhatItMeans() {
        RunDiagnosis d = RunDiagnosis.of(Map.of(ErrorKind.XMPP_SASL_FAILURE, 3L, ErrorKind.XMPP_TIMEOUT, 1L), 100,
                Optional.empty(), Optional.empty());
        assertEquals(2, d.lines().size(), d.lines().toString());
        assertTrue(d.lines().get(0).startsWith("xmpp: 3 of 100 samples failed with \"XMPP SASL failure"),
                d.lines().toString());
        assertTrue(d.lines().get(1).contains("server that stopped answering"), d.lines().toString());
        assertFalse(d.injectorSuspected());
    }

    @Test
    void namesAnXmppInboxOverflowWithTheSettingsThatAvoidIt() {
        RunDiagnosis d = RunDiagnosis.of(Map.of(ErrorKind.XMPP_INBOX_OVERFLOW, 2L), 100, Optional.empty(),
                Optional.empty());
        assertEquals(1, d.lines().size(), d.lines().toString());
        assertTrue(d.lines().get(0).startsWith("xmpp: 2 of 100 samples failed with \"XMPP inbox overflow"),
                d.lines().toString());
        assertTrue(d.lines().get(0).contains("xmpp.inbox_limit") && d.lines().get(0).contains("xmpp.inbox_keep"),
                d.lines().toString());
    }
}
