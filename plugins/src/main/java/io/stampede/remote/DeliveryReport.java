/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.remote;

import io.stampede.injector.CollectorPush;
import io.stampede.names.PluginNames;

/**
 * An engine's sample sender's counts at the end of a test (samples the controller took, samples dropped, samples
 * of calls it did not answer in time), sent to the controller's collector beside the injector series, so that
 * `stampede run --remote` states per engine how many samples are missing from the JTL. An engine that
 * `stampede server` did not start has no collector to tell; its log holds the counts.
 */
final class DeliveryReport {
    private DeliveryReport() {}

    static boolean send(long sent, long dropped, long unconfirmed) {
        return CollectorPush.sendOnce(PluginNames.DELIVERY_HEADER, sent + "," + dropped + "," + unconfirmed);
    }
}
