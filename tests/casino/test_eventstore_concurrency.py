"""Concurrent appends with real commits: the optimistic check, versions gapless along a
stream, and a reader that never skips an event (DESIGN §3: on PostgreSQL positions come
from the appending transaction and have gaps; readers read below the oldest transaction
still in flight)."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from django.db import connection

from casino.eventstore.errors import ConcurrencyError
from casino.eventstore.store import NewEvent, append, read_all, read_stream, stream_version
from casino.eventstore.verify import verify_chain

pytestmark = pytest.mark.usefixtures("committed_db")


def _in_thread(fn, *args):  # noqa: ANN001, ANN202
    try:
        return fn(*args)
    finally:
        connection.close()


def _hammer(stream_id: str, threads_n: int, per_thread: int) -> list:
    """``threads_n`` threads each append ``per_thread`` events to one stream, reading its
    version again after every conflict; the stream's events afterwards."""
    def writer(w: int) -> None:
        for i in range(per_thread):
            while True:
                try:
                    append(("test", stream_id), stream_version(stream_id),
                           [NewEvent("Hit", {"w": w, "i": i})], {"actor": f"w{w}"})
                    break
                except ConcurrencyError:
                    continue

    threads = [threading.Thread(target=_in_thread, args=(writer, w)) for w in range(threads_n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return read_stream(stream_id)


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
    events = _hammer(stream_id, threads_n, per_thread)
    assert [e.version for e in events] == list(range(1, threads_n * per_thread + 1))
    assert len({(e.data["w"], e.data["i"]) for e in events}) == threads_n * per_thread
    report = verify_chain()
    assert report.ok and report.count == threads_n * per_thread


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

    total = writers_n * per_writer

    def reader() -> None:
        nxt = 1
        deadline = None
        while True:
            batch = read_all(nxt, 500)
            for e in batch:
                seen.append((e.position, e.event_id))
                nxt = e.position + 1
            if done.is_set():
                # Every writer has committed: the reader must reach every event (a
                # transaction elsewhere on the server may hold the line back a moment).
                deadline = deadline or time.monotonic() + 30
                if len(seen) >= total or time.monotonic() > deadline:
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
    # Each event seen once, in increasing position order, none skipped: a reader going on
    # from the last position it saw never passes an event committed later below it.
    assert positions == sorted(set(positions))
    assert len(seen) == total and {eid for _, eid in seen} == set(written)
    if connection.vendor == "sqlite":  # one writer at a time: gapless in commit order
        assert positions == list(range(1, total + 1))


def test_positions_of_one_stream_rise_with_its_versions_under_concurrent_writers() -> None:
    """A stream's events are in position order too, so a follower applying the log in
    position order applies each stream in version order (the append refuses, and the
    store retries, a position that would come before the stream's previous event)."""
    threads_n, per_thread = 4, 60
    events = _hammer("shared", threads_n, per_thread)
    positions = [e.position for e in events]
    assert len(events) == threads_n * per_thread
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
