"""The seating decisions as plain Python (poker_room.domain.seating): each command's checks
in the order the service has always made them, and the event each records."""

from __future__ import annotations

from typing import Any

import pytest

from casino.domain.errors import DomainError
from poker_room.domain import seating
from poker_room.domain.seating import AWAY, PLAYING, SITTING_OUT, SeatSeen, TableSeen
from tables.domain.rules_options import example_options


def _table(*, seats: dict[int, tuple[str, int]] | None = None, rules: bool = True,
           hand: str | None = None, dealt: tuple[int, ...] = (), **options: Any) -> TableSeen:
    return TableSeen(
        pk="t-1", name="P-1", game="holdem", positions=10, dealer_id=7, version=3,
        current_hand=hand,
        seats={n: SeatSeen(n, status, stack) for n, (status, stack) in (seats or {}).items()},
        rules_options={**example_options("holdem"), **options} if rules else None,
        dealt=dealt)


def _code(fn: Any) -> str:
    with pytest.raises(DomainError) as refused:
        fn()
    return refused.value.code


@pytest.mark.regulation("637a.8(a)")
def test_a_seat_is_checked_rules_first_then_its_number_then_taken_then_the_player() -> None:
    """§ 637a.8(a): no Rules Submission in force is refused before anything else; then a
    seat beyond the table's; then a taken seat; then a named player seated elsewhere."""
    ann = {"name": "Ann Lee", "phone": ""}
    assert _code(lambda: seating.seat_free(_table(rules=False), 11, ann,
                                           seated_elsewhere=True)) == "no_rules_in_effect"
    assert _code(lambda: seating.seat_free(_table(seats={1: (PLAYING, 100)}), 11, ann,
                                           seated_elsewhere=True)) == "invalid_seat"
    assert _code(lambda: seating.seat_free(_table(seats={1: (PLAYING, 100)}), 1, ann,
                                           seated_elsewhere=True)) == "seat_taken"
    with pytest.raises(DomainError, match="Ann Lee is already seated in the room"):
        seating.seat_free(_table(), 2, ann, seated_elsewhere=True)
    assert seating.seat_free(_table(), 2, None, seated_elsewhere=True).game == "holdem"


@pytest.mark.regulation("637a.8(b)(1)")
def test_a_buy_in_within_the_posted_limits_or_stakes_carried_as_chips() -> None:
    """§ 637a.8(b)(1): the posted minimum and maximum, whole chips; stakes carried from
    another table are chips brought, outside the limits, and recorded with where from."""
    rules = _table().rules()  # $40 to $400 in $1 chips
    assert _code(lambda: seating.player_seated(rules, 2, None, 3_900, "chips", None)) \
        == "buy_in_below_minimum"
    assert _code(lambda: seating.player_seated(rules, 2, None, 40_100, "cash", None)) \
        == "buy_in_above_maximum"
    assert _code(lambda: seating.player_seated(rules, 2, None, 4_050, "cash", None)) \
        == "not_whole_chips"
    moved = {"table": "t-2", "seat": 4}
    assert _code(lambda: seating.player_seated(rules, 2, None, 90_000, "cash", moved)) \
        == "invalid_paid_with"
    assert seating.player_seated(rules, 2, None, 90_000, "chips", moved) == (
        "PlayerSeated", {"seat": 2, "player": None, "buy_in_cents": 90_000,
                         "paid_with": "chips", "carried_from": moved})


@pytest.mark.regulation("637a.8(b)(2)")
def test_stakes_stay_on_the_table_while_the_player_is_in_the_hand() -> None:
    """§ 637a.8(b)(2): no add-on and no leaving for a player dealt into the hand in
    progress; a player not dealt in may do both."""
    table = _table(seats={1: (PLAYING, 10_000), 2: (SITTING_OUT, 5_000)}, hand="h-1",
                   dealt=(1,))
    assert _code(lambda: seating.chips_added(table, 1, 1_000, "chips")) == "chips_mid_hand"
    assert _code(lambda: seating.player_left(table, 1)) == "seat_in_hand"
    assert seating.chips_added(table, 2, 1_000, "cash") == (
        "ChipsAdded", {"seat": 2, "amount_cents": 1_000, "paid_with": "cash"})
    assert seating.player_left(table, 2) == ("PlayerLeft",
                                             {"seat": 2, "cashed_out_cents": 5_000})
    assert _code(lambda: seating.player_left(table, 3)) == "seat_empty"


@pytest.mark.regulation("637a.8(b)(6)")
def test_stepping_away_records_the_stakes_on_record_between_hands() -> None:
    """§ 637a.8(b)(6): between hands the stakes recorded are those on record; during a
    hand the floorperson's count stands, with the hand named."""
    between = _table(seats={1: (PLAYING, 10_000), 2: (AWAY, 3_000)})
    assert _code(lambda: seating.stepped_away(between, 2, 3_000, "stakes-counted")) \
        == "seat_away"
    assert _code(lambda: seating.stepped_away(between, 1, 9_000, "stakes-counted")) \
        == "stakes_mismatch"
    during = _table(seats={1: (PLAYING, 10_000)}, hand="h-1", dealt=(1,))
    assert seating.stepped_away(during, 1, 9_000, "stakes-covered")[1] == {
        "seat": 1, "covered_cents": 9_000, "method": "stakes-covered", "during_hand": "h-1"}


@pytest.mark.regulation("637a.8(k)")
def test_the_minimum_bet_is_raised_between_hands_by_at_most_what_the_rules_allow() -> None:
    """§ 637a.8(k): above the posted minimum, by no more than the submission allows, the
    playing seats recorded as the players who agreed."""
    increase = {"maximum_increase_cents": 600, "agreement_method": "asked aloud"}
    table = _table(seats={1: (PLAYING, 1), 2: (SITTING_OUT, 1), 3: (PLAYING, 1)},
                   structure="no-limit", small_bet_cents=None, big_bet_cents=None,
                   minimum_bet_increase=increase)
    posted = table.rules().opening_bet_cents
    assert _code(lambda: seating.minimum_bet_raised(table, posted)) == "invalid_amount"
    assert _code(lambda: seating.minimum_bet_raised(table, posted + 700)) \
        == "increase_above_maximum"
    assert seating.minimum_bet_raised(table, posted + 600) == ("MinimumBetRaised", {
        "amount_cents": posted + 600, "agreement_method": "asked aloud", "players": [1, 3]})
    busy = _table(seats={1: (PLAYING, 1)}, hand="h-1", structure="no-limit",
                  small_bet_cents=None, big_bet_cents=None, minimum_bet_increase=increase)
    assert _code(lambda: seating.minimum_bet_raised(busy, posted + 600)) == "hand_in_progress"
