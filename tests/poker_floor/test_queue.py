"""The calling order and the posted move-down procedure (poker_floor.domain.queue), worked
by hand; the initials everyone else sees; the Rules' waitlist section. No database."""

from __future__ import annotations

import pytest

from poker_floor.domain.queue import (
    Entry,
    first_eligible,
    listed,
    missed_call,
    moved_to,
    passed_over,
)
from poker_floor.projections import initials
from poker_room.domain.rules_schema import validate_poker
from tables.domain.catalogue import get_table_game
from tables.domain.options_reader import OptionReader, RulesOptionError
from tables.domain.rules_options import example_options

KINDS = {"a": "player", "b": "player", "c1": "change", "x": "broken"}


# --- where a new entry goes -----------------------------------------------------------

def test_a_player_goes_to_the_end() -> None:
    assert listed(["a", "b"], KINDS, "c", "player") == ["a", "b", "c"]


def test_a_table_change_goes_before_the_first_player() -> None:
    assert listed(["a", "b"], KINDS, "c2", "change") == ["c2", "a", "b"]


def test_table_changes_keep_the_order_they_were_asked_in() -> None:
    assert listed(["c1", "a", "b"], KINDS, "c2", "change") == ["c1", "c2", "a", "b"]


def test_a_broken_tables_player_joins_the_changes_in_order() -> None:
    assert listed(["c1", "a"], KINDS, "x2", "broken") == ["c1", "x2", "a"]


def test_into_an_empty_list() -> None:
    assert listed([], {}, "c1", "change") == ["c1"]


# --- who is offered a seat ------------------------------------------------------------

ORDER = [Entry("c1", "change", from_table="T1"), Entry("a"), Entry("b", status="called"),
         Entry("c")]


def test_the_first_waiting_entry_is_offered_the_seat() -> None:
    assert first_eligible(ORDER, "T2").id == "c1"


def test_a_table_change_is_never_offered_its_own_table() -> None:
    assert first_eligible(ORDER, "T1").id == "a"


def test_nobody_eligible() -> None:
    assert first_eligible([Entry("b", status="called")], "T1") is None


def test_calling_c_passes_over_a_but_not_b_who_is_called() -> None:
    assert passed_over(ORDER, "T1", "c") == ["a"]
    assert passed_over(ORDER, "T2", "c") == ["c1", "a"]


def test_calling_the_first_passes_over_nobody() -> None:
    assert passed_over(ORDER, "T2", "c1") == []


# --- the move-down procedure ----------------------------------------------------------

def test_a_first_miss_moves_the_player_down_three_places() -> None:
    """A B C D E F, A misses: B C D A E F — A is 4th."""
    miss = missed_call(list("ABCDEF"), "A", missed_before=0, move_down_places=3,
                       missed_calls_allowed=2)
    assert (miss.order, miss.moved_to, miss.missed) == (list("BCDAEF"), 4, 1)


def test_a_player_near_the_end_is_moved_to_the_end() -> None:
    """A B C, B misses: A C B — B is 3rd (only one place below)."""
    miss = missed_call(list("ABC"), "B", missed_before=0, move_down_places=3,
                       missed_calls_allowed=2)
    assert (miss.order, miss.moved_to) == (list("ACB"), 3)


def test_zero_places_keeps_the_place() -> None:
    miss = missed_call(list("ABC"), "A", missed_before=0, move_down_places=0,
                       missed_calls_allowed=3)
    assert (miss.order, miss.moved_to, miss.missed) == (list("ABC"), 1, 1)


def test_the_last_allowed_miss_takes_the_player_off() -> None:
    """Allowed two misses: the second takes A off the list."""
    miss = missed_call(list("BAC"), "A", missed_before=1, move_down_places=3,
                       missed_calls_allowed=2)
    assert (miss.order, miss.moved_to, miss.missed) == (list("BC"), None, 2)


def test_one_miss_allowed_takes_the_player_off_at_once() -> None:
    miss = missed_call(list("AB"), "A", missed_before=0, move_down_places=3,
                       missed_calls_allowed=1)
    assert (miss.order, miss.moved_to) == (["B"], None)


def test_the_projection_puts_the_player_where_the_event_says() -> None:
    assert moved_to(list("ABCDEF"), "A", 4) == list("BCDAEF")
    assert moved_to(list("BAC"), "A", None) == list("BC")


# --- initials -------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "shown"), [
    ("John Smith", "J.S."), ("john smith", "J.S."), ("Mary Ann Lee", "M.A.L."),
    ("Jean-Luc Picard", "J.L.P."), ("Cher", "C."), ("JS", "JS"), ("J.S.", "J.S."),
    ("", "")])
def test_initials(name, shown) -> None:
    assert initials(name) == shown


# --- the Rules Submission's waitlist section ------------------------------------------

def _canonical(**changes) -> dict:  # noqa: ANN003
    return validate_poker(OptionReader({**example_options("holdem"), **changes}, "options"),
                          get_table_game("holdem"))


def test_the_section_is_absent_unless_posted() -> None:
    assert "waitlist" not in _canonical()


def test_a_part_left_out_takes_the_default() -> None:
    assert _canonical(waitlist={"call_minutes": 3})["waitlist"] == {
        "call_minutes": 3, "move_down_places": 3, "missed_calls_allowed": 2}


@pytest.mark.parametrize("section", [{"call_minutes": 0}, {"call_minutes": 61},
                                     {"move_down_places": 51}, {"missed_calls_allowed": 0},
                                     {"missed_calls_allowed": 11}, {"page_twice": True}])
def test_the_sections_bounds(section) -> None:
    with pytest.raises(RulesOptionError):
        _canonical(waitlist=section)
