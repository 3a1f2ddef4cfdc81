# Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
#
# Locust's side of it/bench/peers-benchmark.sh: one user class per scenario, all on FastHttpUser (geventhttpclient,
# the class Locust's documentation recommends for throughput), keep-alive on each user's own connection.
# The benchmark names the class on the command line; THINK_MS comes from the environment.
import os
import re

from locust import FastHttpUser, constant, task

THINK_S = int(os.environ.get("THINK_MS", "10000")) / 1000.0
NEXT = re.compile(r"next=(\S+)")


class StatelessUser(FastHttpUser):
    """Scenario 1: GET /test.txt in a loop, no think time."""

    wait_time = constant(0)

    @task
    def get(self):
        self.client.get("/test.txt")


class StatefulUser(FastHttpUser):
    """Scenario 2: log in once (POST of a form; the client keeps the session cookie), then step with the value."""

    wait_time = constant(THINK_S)

    def on_start(self):
        with self.client.post("/login", data={"user": str(id(self)), "password": "secret"},
                              catch_response=True) as response:
            self.next = self._next(response)

    @task
    def step(self):
        with self.client.get("/step/" + self.next, name="/step/", catch_response=True) as response:
            self.next = self._next(response)

    @staticmethod
    def _next(response):
        match = NEXT.search(response.text or "")
        if match is None:
            response.failure("no next= value in the answer")
            return "NO_NEXT"
        response.success()
        return match.group(1)


class IdleUser(FastHttpUser):
    """Scenario 3: GET /test.txt, then think time, each user on its own keep-alive connection."""

    wait_time = constant(THINK_S)

    @task
    def get(self):
        self.client.get("/test.txt")
