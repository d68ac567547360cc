"""The append contract of DESIGN §3, on whichever database the run uses (both in CI)."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection

from casino.eventstore import store
from casino.eventstore.errors import (
    ConcurrencyError,
    IdempotencyKeyReused,
    InvalidEvent,
    InvalidExpectedVersion,
    MetadataActorMissing,
    PayloadNotJSON,
    PayloadTooLarge,
    UnknownStreamType,
)
from casino.eventstore.models import Event
from casino.eventstore.store import NewEvent, append, read_all, read_stream

pytestmark = pytest.mark.django_db
META = {"actor": "dealer-7"}


def _stream() -> tuple[str, str]:
    return ("test", f"t-{uuid.uuid4().hex[:10]}")


def test_append_numbers_versions_and_positions_consecutively() -> None:
    s = _stream()
    first = append(s, 0, [NewEvent("A", {"n": 1}), NewEvent("B", {"n": 2})], META)
    second = append(s, 2, [NewEvent("C", {"n": 3})], META)
    assert [e.version for e in first + second] == [1, 2, 3]
    positions = [e.position for e in first + second]
    assert positions == list(range(positions[0], positions[0] + 3))


def test_read_stream_returns_what_was_appended_in_order() -> None:
    s = _stream()
    append(s, 0, [NewEvent("A", {"amount": 2500}), NewEvent("B", {"seat": 3})], META)
    events = read_stream(s[1])
    assert [(e.type, e.data) for e in events] == [("A", {"amount": 2500}), ("B", {"seat": 3})]
    assert events[0].metadata["actor"] == "dealer-7"
    assert "gaming_day" in events[0].metadata


def test_read_all_pages_from_a_position() -> None:
    s = _stream()
    rows = append(s, 0, [NewEvent("A", {"i": i}) for i in range(5)], META)
    page = read_all(rows[2].position, limit=2)
    assert [e.data["i"] for e in page] == [2, 3]


def test_each_event_links_to_the_previous_hash() -> None:
    s = _stream()
    rows = append(s, 0, [NewEvent("A"), NewEvent("B")], META)
    assert rows[1].prev_hash == rows[0].hash
    stored = Event.objects.get(position=rows[1].position)
    assert stored.prev_hash == rows[0].hash and stored.hash == rows[1].hash


def test_conflict_inside_a_callers_transaction_leaves_that_transaction_usable() -> None:
    from django.db import transaction

    s = _stream()
    append(s, 0, [NewEvent("A")], META)
    with transaction.atomic():
        with pytest.raises(ConcurrencyError):
            append(s, 0, [NewEvent("B")], META)
        append(s, 1, [NewEvent("C")], META)  # the outer transaction goes on
    assert [e.type for e in read_stream(s[1])] == ["A", "C"]


def test_stale_expected_version_raises_conflict_and_appends_nothing() -> None:
    s = _stream()
    append(s, 0, [NewEvent("A")], META)
    before = Event.objects.count()
    with pytest.raises(ConcurrencyError) as err:
        append(s, 0, [NewEvent("B")], META)
    assert err.value.code == "stream_version_conflict" and err.value.actual == 1
    assert Event.objects.count() == before


def test_same_idempotency_key_twice_stores_one_set_of_events() -> None:
    s = _stream()
    first = append(s, 0, [NewEvent("A"), NewEvent("B")], META, idempotency_key="cmd-42")
    again = append(s, 0, [NewEvent("A"), NewEvent("B")], META, idempotency_key="cmd-42")
    assert [e.event_id for e in again] == [e.event_id for e in first]
    assert Event.objects.filter(stream_id=s[1]).count() == 2


def test_idempotency_key_reused_for_another_stream_is_refused() -> None:
    append(_stream(), 0, [NewEvent("A")], META, idempotency_key="cmd-43")
    with pytest.raises(IdempotencyKeyReused):
        append(_stream(), 0, [NewEvent("A")], META, idempotency_key="cmd-43")


@pytest.mark.parametrize("stream, version, events, meta, error", [
    (("no-such-type", "x"), 0, [NewEvent("A")], META, UnknownStreamType),
    (("test", "big"), 0, [NewEvent("A", {"blob": "x" * 70_000})], META, PayloadTooLarge),
    (("test", "obj"), 0, [NewEvent("A", {"when": object()})], META, PayloadNotJSON),
    (("test", "nan"), 0, [NewEvent("A", {"x": float("nan")})], META, PayloadNotJSON),
    (("test", "nul"), 0, [NewEvent("A", {"x": "a\x00b"})], META, PayloadNotJSON),
    (("test", "float"), 0, [NewEvent("A", {"rate": 0.05})], META, PayloadNotJSON),
    (("test", "has space"), 0, [NewEvent("A")], META, InvalidEvent),
    (("test", "quote\""), 0, [NewEvent("A")], META, InvalidEvent),
    (("test", "neg"), -1, [NewEvent("A")], META, InvalidExpectedVersion),
    (("test", "str"), "1", [NewEvent("A")], META, InvalidExpectedVersion),
    (("test", "flt"), 1.0, [NewEvent("A")], META, InvalidExpectedVersion),
    (("test", "bool"), True, [NewEvent("A")], META, InvalidExpectedVersion),
    (("test", "noactor"), 0, [NewEvent("A")], {"role": "dealer"}, MetadataActorMissing),
    (("test", "blankactor"), 0, [NewEvent("A")], {"actor": " "}, MetadataActorMissing),
], ids=["unknown-stream-type", "payload-over-64kb", "not-json", "nan", "nul-char", "float",
        "stream-id-with-space", "stream-id-with-quote",
        "negative-version", "string-version", "float-version", "bool-version",
        "missing-actor", "blank-actor"])
def test_bad_input_is_refused_with_its_code_and_nothing_appended(
        stream, version, events, meta, error) -> None:  # noqa: ANN001
    before = Event.objects.count()
    with pytest.raises(error) as err:
        append(stream, version, events, meta)
    assert err.value.code == error.code
    assert Event.objects.count() == before


def test_upcaster_turns_old_payloads_into_the_new_shape_on_read() -> None:
    s = _stream()
    append(s, 0, [NewEvent("WagerPlacedUpcastTest", {"amount_dollars": 25}, schema_version=1)],
           META)

    @store.upcaster("WagerPlacedUpcastTest", 1)
    def _dollars_to_cents(data: dict) -> dict:
        return {"amount": data.pop("amount_dollars") * 100}

    try:
        (event,) = read_stream(s[1])
        assert event.schema_version == 2 and event.data == {"amount": 2500}
        raw = Event.objects.get(stream_id=s[1])
        assert raw.schema_version == 1 and raw.data == {"amount_dollars": 25}
    finally:
        store._upcasters.pop(("WagerPlacedUpcastTest", 1))


@pytest.mark.parametrize("sql", ["UPDATE casino_event SET type = 'Edited'",
                                 "DELETE FROM casino_event"])
def test_raw_update_and_delete_are_refused_by_the_database(sql: str) -> None:
    append(_stream(), 0, [NewEvent("A")], META)
    with pytest.raises(Exception, match="append-only"):
        with connection.cursor() as cur:
            cur.execute(sql)


@pytest.mark.postgres
def test_raw_truncate_is_refused_on_postgresql() -> None:
    append(_stream(), 0, [NewEvent("A")], META)
    with pytest.raises(Exception, match="append-only"):
        with connection.cursor() as cur:
            cur.execute("TRUNCATE casino_event")
