/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.functions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.jmeter.engine.util.CompoundVariable;
import org.apache.jmeter.functions.AbstractFunction;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;
import org.apache.jmeter.util.JMeterUtils;

/**
 * {@code ${__stampedeShare(v1,v2,...)}}: this engine's value of a figure `stampede run --remote` divided into one
 * share per engine. The controller sends the same plan to every engine, so the plan holds every share's value and
 * each engine picks its own: the engines are listed, in share order, in {@code stampede.share.engines}, and an
 * engine knows itself by the address JMeter's distributed mode gives it ({@code __jm.D_TG}, also its thread-name
 * prefix), or, once {@link ShareThreadNames} has put its share there instead, by that share ({@code i2of3}). An
 * engine missing from the list is a fault that would change the load, so it stops the thread group with the reason
 * instead of guessing.
 */
public final class ShareFunction extends AbstractFunction {

    static final String KEY = "__stampedeShare";
    static final String ENGINES = "stampede.share.engines";
    /** JMeterUtils.THREAD_GROUP_DISTRIBUTED_PREFIX_PROPERTY_NAME. */
    static final String ENGINE = "__jm.D_TG";

    /** A share as thread names carry it (io.stampede.share.Share#prefix in the CLI). */
    private static final Pattern SHARE = Pattern.compile("i(\\d{1,9})of(\\d{1,9})");

    private static final List<String> DESC = List.of("The value of share 1, share 2, ... (one per engine)");

    private Object[] values;

    @Override
    public String execute(SampleResult previousResult, Sampler currentSampler) {
        String engines = JMeterUtils.getPropDefault(ENGINES, "");
        String me = JMeterUtils.getPropDefault(ENGINE, "");
        int index = index(engines, me, values.length);
        if (index < 0) {
            throw new IllegalStateException(KEY + ": this engine (" + (me.isEmpty() ? "not an engine" : me)
                    + ") is not one of " + ENGINES + "=" + engines + " with " + values.length
                    + " shares; run the plan with `stampede run --remote` (or --whole-plan-per-engine)");
        }
        return ((CompoundVariable) values[index]).execute().trim();
    }

    /**
     * This engine's share (0-based) among {@code count}: where {@code me}, its address, stands in the comma-separated
     * {@code engines}, or the share {@code me} names once it replaced the address ({@code i2of3}); -1 when neither.
     */
    static int index(String engines, String me, int count) {
        Matcher share = SHARE.matcher(me);
        if (share.matches()) {
            int i = Integer.parseInt(share.group(1));
            return Integer.parseInt(share.group(2)) == count && i >= 1 && i <= count ? i - 1 : -1;
        }
        List<String> listed = Arrays.asList(engines.split(","));
        return listed.size() == count ? listed.indexOf(me) : -1;
    }

    @Override
    public void setParameters(Collection<CompoundVariable> parameters) throws InvalidVariableException {
        checkMinParameterCount(parameters, 1);
        values = new ArrayList<>(parameters).toArray();
    }

    @Override
    public String getReferenceKey() {
        return KEY;
    }

    @Override
    public List<String> getArgumentDesc() {
        return DESC;
    }
}
