"""Which gaming day a finance step may be recorded against — the one rule of
:mod:`finance.domain.recording_day` — and the opener before play: the rule alone (pure),
then through the services (an opener after the table's first round is refused, nothing
appended)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import pytest

from casino.domain.errors import ConflictError, DomainError
from finance.domain.recording_day import (
    COUNT_ROOM,
    OPENING_OR_FINISHING,
    WHILE_PLAYING,
    days_back,
    recording_day,
)
from finance.projections import TABLE_DAY_EVENTS
from finance.services import tray
from tables.services import rounds
from tests.finance.test_tray import OPENER, Team, open_tray, refused, table_events, today
from tests.tables import conftest as _tables

# the tables app's deck fixtures (tests/finance/conftest.py shares the others)
ready_deck = _tables.ready_deck
deck_in_play = _tables.deck_in_play

TODAY = date(2026, 11, 25)
STEPS = sorted(WHILE_PLAYING | OPENING_OR_FINISHING | COUNT_ROOM)


def test_every_step_of_a_table_day_has_its_window() -> None:
    """Every event a finance command records on a table day (but the variances and the
    close, which no one dates) is in exactly one window: a new step cannot slip by the
    rule."""
    dated = TABLE_DAY_EVENTS - {"VarianceRecorded", "VarianceRevised", "VarianceExplained",
                                "VarianceSignedOff", "TableDayClosed"}
    assert set(STEPS) == dated
    assert not (WHILE_PLAYING & OPENING_OR_FINISHING or WHILE_PLAYING & COUNT_ROOM
                or OPENING_OR_FINISHING & COUNT_ROOM)


@pytest.mark.parametrize("step", STEPS)
def test_every_step_may_be_recorded_for_the_day_being_played(step: str) -> None:
    assert recording_day(step, None, TODAY) == TODAY
    assert recording_day(step, "2026-11-25", TODAY) == TODAY


@pytest.mark.parametrize("step", STEPS)
def test_no_step_is_recorded_for_a_day_still_to_come(step: str) -> None:
    with pytest.raises(DomainError) as caught:
        recording_day(step, "2026-11-26", TODAY)
    assert (caught.value.code, caught.value.status) == ("invalid_gaming_day", 400)
    assert str(caught.value) == "the gaming day Nov 26, 2026 has not begun"


@pytest.mark.parametrize("step,yesterday,a_week_back", [
    ("ChipsSold", False, False), ("SlipRequested", False, False),
    ("InventorySlipRecorded", True, False), ("InventorySlipSigned", True, False),
    ("SlipPrepared", True, False), ("SlipCarried", True, False),
    ("SlipCompleted", True, False), ("SlipVoided", True, False),
    ("DropBoxRemoved", True, False),
    ("DropCounted", True, True), ("DropCountSigned", True, True),
    ("DropCountAccepted", True, True)])
def test_each_step_reaches_back_as_far_as_it_can_truly_happen(
        step: str, yesterday: bool, a_week_back: bool) -> None:
    """While playing: today only; opening or finishing a table day: today or the day just
    ended; the count room: any ended day. Beyond: 409 ``gaming_day_over``."""
    for back, allowed in ((1, yesterday), (7, a_week_back)):
        day = TODAY - timedelta(days=back)
        if allowed:
            assert recording_day(step, day.isoformat(), TODAY) == day
        else:
            with pytest.raises(ConflictError) as caught:
                recording_day(step, day, TODAY)
            assert caught.value.code == "gaming_day_over"
            # the day as a person reads it (TODAY is Nov 25, 2026)
            assert str(caught.value).startswith(
                "the gaming day " + {1: "Nov 24, 2026", 7: "Nov 18, 2026"}[back]
                + " is over for this step")


def test_the_windows_are_stated_in_days_back() -> None:
    assert [days_back(s) for s in ("ChipsSold", "DropBoxRemoved", "DropCounted")] == [
        0, 1, None]


# --- the opener before play, through the services ---------------------------------------

@pytest.fixture
def table(open_table: Callable) -> Any:
    return open_table("five-card-hi-lo")


@pytest.mark.django_db
def test_an_opener_after_the_tables_first_round_is_409_opener_after_play(
        team: Team, table: Any, deck_in_play: Callable) -> None:
    """The opening inventory is the tray before play: once a round has been opened at
    the table in the gaming day, the opener is refused and nothing is appended; the
    closer is still recorded."""
    rounds.round_open(actor=team["dealer"], table_id=table.pk, deck_id=deck_in_play(table).pk)
    refused(ConflictError, "opener_after_play", tray.inventory_record, actor=team["dealer"],
            table_id=table.pk, slip="opener", pieces=OPENER)
    assert table_events(table, today(team["dealer"])) == []
    row = tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="closer",
                                pieces=OPENER)
    assert row.state["inventories"]["closer"]["total_cents"] == 150_000


@pytest.mark.django_db
def test_an_opener_before_play_is_recorded_and_play_follows(
        team: Team, table: Any, deck_in_play: Callable) -> None:
    """40 × $25 + 100 × $5 = 150000, recorded and signed before the first round."""
    row = open_tray(team, table)
    assert row.opener_cents == 150_000
    rounds.round_open(actor=team["dealer"], table_id=table.pk, deck_id=deck_in_play(table).pk)


@pytest.mark.django_db
def test_a_round_of_another_day_does_not_stop_yesterdays_opener(
        team: Team, table: Any, deck_in_play: Callable) -> None:
    """Today's round is play of today, not of the day just ended: the opener of
    yesterday's table day (recorded late, in the window) is accepted."""
    rounds.round_open(actor=team["dealer"], table_id=table.pk, deck_id=deck_in_play(table).pk)
    yesterday = today(team["dealer"]) - timedelta(days=1)
    row = tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="opener",
                                pieces=OPENER, gaming_day=yesterday)
    assert (row.gaming_day, row.state["inventories"]["opener"]["total_cents"]) == (
        yesterday, 150_000)
