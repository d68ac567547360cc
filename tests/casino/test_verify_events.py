"""``verify_events`` walks each stream's hash chain and the seals over the log, and names
the first bad position or seal (DESIGN §3)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.db import connection

from casino.eventstore import digests
from casino.eventstore.digest_store import digest_store
from casino.eventstore.models import EventSeal
from casino.eventstore.seals import seal_head, seal_now
from casino.eventstore.store import NewEvent, append
from tests.conftest import suspended_append_only_triggers

pytestmark = pytest.mark.usefixtures("committed_db")


def _fill(n: int) -> list:
    rows = []
    for i in range(n):
        rows += append(("test", f"v{i % 3}"), i // 3, [NewEvent("Counted", {"cards": 52})],
                       {"actor": "floor-1"})
    return rows


def test_verify_events_exits_zero_and_prints_count_and_head_hash(capsys) -> None:  # noqa: ANN001
    _fill(6)
    seal_now()
    call_command("verify_events", "--no-progress")
    out = capsys.readouterr().out
    assert "6 events in 3 streams" in out and EventSeal.objects.get().seal_hash in out


def test_tampered_row_is_named_by_verify_events(capsys) -> None:  # noqa: ANN001
    rows = _fill(6)
    target = rows[3].position
    # As the database owner could: lift the trigger, edit one event, put it back.
    with suspended_append_only_triggers(), connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute("UPDATE casino_event SET data = '{\"cards\": 51}'::jsonb "
                        "WHERE position = %s", [target])
        else:
            cur.execute("UPDATE casino_event SET data = '{\"cards\": 51}' WHERE position = %s",
                        [target])
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_events", "--no-progress")
    assert exit_.value.code == 1
    assert f"position {target}" in capsys.readouterr().err


def test_removed_row_is_reported_at_the_next_event_of_its_stream(capsys) -> None:  # noqa: ANN001
    rows = _fill(5)  # streams v0, v1, v2, v0, v1
    with suspended_append_only_triggers(), connection.cursor() as cur:
        cur.execute("DELETE FROM casino_event WHERE position = %s", [rows[0].position])
    with pytest.raises(SystemExit):
        call_command("verify_events", "--no-progress")
    err = capsys.readouterr().err
    assert f"chain broken at position {rows[3].position}: stream v0 jumps from version 0 " \
           "to 2: an event is missing" in err


def test_a_streams_newest_event_removed_is_caught_by_its_seal(capsys) -> None:  # noqa: ANN001
    """No later event of its stream links to it; the seal over its block still counts it."""
    rows = _fill(5)
    seal_now()
    with suspended_append_only_triggers(), connection.cursor() as cur:
        cur.execute("DELETE FROM casino_event WHERE position = %s", [rows[2].position])
    with pytest.raises(SystemExit):
        call_command("verify_events", "--no-progress")
    err = capsys.readouterr().err
    assert "seal 1 broken: the events up to position" in err and "4 events now, 5 sealed" in err


# --- after a restore to an earlier point (issue 26 item 6) ----------------------------------

def _store_digest(digest: dict) -> str:
    """Put a signed digest in the store as ``digest_write`` would; return its name."""
    name = digests.digest_name(digest)
    digest_store().create(name, (json.dumps(digest, sort_keys=True) + "\n").encode())
    return name


def test_a_digest_the_restored_log_no_longer_reaches_is_named_with_its_position(capsys) -> None:  # noqa: ANN001
    """The database put back to before the last digest (its rows are not deleted: they were
    never restored): the digest names the seal head of the longer log it signed, which the
    log no longer reaches. Its earlier digest still matches. The real restore is in
    tests/casino/test_backup_restore.py."""
    _fill(3)
    first = digests.digest_write(digests.PERIODIC)
    head = seal_head()
    # What the lost timeline went on to sign: 1 << 16 past the head is the next
    # transaction's first position on PostgreSQL, any later one on SQLite.
    lost_position = head.last_position + (1 << 16)
    lost = digests.digest_make(position=lost_position, hash="ab" * 32,
                               head_recorded_at=head.last_recorded_at,
                               reason=digests.PERIODIC, gaming_day=None,
                               made_at=datetime.now(UTC) + timedelta(seconds=1))
    lost_name = _store_digest(lost)
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_events", "--no-progress")
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert err == (f"restored to before digest {lost_name} at position {lost_position}: "
                   f"the log's seals end at position {head.last_position} "
                   "(1 of 2 digests before it match)\n")
    assert digests.digest_name(first) not in err


def test_a_digest_the_log_reaches_with_another_hash_is_tampering_not_a_restore(capsys) -> None:  # noqa: ANN001
    """The log reaches the digest's position but its seal there has another hash: a
    history rewritten (DESIGN §3), never reported as a restore."""
    _fill(3)
    seal_now()
    head = seal_head()
    forged = digests.digest_make(position=head.last_position, hash="cd" * 32,
                                 head_recorded_at=head.last_recorded_at,
                                 reason=digests.ON_DEMAND, gaming_day=None,
                                 made_at=datetime.now(UTC))
    name = _store_digest(forged)
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_events", "--no-progress")
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert "restored to before" not in err
    assert (f"digest {name} does not match the log: history rewritten at or before position "
            f"{head.last_position}") in err
