"""Odd chips where the chapter is silent on ties (issue 27, item 2): the games whose section
names the winner and says nothing of a tie let the Rules Submission name who gets the odd
chip; the Seven-card Stud High-low games, whose section fixes it by suit, refuse anyone
else (no database: the schema and the hand engine)."""

from __future__ import annotations

import pytest

from poker_room.domain.errors import InvalidRules
from poker_room.domain.hand import Hand
from poker_room.domain.rules import TableRules
from tables.domain.catalogue import GAMES, OddChip
from tables.domain.rules_options import RulesOptionError, example_options, validate_options
from tables.domain.signage import signage_for
from tests.poker_room._helpers import C, call_down, rules

#: the games whose showdown subsection names the winner and says nothing of a tie, with
#: the subsection, read from the chapter's text
SILENT = {"stud-high": "637a.10(i)(1)", "stud-low": "637a.10(i)(2)",
          "omaha-high": "637a.12(k)(1)", "five-card-omaha-high": "637a.19(k)(1)",
          "draw-high": "637a.13(i)(1)", "draw-low": "637a.13(i)(2)",
          "five-card-stud": "637a.14(i)"}
#: 637a.10(i)(3)(ii)-(iii): the High-low Stud games' odd chip goes by suit
FIXED = ("stud-hilo", "stud-hilo8", "super-stud-hilo8")


def test_silent_sections_let_the_submission_name_the_odd_chip():
    """§ 637a.10(i)(1)-(2), § 637a.12(k)(1), § 637a.13(i), § 637a.14(i), § 637a.19(k)(1):
    silent on ties, so the submission may name the player; unnamed, by suit. The
    catalogue cites the silent subsection."""
    for game, rule in SILENT.items():
        assert GAMES[game].odd_chip is OddChip.OPTIONAL, game
        assert GAMES[game].odd_chip_rule == f"{rule}: silent on ties"
        named = validate_options(game, {**example_options(game),
                                        "odd_chip_recipient": "first-left-of-button"})
        assert named["odd_chip_recipient"] == "first-left-of-button", game
        assert validate_options(game, example_options(game))["odd_chip_recipient"] is None


@pytest.mark.regulation("637a.10(i)(3)(ii)", "637a.10(i)(3)(iii)")
def test_stud_high_low_keeps_the_chapters_odd_chip():
    """§ 637a.10(i)(3)(ii)-(iii): by suit, fixed; naming the player left of the dealer is
    refused with its own code, for the high and the low share; naming the suit is the
    chapter's rule again."""
    for game in FIXED:
        assert GAMES[game].odd_chip_rule == "637a.10(i)(3)(ii)-(iii): by suit"
        for key in ("odd_chip_recipient", "odd_chip_recipient_low"):
            with pytest.raises(RulesOptionError) as err:
                validate_options(game, {**example_options(game),
                                        key: "first-left-of-button"})
            assert (err.value.code, err.value.field) == ("odd_chip_fixed_by_chapter",
                                                         f"options.{key}")
        by_suit = validate_options(game, {**example_options(game),
                                          "odd_chip_recipient": "highest-card-by-suit"})
        assert by_suit["odd_chip_recipient"] is None
    with pytest.raises(InvalidRules) as exc:  # the engine's rules read the same schema
        TableRules.from_dict(rules("stud-hilo", odd_chip_recipient_low="first-left-of-button"))
    assert exc.value.code == "odd_chip_fixed_by_chapter"


def _omaha_tie(**odd_chip):
    """Omaha High, $1 chips, $1/$2 blinds, three players, button seat 1. Seat 1 calls $2,
    seat 2 (small blind) folds, seat 3 (big blind) checks; everyone checks to the river.
    Board Kh Qd Jc 4s 2h: seat 1's As Ts and seat 3's Ac Td each make the ace-high
    straight with K Q J (two hole cards and three of the board, 637a.12(k)), a tie."""
    h = Hand.start(rules("omaha-high", chip_unit_cents=100, blinds_cents=[100, 200],
                         **odd_chip), {1: 10_000, 2: 10_000, 3: 10_000}, button=1)
    h.deal({2: C("9c9s7s3h"), 3: C("AcTd8h8d"), 1: C("AsTs5d6d")})
    h.act(1, "call")
    h.act(2, "fold")
    h.act(3, "check")
    for cards in (C("KhQdJc"), C("4s"), C("2h")):
        h.deal(cards)
        call_down(h)
    assert h.is_complete
    return h


@pytest.mark.parametrize(("odd_chip", "seat_with_odd_chip"), [
    ({}, 1),  # unnamed: by suit, the spade ace over the club ace
    ({"odd_chip_recipient": "highest-card-by-suit"}, 1),
    ({"odd_chip_recipient": "first-left-of-button"}, 3),  # seat 2 folded; seat 3 next
])
def test_omaha_high_split_pot_odd_chip_as_the_submission_names(odd_chip, seat_with_odd_chip):
    """§ 637a.12(k)(1) is silent on a tie: the pot of $5 ($1 small blind dead, $2 and $2)
    is split $2 each and the odd $1 chip goes where the submission says: by suit (the
    highest card, As over Ac, the order of § 637a.12(k)(2)(iv)) to seat 1, or to the
    first tied player left of the button, seat 3."""
    h = _omaha_tie(**odd_chip)
    awards = {e["data"]["seat"]: e["data"]["amount"] for e in h.events
              if e["type"] == "PotAwarded"}
    other = 4 - seat_with_odd_chip
    assert awards == {seat_with_odd_chip: 300, other: 200}
    # each put in $2: the one with the odd chip is $1 up, the other even, seat 2 $1 down
    assert h.stacks == {seat_with_odd_chip: 10_100, other: 10_000, 2: 9_900}


def test_the_sign_names_the_recipient_from_the_dealers_left_at_stud():
    """§ 637a.10(i)(1) silent: a Seven-card Stud High table that names the first tied
    player posts it from the dealer's left (stud has no button), citing the subsection."""
    o = validate_options("stud-high", {**example_options("stud-high"),
                                       "odd_chip_recipient": "first-left-of-button"})
    odd = next(s for s in signage_for("stud-high", o)["sections"] if s["title"] == "Odd chip")
    assert odd["source"] == "637a.10(i)(1): silent on ties"
    assert [line["label"] for line in odd["lines"]] == [
        "An odd chip of a split pot goes to the first tied player to the left of the dealer."]
