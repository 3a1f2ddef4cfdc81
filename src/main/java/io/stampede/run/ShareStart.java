/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

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

    static ShareStart write(RunCommand.RunSetup setup, RunProperties props, Path dir, PrintWriter out)
            throws IOException {
        var divided = setup.share();
        Path load = divided.write(dir);
        ShareRecord.of(setup.plan().path(), divided.share(), props.values()).write(dir);
        out.printf("stampede run: share %s of %s, threads named %s-...%n", divided.share(),
                setup.plan().path().getFileName(), divided.share().prefix());
        divided.csvLines().forEach(l -> out.println("stampede run: " + l));
        divided.notes().forEach(l -> out.println("stampede run: note: " + l));
        RunCommand.RunSetup s = setup;
        RunCommand.RunSetup shared = new RunCommand.RunSetup(s.plan(), s.properties(), s.jmeter(), s.java(),
                s.outDir(), s.useBuiltInTarget(), s.engines(), s.remoteExit(), s.rmiKeystore(), divided, load);
        return new ShareStart(shared, props.with(THREAD_PREFIX, divided.share().prefix()));
    }
}
