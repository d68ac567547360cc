"""A round closes once: the projection's guard without a read (issue 25, the hand's last
command in one pipeline).

``RoundClosed``'s projection closes the round with one statement that reads nothing
(:data:`tables.projections._CLOSE_ROUND`): on a round not open it gives the state no value,
which its NOT NULL column refuses, so the statement fails by itself, in the command
runner's pipeline too, where no row count can be read before COMMIT. (Before, the
projection read the UPDATE's row count: in the pipeline that count is not known yet and
psycopg answers -1, so the guard never fired there.) Every service refuses a closed round
on its locked read first; these tests go past the services and append a second
``RoundClosed`` to the store directly.
"""

from __future__ import annotations

from typing import Any

import pytest

from casino.domain.errors import ConflictError
from casino.eventstore.store import NewEvent, append, head, read_stream
from poker_room.services import hands
from tables.models import GameTable, Round
from tests.poker_room._committed import poker_room
from tests.poker_room.test_start_statements import _poker_table


def _closed_round(licence: str, prefix: str) -> tuple[Any, Round]:
    """A hold'em table whose first hand was voided (§ 637a.18(i)): its round closed."""
    people, table = poker_room(licence, prefix)
    _poker_table(people, table)
    dealer = people["dealer"]
    ph = hands.hand_start(actor=dealer, table_id=table.pk, shuffle=True)
    hands.hand_command(actor=dealer, round_id=ph.round_id, expected_version=ph.version,
                       commands=[{"type": "void", "reason": "missing_or_extra_cards"}])
    rnd = Round.objects.get(pk=ph.round_id)
    assert rnd.state == "closed"
    return table, rnd


def _close_again(table: Any, rnd: Round) -> Any:
    stream = f"round-{rnd.pk}"
    return append(("round", stream), len(read_stream(stream)), [NewEvent("RoundClosed", {})],
                  {"actor": "test", "table": str(table.pk)})


def _unchanged(table: Any, rnd: Round, before: int) -> None:
    """Nothing appended; the round keeps its first close; the table has no round."""
    assert head() == before
    again = Round.objects.get(pk=rnd.pk)
    assert (again.state, again.closed_at, again.stream_version) == (
        "closed", rnd.closed_at, rnd.stream_version)
    assert GameTable.objects.get(pk=table.pk).current_round_id is None


@pytest.mark.django_db
def test_a_second_close_in_a_transaction_is_refused_round_closed() -> None:
    """§ 637a.18(i), § 589.11(f): inside a caller's transaction (PostgreSQL and SQLite) a
    second ``RoundClosed`` is refused 409 ``round_closed`` and nothing is appended."""
    table, rnd = _closed_round("RC-GUARD-T", "rcgt")
    before = head()
    with pytest.raises(ConflictError) as err:
        _close_again(table, rnd)
    assert err.value.code == "round_closed"
    _unchanged(table, rnd, before)


@pytest.mark.postgres
@pytest.mark.usefixtures("committed_db")
def test_a_second_close_in_the_pipeline_fails_by_itself() -> None:
    """§ 637a.18(i): outside any transaction (PostgreSQL: BEGIN, the projections, the
    append function and COMMIT in one pipeline, no row count read) the close fails by
    itself on the state's NOT NULL column; the transaction is rolled back, nothing is
    appended and the connection stays usable."""
    table, rnd = _closed_round("RC-GUARD-P", "rcgp")
    before = head()
    with pytest.raises(Exception) as err:
        _close_again(table, rnd)
    assert getattr(err.value, "sqlstate", None) == "23502", repr(err.value)
    _unchanged(table, rnd, before)
