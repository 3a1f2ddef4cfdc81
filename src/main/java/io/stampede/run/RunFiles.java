/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import java.nio.file.Path;

/** Where one run writes: the folder given with --out and the files in it. */
record RunFiles(Path dir, Path jtl, Path log, Path console, Path dashboard, Path dashboardLog, Path histogram,
        Path summary) {

    static RunFiles in(Path dir, boolean withDashboard) {
        return new RunFiles(dir, dir.resolve("results.jtl"), dir.resolve("jmeter.log"), dir.resolve("jmeter.out"),
                withDashboard ? dir.resolve("dashboard") : null, dir.resolve("dashboard.log"),
                dir.resolve("latency.hlog"), dir.resolve("summary.txt"));
    }
}
