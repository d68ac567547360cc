"""A small gaming day for finance's tests, played through the real services (events
appended, projections updated), with every figure worked by hand below. Reuse it: call
:func:`small_day` with the fixtures of ``tests/finance/conftest.py`` and assert against
the constants here (or the working in your own docstring).

The day (today's gaming day of the test property):

**Five Card Hi-Lo** (the example Rules Submission, § 579.11, § 579.12):

* opener 200 × $25 = $5,000.00, recorded by the dealer, signed by the floorperson;
* one round (tests/tables/test_banked_api.py ``test_hilo_player_wins_both_hands``):
  Ante $10, Tie $5, Play $10; K-Q-9 (29) / 3-2 (5) against J-10-8 (28) / 6-4 (10): a win
  (§ 579.11(g)(1)), Ante and Play paid 1 to 1, the Tie lost: put up $25, returned $40,
  house win −$15.00;
* chips sold for cash $300.00; a fill of 20 × $25 = $500.00; a credit of 8 × $25 =
  $200.00 (each slip requested by the floor, prepared by the cashier, carried by the
  runner, signed at the table by the dealer);
* expected closer 5,000 + 500 − 200 − 300 + (−15) = $4,985.00; the closer is
  199 × $25 + 2 × $5 = 4,975 + 10 = $4,985.00 (no tray variance);
* expected drop = the chip sales, $300.00; the count finds 2 × $100 + 4 × $20 = $280.00,
  **$20.00 short** (by default; ``hilo_count`` stops the box earlier).

**Hold'em** (the example submission with a time charge added, § 637a.17(b)(1), (3)):

* opener 100 × $25 = $2,500.00; three players buy in for $100 each: chips sold $300.00;
* two hands of tests/jackpots/_hands.py ``play_hand``: the first to act raises to $8 and
  both others call, $24 each pot; rake 10 % = $2.40, in $1 chips $2.00 a hand, $4.00 for
  both (§ 637a.17(b)(1)); $1 a hand to each of the Bad Beat and High Hand funds
  (§ 637a.15(c), § 637a.16(c)): $2.00 to each fund;
* time charges $12 an hour per player every 20 minutes: $4 × 3 players = $12.00 a period
  (§ 637a.17(b)(3)(i)-(iii)); two periods assessed, the first verified by the floorperson
  ((b)(3)(v)): $12.00 verified, $12.00 pending;
* expected closer 2,500 − 300 = $2,200.00 = 88 × $25 (the rake is not the tray's);
* expected drop 300 + 4 + 12 = $316.00; counted $300 in currency + 16 × $1 in chips =
  $316.00 (no variance).

The Bad Beat fund's display is adjusted by finance with the floorperson as witness to its
record then, $2.00 (§ 637a.15(h)); the High Hand display is never adjusted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.utils import timezone

from casino.actors import Actor
from casino.eventstore import projections
from finance import services as finance
from jackpots import services as jackpots
from jackpots.services import counts
from poker_room.services.time_charges import (
    period_of,
    period_seconds,
    time_charge_assess,
    time_charge_verify,
)
from tables.models import GameTable
from tables.services import banked, rounds
from tests.jackpots._hands import play_hand, seat_three

HILO_OPENER = {"2500": 200}                 # $5,000.00
HILO_CHIPS_SOLD = 30_000                    # $300.00
HILO_FILL = {"2500": 20}                    # $500.00
HILO_CREDIT = {"2500": 8}                   # $200.00
HILO_CLOSER = {"2500": 199, "500": 2}       # $4,985.00
HILO_DROP_SHORT = {"10000": 2, "2000": 4}   # $280.00 of the $300.00 expected
POKER_OPENER = {"2500": 100}                # $2,500.00
POKER_CHIPS_SOLD = 30_000                   # three buy-ins of $100
POKER_CLOSER = {"2500": 88}                 # $2,200.00
POKER_DROP_CASH = {"10000": 3}              # $300.00
POKER_DROP_CHIPS = {"100": 16}              # $16.00: rake $4 + time charges $12

#: the example Hold'em rake (10 % capped at $5) with a time charge of $12 an hour per
#: player assessed every 20 minutes (§ 637a.17(b)(1), (3))
RAKE = {"types": ["percentage", "time-charge"], "methodology": None, "percentage_bp": 1000,
        "collection": "end-of-round", "maximum_per_round_cents": 500,
        "minimum_pot_cents": 0, "spread_over_pots": "main-pot-first",
        "time_charge": {"basis": "per-player", "hourly_cents": 1_200,
                        "assessed_every_minutes": 20}}

#: how far a table's drop box goes: not at all, or up to and including the step named
COUNT_STEPS = ("none", "removed", "counted", "signed", "accepted")


@dataclass
class SmallDay:
    day: date
    hilo: GameTable
    poker: GameTable
    team: dict[str, Actor]


def small_day(team: dict[str, Actor], *, open_table: Callable, deck_in_play: Callable,
              poker_table: Callable, as_actor: Callable, hilo_closer: bool = True,
              hilo_count: str = "accepted") -> SmallDay:
    """The day above. ``hilo_closer=False`` leaves the Hi-Lo closer unrecorded (its box
    is then not counted either); ``hilo_count`` takes its drop box only as far as
    that step (:data:`COUNT_STEPS`). The poker table is always closed and counted."""
    hilo = open_table("five-card-hi-lo")
    # the opener before the first round (finance.domain.recording_day: opener_after_play)
    open_tray(team, hilo, HILO_OPENER)
    play_hilo_round(team["dealer"], hilo, deck_in_play(hilo))
    tray(team, hilo, opener=None, chips_sold=HILO_CHIPS_SOLD,
         slips=[("fill", HILO_FILL), ("credit", HILO_CREDIT)],
         closer=HILO_CLOSER if hilo_closer else None)
    if hilo_closer:
        count(team, hilo, cash=HILO_DROP_SHORT, until=hilo_count)
    poker = play_poker(team, poker_table, as_actor, opener=POKER_OPENER)
    tray(team, poker, opener=None, chips_sold=POKER_CHIPS_SOLD, slips=[],
         closer=POKER_CLOSER)
    count(team, poker, cash=POKER_DROP_CASH, chips=POKER_DROP_CHIPS)
    jackpots.display_adjust(actor=team["finance"], fund="bad-beat")
    jackpots.display_witness(actor=team["floor"], fund="bad-beat")
    return SmallDay(day=team["dealer"].gaming_day(), hilo=hilo, poker=poker, team=team)


def play_hilo_round(dealer: Actor, table: GameTable, deck: Any) -> None:
    """The § 579.11(g)(1) round above: house win −$15.00."""
    rid = rounds.round_open(actor=dealer, table_id=table.pk, deck_id=deck.pk).pk
    banked.round_place_wager(actor=dealer, round_id=rid, position=1, wager="ante",
                             amount=1000)
    banked.round_place_wager(actor=dealer, round_id=rid, position=1, wager="tie", amount=500)
    banked.round_no_more_bets(actor=dealer, round_id=rid)
    banked.round_deal(actor=dealer, round_id=rid, hands={"1": ["Ks", "Qd", "9c", "3h", "2d"]},
                      dealer=["Jh", "Tc", "8s", "6d", "4c"])
    banked.round_decide(actor=dealer, round_id=rid, position=1, decision="play")
    banked.round_set_hands(actor=dealer, round_id=rid, position=1, high=["Ks", "Qd", "9c"],
                           low=["3h", "2d"])
    banked.round_lock_decisions(actor=dealer, round_id=rid)
    banked.round_close_banked(actor=dealer, round_id=rid)


def play_poker(team: dict[str, Actor], poker_table: Callable, as_actor: Callable,
               opener: dict[str, int] | None = None) -> GameTable:
    """Two $24 hands and two time-charge periods, the first verified (see above); with
    ``opener``, the tray's opening inventory recorded and signed before the first hand."""
    table = poker_table("holdem", rake=RAKE)["table"]
    if opener is not None:
        open_tray(team, table, opener)
    dealer = as_actor(team["dealer"])
    seat_three(dealer, table)
    play_hand(dealer, table)
    play_hand(dealer, table)
    projections.catch_up("jackpot_funds")
    first, second = _two_periods_today(team["floor"])
    assert time_charge_assess(table_id=table.pk, period_start=first) == "assessed"
    assert time_charge_assess(table_id=table.pk, period_start=second) == "assessed"
    time_charge_verify(actor=team["floor"], table_id=table.pk, period_start=first)
    return table


def _two_periods_today(actor: Actor) -> tuple[datetime, datetime]:
    """Two neighbouring time-charge periods of today's gaming day: the one before and
    the one now, or (just after the day's boundary) the one now and the next. The
    boundary is on the hour, itself a period's start, so one of the two pairs is whole."""
    step = timedelta(seconds=period_seconds(20))
    now = period_of(timezone.now(), 20)
    if actor.gaming_day(now - step) == actor.gaming_day(now):
        return now - step, now
    return now, now + step


def open_tray(team: dict[str, Actor], table: GameTable, opener: dict[str, int]) -> None:
    """The opener recorded by the dealer and signed by the floorperson: before the
    table's first round or hand (finance.domain.recording_day)."""
    finance.inventory_record(actor=team["dealer"], table_id=table.pk, slip="opener",
                             pieces=opener)
    finance.inventory_sign(actor=team["floor"], table_id=table.pk, slip="opener")


def tray(team: dict[str, Actor], table: GameTable, *, opener: dict[str, int] | None,
         chips_sold: int, slips: list[tuple[str, dict[str, int]]],
         closer: dict[str, int] | None) -> None:
    """The opener (unless recorded before play already: ``None``), the chips sold for
    cash, the fills and credits and the closer."""
    dealer, floor = team["dealer"], team["floor"]
    if opener is not None:
        open_tray(team, table, opener)
    finance.chips_sell(actor=dealer, table_id=table.pk, amount_cents=chips_sold)
    for kind, pieces in slips:
        row = finance.slip_request(actor=floor, table_id=table.pk, kind=kind, pieces=pieces)
        slip_id = next(k for k, s in row.state["slips"].items() if s["state"] == "requested")
        finance.slip_prepare(actor=team["cashier"], table_id=table.pk, slip_id=slip_id)
        finance.slip_carry(actor=team["runner"], table_id=table.pk, slip_id=slip_id)
        finance.slip_complete(actor=dealer, table_id=table.pk, slip_id=slip_id)
    if closer is not None:
        finance.inventory_record(actor=dealer, table_id=table.pk, slip="closer", pieces=closer)
        finance.inventory_sign(actor=floor, table_id=table.pk, slip="closer")


def count(team: dict[str, Actor], table: GameTable, *, cash: dict[str, int],
          chips: dict[str, int] | None = None, until: str = "accepted") -> None:
    """The drop box removed by security, counted by one of the count team, signed by
    another, accepted by the cashier: up to and including the step ``until``."""
    steps = COUNT_STEPS.index(until)
    if steps >= 1:
        finance.drop_remove(actor=team["runner"], table_id=table.pk)
    if steps >= 2:
        finance.drop_count(actor=team["counter"], table_id=table.pk, cash=cash, chips=chips)
    if steps >= 3:
        finance.drop_count_sign(actor=team["counter2"], table_id=table.pk)
    if steps >= 4:
        finance.drop_accept(actor=team["cashier"], table_id=table.pk)


def bad_beat_box_counted_at_cage(team: dict[str, Actor], table: GameTable, *,
                                 counted_cents: int) -> str:
    """The day's Bad Beat payout box of ``table`` counted in the cage (§ 637a.15(d)(2)):
    the floorperson opens and accounts the count, security carries the box, the cashier
    counts and verifies it. The count's id."""
    fund = "bad-beat"
    c = counts.count_open(actor=team["floor"], fund=fund, place="cage")["count_id"]
    counts.count_account(actor=team["floor"], fund=fund, count_id=c)
    counts.count_carry(actor=team["runner"], fund=fund, count_id=c)
    counts.count_box(actor=team["cashier"], fund=fund, count_id=c, table_id=table.pk,
                     counted_cents=counted_cents)
    counts.count_verify(actor=team["cashier"], fund=fund, count_id=c,
                        counted_cents=counted_cents)
    return c
