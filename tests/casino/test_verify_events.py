"""``verify_events`` walks each stream's hash chain and the seals over the log, and names
the first bad position or seal (DESIGN §3)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection

from casino.eventstore.models import EventSeal
from casino.eventstore.seals import seal_now
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
