"""Closing a gaming day (finance.services.close), at the service level on the real
database: what is still open, finance's close and its refusals, the beat's close and
hold, the exceptions the close records, a count accepted after the close, the tolerance,
and the beat at the daylight-saving changes.

Every table day here is worked by hand from these figures (cents):

* opener  {"2500": 40, "500": 100} = 40 × 2500 + 100 × 500 = 100000 + 50000 = 150000
* chips sold for cash                                                         30000
* fill    {"2500": 8}  = 8 × 2500                                           = 20000
* credit  {"10000": 1} = 1 × 10000                                          = 10000
* closer  {"2500": 40, "500": 60} = 100000 + 30000                          = 130000
  (expected closer, no rounds played: 150000 + 20000 − 10000 − 30000 + 0  = 130000)
* drop    {"10000": 3} = 3 × 10000                                          = 30000
  (expected drop at a banked table: the chips sold for cash               = 30000)
* win = closer − opener + credits − fills + drop
      = 130000 − 150000 + 10000 − 20000 + 30000 = 0 (no rounds: the house won nothing)

A past gaming day: the drop services take any ended ``gaming_day``; the tray's inventory
slips and slip steps the day being played or the one just ended; chip sales and fill or
credit requests only the day being played (``finance.services.tray``: ``day_of(actor,
None)``). What the services will not record for the day is appended to the table day's
stream as they would have appended it (same event, same metadata but the day) — see
``TableDayAt.record``.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from casino.actors import Actor, actor_of
from casino.domain.errors import ConflictError
from casino.domain.gaming_day import gaming_day_bounds
from casino.eventstore.models import Event
from casino.eventstore.store import NewEvent, Stream, append, read_stream, stream_version
from casino.services import property_register
from finance import services
from finance.models import (
    FinanceException,
    GamingDay,
    TableDay,
    gaming_day_stream,
    table_day_stream,
)
from finance.selectors import reconciliation
from poker_room.services.time_charges import time_charge_verify
from tables.management.commands.simulate_banked import TableRunner
from tables.services import rounds, tables
from tests.finance._day import (
    POKER_CHIPS_SOLD,
    POKER_CLOSER,
    POKER_OPENER,
    _two_periods_today,
    count,
    play_poker,
    tray,
)

pytestmark = pytest.mark.django_db

OPENER = {"2500": 40, "500": 100}      # 150000
CLOSER = {"2500": 40, "500": 60}       # 130000
FILL = {"2500": 8}                     # 20000
CREDIT = {"10000": 1}                  # 10000
SOLD = 30_000
DROP = {"10000": 3}                    # 30000
SHORT_DROP = {"10000": 2, "2000": 4}   # 20000 + 8000 = 28000: $20.00 short
SLIP_STEPS = ("requested", "prepared", "carried", "completed")


def _total(pieces: dict[str, int]) -> int:
    return sum(int(denomination) * n for denomination, n in pieces.items())


class TableDayAt:
    """One table's gaming day recorded step by step by the people who do each step (the
    team fixture): the dealer and floorperson at the table, the cage, the runner,
    security and the count team — through the services where they take the day."""

    def __init__(self, team: dict[str, Actor], table: Any, day: date):
        self.team, self.table, self.day = team, table, day
        today = team["dealer"].gaming_day()
        #: chip sales and slip requests: only the day being played (finance.services.tray)
        self.played = day == today
        #: inventory slips, slip steps and the drop box's removal: the day being played
        #: or the one just ended (the count's later steps: any ended day)
        self.recent = day >= today - timedelta(days=1)

    def record(self, who: str, role: str, type_: str, data: dict[str, Any]) -> None:
        """What a service would record, appended to the table day's stream with the
        metadata the service gives it (``AtTableDay.record``) but for a past gaming
        day: the services only record the day being played (or the one just ended), and
        the test needs a day that has ended long enough ago."""
        stream_id = table_day_stream(self.table.pk, self.day)
        append(Stream("finance_table_day", stream_id), stream_version(stream_id),
               [NewEvent(type_, data)],
               self.team[who].metadata(role=role, table=self.table.pk,
                                       gaming_day=self.day.isoformat()))

    def inventory(self, slip: str, pieces: dict[str, int], *, signed: bool = True) -> None:
        """The dealer records the opener or closer; the floorperson signs it."""
        if self.recent:
            services.inventory_record(actor=self.team["dealer"], table_id=self.table.pk,
                                      slip=slip, pieces=pieces, gaming_day=self.day)
        else:
            self.record("dealer", "dealer", "InventorySlipRecorded", {
                "slip": slip, "pieces": pieces, "total_cents": _total(pieces)})
        if not signed:
            return
        if self.recent:
            services.inventory_sign(actor=self.team["floor"], table_id=self.table.pk,
                                    slip=slip, gaming_day=self.day)
        else:
            self.record("floor", "floorperson", "InventorySlipSigned", {"slip": slip})

    def sell(self, cents: int) -> None:
        if self.played:
            services.chips_sell(actor=self.team["dealer"], table_id=self.table.pk,
                                amount_cents=cents)
        else:
            self.record("dealer", "dealer", "ChipsSold", {"amount_cents": cents})

    def slip(self, kind: str, pieces: dict[str, int], *, upto: str = "completed") -> str:
        """A fill or credit slip requested by the floorperson, prepared by the cashier,
        carried by the runner and signed at the table by the dealer, as far as ``upto``
        (requested, prepared, carried or completed); its id."""
        if self.played:
            before = set(self._slips())
            services.slip_request(actor=self.team["floor"], table_id=self.table.pk,
                                  kind=kind, pieces=pieces)
            (slip_id,) = set(self._slips()) - before
        else:
            slip_id = str(uuid.uuid4())
            self.record("floor", "floorperson", "SlipRequested", {
                "slip_id": slip_id, "kind": kind, "pieces": pieces,
                "total_cents": _total(pieces)})
        steps = [(services.slip_prepare, "SlipPrepared", "cashier", "cashier"),
                 (services.slip_carry, "SlipCarried", "runner", "security"),
                 (services.slip_complete, "SlipCompleted", "dealer", "dealer")]
        for n, (step, type_, who, role) in enumerate(steps):
            if SLIP_STEPS.index(upto) <= n:
                break
            if self.recent:
                step(actor=self.team[who], table_id=self.table.pk, slip_id=slip_id,
                     gaming_day=self.day)
            else:
                self.record(who, role, type_, {"slip_id": slip_id})
        return slip_id

    def _slips(self) -> dict[str, Any]:
        row = TableDay.objects.filter(table=self.table, gaming_day=self.day).first()
        return row.state.get("slips", {}) if row else {}

    def drop(self, *, upto: str = "accepted", cash: dict[str, int] | None = None) -> None:
        """The drop box removed by security, counted (``cash``) by one of the count team,
        signed by another, accepted by the cashier: as far as ``upto``."""
        if self.recent:
            services.drop_remove(actor=self.team["security"], table_id=self.table.pk,
                                 gaming_day=self.day)
        else:
            self.record("security", "security", "DropBoxRemoved", {})
        steps = [("counted", services.drop_count, "counter", {"cash": cash or DROP}),
                 ("signed", services.drop_count_sign, "counter2", {}),
                 ("accepted", services.drop_accept, "cashier", {})]
        if upto == "removed":
            return
        for name, step, who, more in steps:
            step(actor=self.team[who], table_id=self.table.pk, gaming_day=self.day, **more)
            if name == upto:
                return

    def balanced(self, *, closer: dict[str, int] = CLOSER, drop_upto: str = "accepted",
                 cash: dict[str, int] | None = None) -> TableDayAt:
        """The day of the module docstring: opener, $300 sold, a $200 fill, a $100
        credit, the closer, the drop box taken to ``drop_upto``."""
        self.inventory("opener", OPENER)
        self.sell(SOLD)
        self.slip("fill", FILL)
        self.slip("credit", CREDIT)
        self.inventory("closer", closer)
        self.drop(upto=drop_upto, cash=cash)
        return self


@pytest.fixture
def yesterday(team: dict[str, Actor]) -> date:
    """The gaming day that ended last: finance may close it."""
    return team["finance"].gaming_day() - timedelta(days=1)


@pytest.fixture
def banked(open_table: Callable[..., Any]) -> Any:
    return open_table("lunar-poker-589")


def _items(table: Any, day: date) -> list[dict[str, Any]]:
    return [i for i in services.open_items(table.property, day)
            if i.get("table_id") == str(table.pk)]


def _closes(prop_id: int, day: date) -> list[str]:
    return [e.type for e in read_stream(gaming_day_stream(prop_id, day))]


# --- open items ------------------------------------------------------------------------

OPEN_ITEMS = {
    # each: how far the day gets, and the items it leaves open, in the close's order
    # (the inventory slips, then the fill and credit slips, then the drop box)
    "opener not signed": ({"opener_signed": False}, ["opener_unsigned"]),
    "closer not signed": ({"closer_signed": False}, ["closer_unsigned"]),
    # a closer is refused while a slip is open (409 fill_unsigned), so none is recorded
    "fill slip not signed at the table": ({"fill_upto": "carried"},
                                          ["no_closer", "fill_slip_unsigned"]),
    "drop box still on the table": ({"drop_upto": None}, ["box_not_counted"]),
    "drop box removed, not counted": ({"drop_upto": "removed"}, ["box_not_counted"]),
    "count not signed": ({"drop_upto": "counted"}, ["count_unsigned"]),
    "count signed, not accepted": ({"drop_upto": "signed"}, ["count_not_accepted"]),
    "nothing": ({}, []),
}


@pytest.mark.parametrize("case", list(OPEN_ITEMS))
def test_open_items_name_each_thing_still_open_at_its_table(case, team, banked,
                                                            yesterday) -> None:
    """Issue 15 (close: "checks for … uncounted boxes and unsigned counts"): each thing
    still open at a table is listed as the item it is, naming the table; the fill slip
    by its id. § 589.2(c): the drop box at the table is counted before the day is done."""
    how, expected = OPEN_ITEMS[case]
    day = TableDayAt(team, banked, yesterday)
    day.inventory("opener", OPENER, signed=how.get("opener_signed", True))
    day.sell(SOLD)
    slip_id = day.slip("fill", FILL, upto=how.get("fill_upto", "completed"))
    if "fill_upto" not in how:
        day.inventory("closer", CLOSER, signed=how.get("closer_signed", True))
    if how.get("drop_upto", "accepted") is not None:
        day.drop(upto=how.get("drop_upto", "accepted"))
    found = _items(banked, yesterday)
    assert [i["item"] for i in found] == expected
    assert all(i["table"] == banked.name for i in found)
    if "fill_slip_unsigned" in expected:
        assert found[1]["slip_id"] == slip_id


def test_an_open_round_is_an_open_item_of_its_gaming_day(team, banked) -> None:
    """§ 589.11: a round opened and not settled keeps the gaming day open: listed as
    ``open_round`` with its table and number (round 1 of the table)."""
    runner = TableRunner(banked, team["dealer"], team["floor"], random.Random(1))
    rnd = rounds.round_open(actor=team["dealer"], table_id=banked.pk,
                            deck_id=runner.next_deck().pk)
    today = team["dealer"].gaming_day()
    found = [i for i in services.open_items(banked.property, today)
             if i["item"] == "open_round"]
    assert found == [{"item": "open_round", "table": banked.name,
                      "table_id": str(banked.pk), "round_id": str(rnd.pk), "number": "1"}]


def test_the_beat_holds_a_day_whose_only_play_is_a_round_still_open(team, banked) -> None:
    """§ 589.11: a round opened and never settled is play on the day it was opened: once
    the day has ended (the beat given a moment a minute after its end), the beat holds
    it with the round listed rather than passing over a day with no results."""
    runner = TableRunner(banked, team["dealer"], team["floor"], random.Random(1))
    rounds.round_open(actor=team["dealer"], table_id=banked.pk,
                      deck_id=runner.next_deck().pk)
    prop, today = banked.property, team["dealer"].gaming_day()
    _, ends = gaming_day_bounds(today, time_zone=prop.time_zone,
                                start_hour=prop.gaming_day_start_hour)
    assert services.gaming_days_close_due(now=ends + timedelta(minutes=1)) == {
        "closed": 0, "held": 1}
    (held,) = read_stream(gaming_day_stream(prop.pk, today))
    assert [i["item"] for i in held.data["open_items"]] == ["open_round"]


# --- finance's close --------------------------------------------------------------------

def test_finance_close_is_refused_while_a_count_is_unsigned(team, banked, yesterday) -> None:
    """Issue 15, bad input: "a close while a count is unsigned (refused unless finance
    closes with the open items listed)": 409 ``open_items``, nothing appended."""
    TableDayAt(team, banked, yesterday).balanced(drop_upto="counted")
    before = Event.objects.count()
    with pytest.raises(ConflictError) as refused:
        services.gaming_day_close(actor=team["finance"], gaming_day=yesterday)
    assert refused.value.code == "open_items"
    assert "count_unsigned" in str(refused.value)
    assert Event.objects.count() == before
    assert not GamingDay.objects.filter(gaming_day=yesterday).exists()


def test_finance_closes_with_the_open_items_listed(team, banked, yesterday) -> None:
    """Finance may close with what is still open listed in the close: the unsigned count
    is in the table's ``TableDayClosed`` and on the closed day, which says it closed with
    open items; the frozen figures have no counted drop (the count is not accepted)."""
    TableDayAt(team, banked, yesterday).balanced(drop_upto="counted")
    row = services.gaming_day_close(actor=team["finance"], gaming_day=yesterday,
                                    with_open_items=True)
    (closed,) = read_stream(gaming_day_stream(banked.property_id, yesterday))
    assert (closed.type, closed.data["open_count"]) == ("GamingDayClosed", 1)
    table_closed = read_stream(table_day_stream(banked.pk, yesterday))[-1]
    assert table_closed.type == "TableDayClosed"
    assert [i["item"] for i in table_closed.data["open_items"]] == ["count_unsigned"]
    assert (row.state, row.with_open_items, row.closed_by) == (
        "closed", True, team["finance"].username)
    assert [i["item"] for i in row.open_items] == ["count_unsigned"]
    figures = row.figures[str(banked.pk)]
    assert (figures["opener_cents"], figures["closer_cents"], figures["fills_cents"],
            figures["credits_cents"], figures["chip_sales_cents"],
            figures["drop_counted_cents"]) == (150_000, 130_000, 20_000, 10_000, 30_000,
                                               None)


def test_the_gaming_day_being_played_cannot_be_closed(team, banked) -> None:
    """The day still being played has not ended: 409 ``gaming_day_not_ended``, even with
    the open items listed; nothing appended."""
    today = team["finance"].gaming_day()
    TableDayAt(team, banked, today).balanced()
    before = Event.objects.count()
    with pytest.raises(ConflictError) as refused:
        services.gaming_day_close(actor=team["finance"], gaming_day=today,
                                  with_open_items=True)
    assert refused.value.code == "gaming_day_not_ended"
    assert Event.objects.count() == before


def test_closing_a_day_twice_appends_one_close(team, banked, yesterday) -> None:
    """Issue 15: "Closing twice … changes nothing": the second close returns the closed
    day and appends nothing, by finance or by the beat."""
    TableDayAt(team, banked, yesterday).balanced()
    first = services.gaming_day_close(actor=team["finance"], gaming_day=yesterday)
    before = Event.objects.count()
    again = services.gaming_day_close(actor=team["finance2"], gaming_day=yesterday)
    assert services.gaming_days_close_due() == {"closed": 0, "held": 0}
    assert Event.objects.count() == before
    assert _closes(banked.property_id, yesterday) == ["GamingDayClosed"]
    assert again.closed_by == first.closed_by == team["finance"].username


def test_the_beat_holds_a_day_with_open_items_once_per_change_then_closes_it(
        team, banked, yesterday) -> None:
    """The beat closes an ended day only when nothing is open; otherwise it holds the
    day (each run says how many days it found held) and records ``GamingDayCloseHeld``
    with the open items — once per change of the items, not once per run — and closes
    the day by itself once the last item is done."""
    TableDayAt(team, banked, yesterday).balanced(drop_upto="counted")
    for _ in range(2):  # the second run: no change, nothing recorded
        assert services.gaming_days_close_due() == {"closed": 0, "held": 1}
    services.drop_count_sign(actor=team["counter2"], table_id=banked.pk,
                             gaming_day=yesterday)
    for _ in range(2):
        assert services.gaming_days_close_due() == {"closed": 0, "held": 1}
    services.drop_accept(actor=team["cashier"], table_id=banked.pk, gaming_day=yesterday)
    assert services.gaming_days_close_due() == {"closed": 1, "held": 0}
    assert services.gaming_days_close_due() == {"closed": 0, "held": 0}
    stream = read_stream(gaming_day_stream(banked.property_id, yesterday))
    assert [(e.type, [i["item"] for i in e.data["open_items"]]) for e in stream] == [
        ("GamingDayCloseHeld", ["count_unsigned"]),
        ("GamingDayCloseHeld", ["count_not_accepted"]),
        ("GamingDayClosed", [])]
    assert stream[-1].metadata["actor"] == "system:gaming-day-close"


# --- exceptions --------------------------------------------------------------------------

def test_a_drop_shortage_is_one_exception_on_that_table_naming_the_amount(
        team, open_table, yesterday) -> None:
    """§ 589.2(c), issue 15 Done-when: two tables, each the module's day; the second's
    drop box holds two $100 and four $20 notes: 20000 + 8000 = 28000 against the 30000 of
    chips sold, a shortage of 28000 − 30000 = −2000 ($20.00). The close records exactly
    one exception, a drop variance at that table: expected 30000, counted 28000,
    variance −2000. The other table (counted 30000, closer 130000) has none."""
    even = open_table("lunar-poker-589")
    short = open_table("lunar-poker-589")
    TableDayAt(team, even, yesterday).balanced()
    TableDayAt(team, short, yesterday).balanced(cash=SHORT_DROP)
    row = services.gaming_day_close(actor=team["finance"], gaming_day=yesterday)
    (found,) = FinanceException.objects.filter(gaming_day=yesterday)
    assert (found.table_id, found.figure, found.expected_cents, found.counted_cents,
            found.variance_cents, found.after_close, found.state) == (
        short.pk, "drop", 30_000, 28_000, -2_000, False, "open")
    closed = read_stream(gaming_day_stream(short.property_id, yesterday))[-1]
    assert closed.data["exceptions"] == 1
    # win = 130000 − 150000 + 10000 − 20000 + 28000 = −2000 at the short table
    assert row.figures[str(short.pk)]["win_cents"] == -2_000
    assert row.figures[str(even.pk)]["win_cents"] == 0


def test_a_drop_shortage_is_an_exception_once_the_cashier_accepts_the_count(
        team, banked, yesterday) -> None:
    """§ 589.2(c); issue 22: finance explains a short box the day it is counted, not
    after the close. The box holds 20000 + 8000 = 28000 against the 30000 of chips sold:
    the cashier's acceptance records the drop exception at once (expected 30000, counted
    28000, variance 28000 − 30000 = −2000, not after the close), which finance may
    explain then; the close records no second one for the same figure and still counts
    the day's one exception."""
    TableDayAt(team, banked, yesterday).balanced(cash=SHORT_DROP)
    (found,) = FinanceException.objects.filter(gaming_day=yesterday)
    assert (found.figure, found.expected_cents, found.counted_cents, found.variance_cents,
            found.after_close, found.state) == ("drop", 30_000, 28_000, -2_000, False,
                                                "open")
    services.variance_explain(actor=team["finance"], exception_id=found.exception_id,
                              explanation="a $20 note found in the next box")
    services.gaming_day_close(actor=team["finance"], gaming_day=yesterday)
    assert [(e.exception_id, e.figure, e.state)
            for e in FinanceException.objects.filter(gaming_day=yesterday)] == [
        (found.exception_id, "drop", "explained")]
    closed = read_stream(gaming_day_stream(banked.property_id, yesterday))[-1]
    assert closed.data["exceptions"] == 1


def test_the_close_revises_a_drop_exception_a_later_time_charge_made_stale(
        team, poker_table, as_actor) -> None:
    """§ 637a.17(b)(3): a verified time charge is poker revenue in the drop box. The
    Hold'em table of tests/finance/_day.py: chips sold 30000, rake 2 × 200 = 400, the
    first period's time charge (3 players × 1200 per hour × 20 min = 1200) verified, the
    second's assessed but not yet. The box holds 3 × 10000 + 28 × 100 = 32800. At the
    acceptance the expected drop is 30000 + 400 + 1200 = 31600: a drop exception of
    32800 − 31600 = +1200. The floorperson then verifies the second period: expected
    30000 + 400 + 2400 = 32800. The close revises the exception to the figures it
    freezes — expected 32800, counted 32800, variance 0 — open, to be explained."""
    table = play_poker(team, poker_table, as_actor, opener=POKER_OPENER)
    tray(team, table, opener=None, chips_sold=POKER_CHIPS_SOLD, slips=[],
         closer=POKER_CLOSER)
    count(team, table, cash={"10000": 3}, chips={"100": 28})
    (found,) = FinanceException.objects.filter(table_id=table.pk)
    assert (found.figure, found.expected_cents, found.counted_cents,
            found.variance_cents) == ("drop", 31_600, 32_800, 1_200)
    _first, second = _two_periods_today(team["floor"])
    time_charge_verify(actor=team["floor"], table_id=table.pk, period_start=second)
    day = team["finance"].gaming_day()
    with time_machine.travel(timezone.now() + timedelta(days=1), tick=True):
        services.gaming_day_close(actor=team["finance"], gaming_day=day,
                                  with_open_items=True)
    (revised,) = FinanceException.objects.filter(table_id=table.pk)
    assert (revised.exception_id, revised.figure, revised.expected_cents,
            revised.counted_cents, revised.variance_cents, revised.state) == (
        found.exception_id, "drop", 32_800, 32_800, 0, "open")
    closed = read_stream(table_day_stream(table.pk, day))
    assert [e.type for e in closed[-2:]] == ["VarianceRevised", "TableDayClosed"]


def test_a_count_within_the_tolerance_is_no_exception_at_its_acceptance(
        team, banked, yesterday) -> None:
    """§ 589.2(c) (the table's drop box): the module's day with an even box (30000
    counted against 30000 sold): accepted, no exception."""
    TableDayAt(team, banked, yesterday).balanced()
    assert TableDay.objects.get(table=banked, gaming_day=yesterday).drop_state == "accepted"
    assert not FinanceException.objects.exists()


def test_a_count_accepted_after_the_close_is_an_after_close_exception_and_an_adjustment(
        team, banked, yesterday) -> None:
    """Issue 15: "events after the close that belong to the day arrive as adjustments,
    shown as such". Closed with the count signed but not accepted (frozen drop: none);
    the cashier then accepts a count of 28000 against 30000 expected: a drop exception of
    28000 − 30000 = −2000 marked ``after_close``, and the reconciliation shows the frozen
    figures with one adjustment, the counted drop: none at the close, 28000 now,
    adjustment 28000 − 0 = 28000."""
    TableDayAt(team, banked, yesterday).balanced(drop_upto="signed", cash=SHORT_DROP)
    services.gaming_day_close(actor=team["finance"], gaming_day=yesterday,
                              with_open_items=True)
    assert not FinanceException.objects.exists()
    services.drop_accept(actor=team["cashier"], table_id=banked.pk, gaming_day=yesterday)
    (found,) = FinanceException.objects.all()
    assert (found.figure, found.expected_cents, found.counted_cents, found.variance_cents,
            found.after_close) == ("drop", 30_000, 28_000, -2_000, True)
    rec = reconciliation(team["finance"], yesterday)
    assert rec["state"] == "closed"
    assert rec["tables"][0]["drop_counted_cents"] is None  # as frozen
    assert [(a["figure"], a["at_close"], a["now"], a["adjustment"])
            for a in rec["adjustments"]] == [("drop_counted_cents", None, 28_000, 28_000)]
    assert [e.exception_id for e in rec["exceptions"]] == [found.exception_id]


def test_a_count_accepted_after_the_close_does_not_record_the_close_s_exceptions_again(
        team, banked, yesterday) -> None:
    """The close found the tray $5.00 short: closer {"2500": 40, "500": 59} = 100000 +
    29500 = 129500 against 130000 expected, variance −500. The count (30000, even)
    accepted after the close finds no drop variance; the tray's, already an exception,
    is not recorded a second time."""
    TableDayAt(team, banked, yesterday).balanced(closer={"2500": 40, "500": 59},
                                                 drop_upto="signed")
    services.gaming_day_close(actor=team["finance"], gaming_day=yesterday,
                              with_open_items=True)
    services.drop_accept(actor=team["cashier"], table_id=banked.pk, gaming_day=yesterday)
    assert [(e.figure, e.variance_cents, e.after_close)
            for e in FinanceException.objects.all()] == [("tray", -500, False)]


@pytest.mark.parametrize("tolerance,expected", [
    (0, [("drop", 30_000, 25_000, -5_000), ("poker_revenue", 0, -5_000, -5_000)]),
    (10_000, [("poker_revenue", 0, -5_000, -5_000)]),
])
def test_negative_poker_revenue_is_always_an_exception(tolerance, expected, settings, team,
                                                       open_table, yesterday) -> None:
    """§ 637a.17(a), § 637a.2(d): a poker table's revenue is its rake, in its drop box;
    issue 15: "Negative poker revenue at a table is always an exception". A Hold'em
    table with no hands (rake 0): opener 150000, $300 sold (closer 150000 − 30000 =
    120000, as expected), but the box holds two $100 and five $10 notes, 20000 + 5000 =
    25000. Win = 120000 − 150000 + 0 − 0 + 25000 = −5000 against the rake of 0: a
    poker revenue exception (expected 0, counted −5000, variance −5000) — beside the
    drop's (expected 30000, counted 25000, variance −5000) with no tolerance, and alone
    when the $50.00 is within a $100.00 tolerance."""
    settings.FINANCE_TOLERANCE_CENTS = tolerance
    poker = open_table("holdem")
    day = TableDayAt(team, poker, yesterday)
    day.inventory("opener", OPENER)
    day.sell(SOLD)
    day.inventory("closer", {"2500": 40, "500": 40})   # 100000 + 20000 = 120000
    day.drop(cash={"10000": 2, "1000": 5})
    services.gaming_day_close(actor=team["finance"], gaming_day=yesterday)
    found = FinanceException.objects.filter(table_id=poker.pk).order_by("figure")
    assert [(e.figure, e.expected_cents, e.counted_cents, e.variance_cents)
            for e in found] == expected


@pytest.mark.parametrize("tolerance,expected", [(500, []), (499, [("drop", -500)])])
def test_a_variance_within_the_tolerance_is_no_exception(tolerance, expected, settings,
                                                         team, banked, yesterday) -> None:
    """Issue 15: "a variance beyond the configured tolerance is an exception". The drop
    box holds 2 × 10000 + 1 × 5000 + 2 × 2000 + 5 × 100 = 20000 + 5000 + 4000 + 500 =
    29500 against the 30000 sold: 29500 − 30000 = −500 ($5.00 short). Within a tolerance
    (FINANCE_TOLERANCE_CENTS) of 500 cents either way: no exception; beyond one of 499:
    one, of −500."""
    settings.FINANCE_TOLERANCE_CENTS = tolerance
    TableDayAt(team, banked, yesterday).balanced(
        cash={"10000": 2, "5000": 1, "2000": 2, "100": 5})
    services.gaming_day_close(actor=team["finance"], gaming_day=yesterday)
    found = FinanceException.objects.filter(table_id=banked.pk)
    assert [(e.figure, e.variance_cents) for e in found] == expected


# --- the beat at the daylight-saving changes ------------------------------------------------

DST_DAYS = {
    # America/New_York, gaming day from 06:00 local. The clocks change at 2 AM, inside the
    # gaming day that began at 6 AM the day before:
    # fall back 2026-11-01 02:00 EDT → 01:00 EST: the gaming day of Oct 31 runs 06:00 EDT
    # (UTC−4) = 10:00 UTC on Oct 31 to 06:00 EST (UTC−5) = 11:00 UTC on Nov 1: 24 + 1 = 25
    # hours.
    "fall back": (date(2026, 10, 31), datetime(2026, 10, 31, 10, tzinfo=UTC),
                  datetime(2026, 11, 1, 11, tzinfo=UTC), 25),
    # spring forward 2026-03-08 02:00 EST → 03:00 EDT: the gaming day of Mar 7 runs 06:00
    # EST = 11:00 UTC on Mar 7 to 06:00 EDT = 10:00 UTC on Mar 8: 24 − 1 = 23 hours.
    "spring forward": (date(2026, 3, 7), datetime(2026, 3, 7, 11, tzinfo=UTC),
                       datetime(2026, 3, 8, 10, tzinfo=UTC), 23),
}


@pytest.fixture
def new_york(make_staff: Callable[..., Any]) -> dict[str, Actor]:
    """A property set explicitly in America/New_York with its gaming day from 06:00
    (not left to PROPERTY_TIME_ZONE / GAMING_DAY_START_HOUR), its crew, and a table."""
    prop = property_register(licence_number="PA-DST-1", name="DST Casino", system="test",
                             time_zone="America/New_York", gaming_day_start_hour=6)
    roles = {"dealer": "dealer", "floor": "floorperson", "security": "security",
             "runner": "security", "cashier": "cashier", "counter": "count_team",
             "counter2": "count_team", "finance": "finance", "admin": "admin"}
    crew = {k: actor_of(make_staff(r, property=prop)) for k, r in roles.items()}
    crew["table"] = tables.table_configure(actor=crew["admin"], name="LP-DST",
                                           game="lunar-poker-589", positions=5,
                                           dealing_method="automated-shoe",
                                           shuffler="automated")
    return crew


@pytest.mark.parametrize("change", list(DST_DAYS))
def test_the_beat_closes_a_daylight_saving_day_at_its_own_end(change, new_york) -> None:
    """Issue 15: the close at the property's gaming-day boundary "in the property's time
    zone, correct across daylight-saving changes". The day (see DST_DAYS for the hours
    worked by hand) is not closed a second before its end — on the 25-hour day that is
    24 hours 59 minutes 59 seconds after it began, so a close at 24 hours would be an hour
    early, and on the 23-hour day one at 24 hours an hour late — and is closed once at its
    end. The beat is given the moment (``now``); the Celery worker's own run is in
    test_close_celery.py."""
    day, begins, ends, hours = DST_DAYS[change]
    assert ends - begins == timedelta(hours=hours)
    prop = new_york["table"].property
    assert gaming_day_bounds(day, time_zone=prop.time_zone,
                             start_hour=prop.gaming_day_start_hour) == (begins, ends)
    TableDayAt(new_york, new_york["table"], day).balanced()
    prop_id = new_york["table"].property_id
    assert services.gaming_days_close_due(now=ends - timedelta(seconds=1)) == {
        "closed": 0, "held": 0}
    assert _closes(prop_id, day) == []
    assert services.gaming_days_close_due(now=ends) == {"closed": 1, "held": 0}
    assert services.gaming_days_close_due(now=ends + timedelta(hours=1)) == {
        "closed": 0, "held": 0}
    assert _closes(prop_id, day) == ["GamingDayClosed"]
