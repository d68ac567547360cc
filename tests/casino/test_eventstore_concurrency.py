"""Concurrent appends with real commits: the optimistic check, gapless positions in
commit order, and a reader that never skips an event."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from django.db import connection

from casino.eventstore.errors import ConcurrencyError
from casino.eventstore.store import NewEvent, append, read_all, read_stream
from casino.eventstore.verify import verify_chain

pytestmark = pytest.mark.usefixtures("committed_db")


def _in_thread(fn, *args):  # noqa: ANN001, ANN202
    try:
        return fn(*args)
    finally:
        connection.close()


def test_two_writers_with_the_same_expected_version_exactly_one_succeeds() -> None:
    stream = ("test", "contested")
    append(stream, 0, [NewEvent("Opened")], {"actor": "t"})
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def writer(name: str) -> None:
        barrier.wait()
        try:
            append(stream, 1, [NewEvent("Decided", {"by": name})], {"actor": name})
            outcomes.append("ok")
        except ConcurrencyError:
            outcomes.append("conflict")

    threads = [threading.Thread(target=_in_thread, args=(writer, n)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "ok"]
    assert [e.version for e in read_stream("contested")] == [1, 2]


@pytest.mark.slow
def test_eight_threads_appending_to_one_stream_with_retry_leave_gapless_versions() -> None:
    stream_id = "hot"
    threads_n, per_thread = 8, 500

    def writer(w: int) -> None:
        for i in range(per_thread):
            while True:
                version = read_stream_version(stream_id)
                try:
                    append(("test", stream_id), version, [NewEvent("Hit", {"w": w, "i": i})],
                           {"actor": f"w{w}"})
                    break
                except ConcurrencyError:
                    continue

    threads = [threading.Thread(target=_in_thread, args=(writer, w)) for w in range(threads_n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    events = read_stream(stream_id)
    assert [e.version for e in events] == list(range(1, threads_n * per_thread + 1))
    assert len({(e.data["w"], e.data["i"]) for e in events}) == threads_n * per_thread
    report = verify_chain()
    assert report.ok and report.count == threads_n * per_thread


def read_stream_version(stream_id: str) -> int:
    from casino.eventstore.store import stream_version

    return stream_version(stream_id)


def test_reader_polling_during_concurrent_writes_never_skips_an_event() -> None:
    writers_n, per_writer = 4, 150
    written: list[uuid.UUID] = []
    lock = threading.Lock()
    done = threading.Event()
    seen: list[tuple[int, uuid.UUID]] = []

    def writer(w: int) -> None:
        for i in range(per_writer):
            rows = append(("test", f"s{w}"), i, [NewEvent("E", {"i": i})], {"actor": f"w{w}"})
            with lock:
                written.extend(r.event_id for r in rows)

    def reader() -> None:
        nxt = 1
        while True:
            finished = done.is_set()
            batch = read_all(nxt, 500)
            for e in batch:
                seen.append((e.position, e.event_id))
                nxt = e.position + 1
            if finished and not batch:
                return
            if not batch:
                time.sleep(0.001)  # a poller rests between empty polls

    r = threading.Thread(target=_in_thread, args=(reader,))
    r.start()
    ws = [threading.Thread(target=_in_thread, args=(writer, w)) for w in range(writers_n)]
    for t in ws:
        t.start()
    for t in ws:
        t.join()
    done.set()
    r.join()
    positions = [p for p, _ in seen]
    assert positions == list(range(1, writers_n * per_writer + 1))  # gapless, in order
    assert {eid for _, eid in seen} == set(written)
