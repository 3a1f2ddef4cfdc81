/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.functions;

import io.stampede.names.PluginNames;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts an engine's share into its thread names ({@code i1of2-Users 1-7}), as {@code stampede run --share} does on an
 * injector, so that the threads of a plan `stampede run --remote` divided are named by share, not by address.
 * The controller adds it to the plan it divides; each engine runs it at the start of the test, after JMeter set the
 * thread-name prefix to the engine's address ({@code __jm.D_TG}, in RemoteJMeterEngineImpl.rconfigure) and before
 * any thread group makes its threads. An engine that finds itself in no share leaves the address, and
 * {@link ShareFunction} then stops the thread groups with the reason.
 */
public final class ShareThreadNames extends AbstractTestElement implements TestStateListener {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ShareThreadNames.class);

    /** How many shares the plan was divided into, saved in the plan. */
    public static final String SHARES = PluginNames.SHARE_THREAD_NAMES_SHARES;

    public void setShares(int shares) {
        setProperty(SHARES, shares);
    }

    @Override
    public void testStarted() {
        testStarted("");
    }

    @Override
    public void testStarted(String host) {
        int shares = getPropertyAsInt(SHARES);
        String me = JMeterUtils.getPropDefault(ShareFunction.ENGINE, "");
        int index = ShareFunction.index(JMeterUtils.getPropDefault(ShareFunction.ENGINES, ""), me, shares);
        if (index < 0) {
            LOG.warn("This engine ({}) is not one of {}={}: its threads keep the address in their names", me,
                    ShareFunction.ENGINES, JMeterUtils.getPropDefault(ShareFunction.ENGINES, ""));
            return;
        }
        String prefix = "i" + (index + 1) + "of" + shares;
        JMeterUtils.setProperty(ShareFunction.ENGINE, prefix);
        LOG.info("This engine ({}) runs share {} of {}: threads named {}-...", me, index + 1, shares, prefix);
    }

    @Override
    public void testEnded() {
        // the prefix is JMeter's to set again at the next test
    }

    @Override
    public void testEnded(String host) {
        // as testEnded()
    }
}
