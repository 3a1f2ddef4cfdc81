/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.stampede.cluster.Fixtures;
import io.stampede.cluster.render.ClusterRenderer;
import io.stampede.cluster.render.RenderedFile;
import io.stampede.cluster.sys.Exec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real keepalived -t judges the HAProxy nodes' file, whose check runs as nobody, not root. */
class ScriptUserValidatorTest {

    @TempDir
    Path tmp;

    private Path haproxyNodeConf(String replace, String with) throws IOException {
        List<RenderedFile> files = new ClusterRenderer().render(Fixtures.spec(Fixtures.HAPROXY));
        String text = files.stream().filter(f -> f.relativePath().equals("haproxy/ha1/keepalived.conf")).findFirst()
                .orElseThrow().content();
        assertTrue(text.contains("script_user nobody\n"), text);
        Path conf = tmp.resolve("keepalived.conf");
        Files.writeString(conf, text.replace(replace, with));
        return conf;
    }

    private static Verdict check(Path conf) throws IOException {
        return new ClusterValidator().validate(conf.getParent()).stream()
                .filter(v -> v.file().equals("keepalived.conf")).findFirst().orElseThrow();
    }

    @Test
    void theUnprivilegedCheckPassesTheRealConfigTest() throws IOException {
        assumeTrue(Exec.available("keepalived"), "keepalived -t is the judge");
        Verdict v = check(haproxyNodeConf("", ""));
        assertEquals(Verdict.Status.OK, v.status(), v.toString());
    }

    @Test
    void aBrokenFileStillFailsWhenTheConfigTestIsRetriedAsRoot() throws IOException {
        assumeTrue(Exec.available("keepalived"), "keepalived -t is the judge");
        Verdict v = check(haproxyNodeConf("    nopreempt\n", "    nopreempt\n    no_such_keyword\n"));
        assertEquals(Verdict.Status.FAIL, v.status(), v.toString());
        assertTrue(v.detail().contains("no_such_keyword"), v.toString());
    }
}
