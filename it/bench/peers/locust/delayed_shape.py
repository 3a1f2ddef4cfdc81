# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# The load shape of scenarios 2 and 3 in it/bench/peers-benchmark.sh: no user for DELAY seconds (the benchmark
# reads the processes' footprint then), USERS users started over RAMP seconds, then held until DURATION seconds
# after the first one. The benchmark gives Locust a RAMP of at least USERS / (100 x workers): faster, Locust warns
# that a worker spawning over 100 users a second misses its heartbeats, and the master then stops the test.
import os

from locust import LoadTestShape


class DelayedRamp(LoadTestShape):
    users = int(os.environ["USERS"])
    delay = int(os.environ["DELAY"])
    ramp = max(1, int(os.environ["RAMP"]))
    duration = int(os.environ["DURATION"])

    def tick(self):
        t = self.get_run_time()
        if t < self.delay:
            return 0, 1
        if t < self.delay + self.duration:
            return self.users, self.users / self.ramp
        return None
