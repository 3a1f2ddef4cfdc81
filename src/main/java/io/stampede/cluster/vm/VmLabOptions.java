/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.vm;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --vm} and {@code --vm-cache}: whether a cluster command uses the VM lab's qemu guest, and where it is. */
public final class VmLabOptions {

    @Option(names = "--vm", description = "do it inside the VM lab's qemu guest, on Debian's kernel (see above)")
    boolean vm;

    @Option(names = "--vm-cache", paramLabel = "DIR",
            description = "where the guest is built and kept (default: $STAMPEDE_VM_CACHE or ~/.cache/stampede/vm)")
    Path vmCache;

    /** True with --vm. */
    public boolean enabled() {
        return vm;
    }

    /** The folder of the guest: --vm-cache, else the default one. */
    public Path cache() {
        return vmCache != null ? vmCache : GuestImage.defaultCache();
    }
}
