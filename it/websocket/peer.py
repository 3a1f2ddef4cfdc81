#!/usr/bin/python3
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
# compliance with the License. You may obtain a copy of the License at
# https://www.apache.org/licenses/LICENSE-2.0
"""A WebSocket peer for Stampede's tests and benchmarks, on Debian's python3-websockets (run it with /usr/bin/python3).

Paths on the WebSocket port:
  /echo           each message back as it came ("extensions?" answers with the negotiated extensions)
  /fragments      each message back in fragments of at most 8 bytes
  /push?every=ms  a JSON push {"type":"push","n":...} every ms, and echoes
  /chat           each message to every session on /chat (broadcast)
  /close1011?after=n   echoes n messages, then closes with 1011
  /big?bytes=n    answers any message with one of n bytes
  /forbidden      refuses the handshake with 403
  /counts         (plain HTTP GET, no upgrade) what the peer itself counted, as JSON: sessions opened, messages
                  received from clients, pushes sent; so tests count on the server's side, not only in the JTL
Subprotocols offered by the server: chat, superchat. Compression: permessage-deflate when the client offers it.
--silent-port accepts TCP connections and never answers; --garbage-port answers with a line that is not HTTP.
"""
import argparse
import asyncio
import http
import json
import signal
import urllib.parse

import websockets

CHAT = set()
COUNTS = {"sessions": 0, "received": 0, "pushed": 0}


def query(path, name, default):
    q = urllib.parse.parse_qs(urllib.parse.urlparse(path).query)
    return int(q.get(name, [default])[0])


async def received(ws):
    async for m in ws:
        COUNTS["received"] += 1
        yield m


async def echo(ws):
    async for m in received(ws):
        if m == "extensions?":
            await ws.send(str(ws.response_headers.get("Sec-WebSocket-Extensions")))
        else:
            await ws.send(m)


async def fragments(ws):
    async for m in received(ws):
        await ws.send([m[i:i + 8] for i in range(0, len(m), 8)] or [m])


async def push(ws, every):
    async def pushes():
        n = 0
        while True:
            await asyncio.sleep(every / 1000)
            n += 1
            await ws.send(json.dumps({"type": "push", "n": n}))
            COUNTS["pushed"] += 1
    task = asyncio.ensure_future(pushes())
    try:
        await echo(ws)
    finally:
        task.cancel()


async def chat(ws):
    CHAT.add(ws)
    try:
        async for m in received(ws):
            websockets.broadcast(CHAT, m)
    finally:
        CHAT.discard(ws)


async def close_after(ws, n):
    count = 0
    async for m in received(ws):
        await ws.send(m)
        count += 1
        if count >= n:
            await ws.close(1011, "server error")
            return


async def big(ws, size):
    async for _ in received(ws):
        await ws.send("x" * size)


async def handler(ws, path):
    COUNTS["sessions"] += 1
    if path.startswith("/fragments"):
        await fragments(ws)
    elif path.startswith("/push"):
        await push(ws, query(path, "every", 200))
    elif path.startswith("/chat"):
        await chat(ws)
    elif path.startswith("/close1011"):
        await close_after(ws, query(path, "after", 1))
    elif path.startswith("/big"):
        await big(ws, query(path, "bytes", 100000))
    else:
        await echo(ws)


async def before_handshake(path, headers):
    if path.startswith("/counts"):
        return http.HTTPStatus.OK, [("Content-Type", "application/json")], json.dumps(COUNTS).encode()
    if path.startswith("/forbidden"):
        return http.HTTPStatus.FORBIDDEN, [("Content-Type", "text/plain")], b"forbidden\n"
    return None


async def silent(reader, writer):
    await reader.read()  # until the client gives up
    writer.close()


async def garbage(reader, writer):
    writer.write(b"SSH-2.0-OpenSSH_9.2p1 not-http\r\n\r\n")
    await writer.drain()
    await reader.read()
    writer.close()


async def main(args):
    stop = asyncio.get_running_loop().create_future()
    for s in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(s, stop.set_result, None)
    servers = [await websockets.serve(handler, args.host, args.port, subprotocols=["chat", "superchat"],
                                      process_request=before_handshake, max_size=16 * 1024 * 1024, ping_interval=None,
                                      backlog=4096)]
    if args.silent_port:
        servers.append(await asyncio.start_server(silent, args.host, args.silent_port))
    if args.garbage_port:
        servers.append(await asyncio.start_server(garbage, args.host, args.garbage_port))
    print("listening", flush=True)
    await stop
    for s in servers:
        s.close()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--silent-port", type=int, default=0)
    p.add_argument("--garbage-port", type=int, default=0)
    asyncio.run(main(p.parse_args()))
