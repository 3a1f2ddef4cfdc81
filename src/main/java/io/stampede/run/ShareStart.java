/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.share.DividedPlan;
import io.stampede.share.Share;
import io.stampede.share.ShareRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * The start of a run of one share: the divided plan and its CSV rows written, the share recorded for
 * {@code stampede merge}, and the share put in front of every thread name through the property JMeter's
 * distributed mode uses for the engine's address ({@code i3of10-Users 1-7}).
 */
record ShareStart(RunCommand.RunSetup setup, RunProperties properties) {

    /** JMeter's thread-name prefix (JMeterUtils.THREAD_GROUP_DISTRIBUTED_PREFIX_PROPERTY_NAME). */
    static final String THREAD_PREFIX = "__jm.D_TG";

    /** JMeter property listing the engines in share order (io.stampede.functions.ShareFunction in the plugin). */
    static final String ENGINES = "stampede.share.engines";

    static ShareStart write(RunCommand.RunSetup setup, RunProperties props, Path dir, PrintWriter out)
            throws IOException {
        DividedPlan divided = setup.share();
        Path load = divided.write(dir);
        RunProperties shared;
        if (divided.share().isPresent()) {
            Share share = divided.share().get();
            ShareRecord.of(setup.plan().path(), share, props.values()).write(dir);
            out.printf("stampede run: share %s of %s, threads named %s-...%n", share,
                    setup.plan().path().getFileName(), share.prefix());
            shared = props.with(THREAD_PREFIX, share.prefix());
        } else {
            out.printf("stampede run: %s divided into one share per engine (--whole-plan-per-engine runs it whole on"
                    + " each)%n", setup.plan().path().getFileName());
            shared = props.with(ENGINES, setup.engines().jmeterList());
        }
        divided.csvLines().forEach(l -> out.println("stampede run: " + l));
        divided.notes().forEach(l -> out.println("stampede run: note: " + l));
        return new ShareStart(setup.loading(divided, load), shared);
    }
}
