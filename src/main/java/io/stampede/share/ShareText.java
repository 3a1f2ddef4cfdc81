/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.share;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What a divided figure becomes in the plan: this share's number for an injector run with {@code --share I/N}, or
 * for remote engines every share's number in {@code ${__stampedeShare(...)}}, of which each engine takes its own.
 */
sealed interface ShareText {

    int count();

    /** The shares whose CSV rows are written. */
    List<Share> shares();

    String whole(long total);

    String rate(BigDecimal total);

    /** The CSV file(s) written for {@link #shares()}, in that order. */
    String files(List<Path> written);

    /** One injector's share. */
    record OneShare(Share share) implements ShareText {
        @Override
        public int count() {
            return share.count();
        }

        @Override
        public List<Share> shares() {
            return List.of(share);
        }

        @Override
        public String whole(long total) {
            return Long.toString(share.of(total));
        }

        @Override
        public String rate(BigDecimal total) {
            return share.of(total).toPlainString();
        }

        @Override
        public String files(List<Path> written) {
            return written.get(0).toString();
        }
    }

    /** One share per remote engine, chosen on the engine (io.stampede.functions.ShareFunction in the plugin). */
    record EveryEngine(int count) implements ShareText {
        @Override
        public List<Share> shares() {
            List<Share> all = new ArrayList<>();
            for (int i = 1; i <= count; i++) {
                all.add(new Share(i, count));
            }
            return all;
        }

        @Override
        public String whole(long total) {
            return call(s -> Long.toString(s.of(total)));
        }

        @Override
        public String rate(BigDecimal total) {
            return call(s -> s.of(total).toPlainString());
        }

        @Override
        public String files(List<Path> written) {
            // a comma ends a function's argument unless escaped
            return "${__stampedeShare(" + String.join(",", written.stream()
                    .map(p -> p.toString().replace("\\", "\\\\").replace(",", "\\,")).toList()) + ")}";
        }

        private String call(Function<Share, String> value) {
            return "${__stampedeShare(" + String.join(",", shares().stream().map(value).toList()) + ")}";
        }
    }
}
