/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IpvsadmGrammarTest {

    private final IpvsadmGrammar grammar = new IpvsadmGrammar();

    @Test
    void acceptsWhatIpvsadmSaveWrites() {
        String rules = """
                -A -t 10.0.0.100:80 -s wlc -p 300 -M 255.255.255.0
                -a -t 10.0.0.100:80 -r 10.0.0.11:80 -g -w 1
                ipvsadm -a -t 10.0.0.100:80 -r 10.0.0.12 -g -w 0
                -A -u 10.0.0.100:53 -s sh -b sh-port,sh-fallback
                -a -u 10.0.0.100:53 -r 10.0.0.11:5353 -m -w 2
                -A -f 1 -s wlc -p 300 -M 255.255.255.0
                -a -f 1 -r 10.0.0.11 -g -w 1
                """;
        assertEquals(List.of(), grammar.check(rules));
    }

    @Test
    void commentsAreReportedBecauseTheRealToolsStopAtThem() {
        String rules = """
                # header
                -A -t 10.0.0.100:80 -s wlc
                   # indented
                -a -t 10.0.0.100:80 -r 10.0.0.11:80 -g -w 1 # trailing
                """;
        List<String> problems = grammar.check(rules);
        assertEquals(3, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("line 1: comment line: ipvsadm -R stops at it and ipvsadm-restore skips"),
                problems.get(0));
        assertTrue(problems.get(1).startsWith("line 3: comment line") && problems.get(1).contains("aborts there"),
                problems.get(1));
        assertTrue(problems.get(2).startsWith("line 4: comment after a rule"), problems.get(2));
        assertTrue(problems.stream().allMatch(p -> p.endsWith("keep comments in a separate README")));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "-A -t 10.0.0.100:80 -s fastest|unknown scheduler",
        "-a -t 10.0.0.100:80 -r 10.0.0.11:80 -g -w 1|not defined by an earlier -A",
        "-A -t 10.0.0.100:80 -s rr;-a -t 10.0.0.100:80 -r 10.0.0.11:8080 -g|must equal the service port",
        "-A -t 10.0.0.100:80 -s rr;-a -t 10.0.0.100:80 -r 10.0.0.11:80 -w 1|exactly one forwarding method",
        "-A -t 10.0.0.100:80 -s rr;-a -t 10.0.0.100:80 -r 10.0.0.11:80 -g -w 70000|weight 0-65535",
        "-A -t 10.0.0.100:80 -s rr;-A -t 10.0.0.100:80 -s wlc|defined twice",
        "-A -t 10.0.0.100:80 -s rr;-a -t 10.0.0.100:80 -r 10.0.0.11:80 -g;-a -t 10.0.0.100:80 -r 10.0.0.11:80 -g|listed twice",
        "-A -t 10.0.0.100:80 -s rr -b sh-port|does not apply",
        "-A -t 10.0.0.300:80 -s rr|not ADDRESS:PORT",
        "-A -t 10.0.0.100:80 -s rr -M 255.255.255.0|-M needs -p",
        "-A IN -d 10.0.0.100|malformed",
        "-A -f 0 -s rr|not a firewall mark",
        "-A -f 1 -t 10.0.0.100:80 -s rr|one of -t ADDRESS:PORT, -u ADDRESS:PORT or -f FWMARK",
        "-A -f 1 -s rr;-a -f 2 -r 10.0.0.11 -g|not defined by an earlier -A",
        "arptables -A IN -d 10.0.0.100 -j DROP|expected -A"})
    void refusesBrokenRules(String rules, String expected) {
        List<String> problems = grammar.check(rules.replace(";", "\n"));
        assertTrue(problems.stream().anyMatch(p -> p.contains(expected)), problems.toString());
        assertTrue(problems.get(0).startsWith("line "), problems.toString());
    }

    @Test
    void sysctlSyntaxRefusesGarbageAndRemovedKeys() {
        SysctlSyntax s = new SysctlSyntax();
        assertEquals(List.of(), s.check("# c\nnet.core.somaxconn = 4096\n-net.ipv4.vs.conntrack = 1\n"));
        assertEquals(1, s.check("net.core.somaxconn 4096\n").size());
        assertEquals(1, s.check("net.ipv4.tcp_tw_recycle = 1\n").size());
    }
}
