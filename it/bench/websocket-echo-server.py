#!/usr/bin/python3
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
# compliance with the License. You may obtain a copy of the License at
# https://www.apache.org/licenses/LICENSE-2.0
"""The WebSocket benchmark's server side: an echo server on Debian's python3-websockets (run it with /usr/bin/python3)
in --processes asyncio processes sharing one port by SO_REUSEPORT, so the kernel spreads the sessions over them and
one busy Python process does not starve 19,000 sessions. Each message on any path is sent back as it came.

Prints "listening" once every process accepts, then runs until SIGTERM or SIGINT, which it passes to its processes.
"""
import argparse
import asyncio
import os
import resource
import signal
import sys

import websockets


async def echo(ws, _path):
    async for m in ws:
        await ws.send(m)


async def serve(args, ready):
    stop = asyncio.get_running_loop().create_future()
    for s in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(s, stop.set_result, None)
    # Small per-connection buffers: tens of thousands of idle sessions, each with a few short messages in flight.
    server = await websockets.serve(echo, args.host, args.port, reuse_port=True, backlog=4096, ping_interval=None,
                                    compression=None, max_size=65536, max_queue=4, read_limit=16384,
                                    write_limit=16384)
    os.write(ready, b"x")
    os.close(ready)
    await stop
    server.close()


def child(args, ready):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(serve(args, ready))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--processes", type=int, default=4)
    args = p.parse_args()
    if args.processes < 1:
        p.error("--processes must be at least 1")
    r, w = os.pipe()
    children = []
    for _ in range(args.processes):
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                child(args, w)
            finally:
                os._exit(0)
        children.append(pid)
    os.close(w)
    started = 0
    while started < args.processes:
        b = os.read(r, args.processes)
        if not b:
            break
        started += len(b)
    if started < args.processes:
        print(f"only {started} of {args.processes} processes started", file=sys.stderr, flush=True)
        for pid in children:
            os.kill(pid, signal.SIGTERM)
        sys.exit(1)
    print("listening", flush=True)

    def forward(signum, _frame):
        for c in children:
            try:
                os.kill(c, signum)
            except ProcessLookupError:
                pass
    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    for c in children:
        while True:
            try:
                os.waitpid(c, 0)
                break
            except InterruptedError:
                continue
            except ChildProcessError:
                break


if __name__ == "__main__":
    main()
