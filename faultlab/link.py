"""The relay an application host reaches each database server through, which adds delay
when told to.

This kernel is built without ``sch_netem``, so ``tc netem delay`` is not available; the
relay stands in for it: every byte an application host sends to a database server, and
every byte it gets back, waits ``delay/2`` milliseconds in the relay (the round trip
grows by ``delay``), in order. Loss and partitions are not the relay's: they are the
kernel's, nftables rules in the host's namespace (:mod:`faultlab.netns`), and they act on
the relay's own connections to the servers, so the application sees what a real lossy or
cut link does to it. At zero delay the relay forwards at once.

The delay in milliseconds is read from the control file (a missing file is zero), looked
at every 200 ms. Run as ``python -m faultlab.link --control FILE LISTEN=TARGET ...`` with
``LISTEN`` and ``TARGET`` as ``host:port``; it needs nothing of Django.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket

_CHUNK = 65536
#: a server that stops answering (a partition) is given up after this long, as libpq's
#: ``tcp_user_timeout`` and keepalives do for a direct connection: the relay then closes
#: the application's side, which sees its connection lost instead of waiting for ever
_USER_TIMEOUT_MS = 4000


class Delay:
    """The delay of each direction in seconds, from the control file."""

    def __init__(self, path: str):
        self.path = path
        self.seconds = 0.0

    async def watch(self) -> None:
        while True:
            try:
                with open(self.path) as f:
                    self.seconds = max(0.0, float(f.read().strip() or 0)) / 2000
            except (OSError, ValueError):
                self.seconds = 0.0
            await asyncio.sleep(0.2)


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                delay: Delay) -> None:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def take() -> None:
        try:
            while data := await reader.read(_CHUNK):
                queue.put_nowait((loop.time(), data))
        except (ConnectionError, OSError):
            pass
        queue.put_nowait((loop.time(), b""))

    taker = asyncio.create_task(take())
    try:
        while True:
            at, data = await queue.get()
            wait = at + delay.seconds - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                break
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        taker.cancel()
        writer.close()


def _serve(target: tuple[str, int], delay: Delay):
    async def connection(c_reader: asyncio.StreamReader, c_writer: asyncio.StreamWriter
                         ) -> None:
        try:
            s_reader, s_writer = await asyncio.wait_for(asyncio.open_connection(*target),
                                                        _USER_TIMEOUT_MS / 1000)
        except (OSError, asyncio.TimeoutError):
            c_writer.close()  # the server is down or cut off: the client sees it at once
            return
        _give_up_when_silent(s_writer.get_extra_info("socket"))
        await asyncio.gather(_pipe(c_reader, s_writer, delay),
                             _pipe(s_reader, c_writer, delay), return_exceptions=True)
    return connection


def _give_up_when_silent(sock: socket.socket | None) -> None:
    if sock is None:
        return
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, 2)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, 2)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, _USER_TIMEOUT_MS)


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host, int(port)


async def main(pairs: list[str], control: str) -> None:
    delay = Delay(control)
    servers = []
    for pair in pairs:
        listen, _, target = pair.partition("=")
        servers.append(await asyncio.start_server(
            _serve(_address(target), delay), *_address(listen), reuse_address=True))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    watcher = asyncio.create_task(delay.watch())
    await stop.wait()
    watcher.cancel()
    for server in servers:
        server.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--control", required=True)
    parser.add_argument("pairs", nargs="+", metavar="LISTEN=TARGET")
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main(args.pairs, args.control))
    os._exit(0)
