/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.merge;

import io.stampede.share.ShareRecord;
import java.nio.file.Path;

/** One injector's results folder: what `stampede run --share` wrote there. */
record ShareFolder(Path dir, ShareRecord record) {

    Path jtl() {
        return dir.resolve("results.jtl");
    }

    Path histogram() {
        return dir.resolve("latency.hlog");
    }

    /** The share's name in thread names and in the merged summary, e.g. i2of3. */
    String name() {
        return record.share().prefix();
    }
}
