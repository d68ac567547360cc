"""The poker table's sign states the odd-chip rule in force for every game, whether the
Rules Submission names a recipient or not (no database: the schema and the sign).

* the chapter fixes it by suit (§ 637a.10(i)(3)(ii)-(iii)): the sign says so, citing it;
* the chapter lets the submission name a player or leaves it by suit (§ 637a.12(k)(2)),
  none named: by suit, citing the chapter;
* the chapter is silent on ties (§ 637a.13(i)(1)) or names no one of its own
  (§ 637a.11(k): "may be given to the player specified"), none named: by suit, said as the
  house's rule, with no section cited for it."""

from __future__ import annotations

import pytest

from tables.domain.rules_options import example_options, validate_options
from tables.domain.signage import signage_for

HIGH_BY_SUIT = ("An odd chip of a split {share} goes to the tied player with the highest "
                "card by suit (spades, then hearts, diamonds, clubs).")
LOW_BY_SUIT = ("An odd chip of a split low share goes to the tied player with the lowest "
               "low card by suit (spades, then hearts, diamonds, clubs).")


def _odd_chip(game: str, **options: object) -> dict:
    o = validate_options(game, {**example_options(game), **options})
    sections = signage_for(game, o)["sections"]
    [odd] = [s for s in sections if s["title"] == "Odd chip"]
    return {"source": odd["source"], "lines": [line["label"] for line in odd["lines"]]}


@pytest.mark.regulation("637a.13(i)(1)")
def test_a_game_the_chapter_is_silent_on_posts_the_house_rule_by_suit() -> None:
    """Five-card Draw High, no recipient named: the odd chip goes by suit as the house's
    rule; the sign cites no section for it and says the chapter is silent."""
    assert _odd_chip("draw-high") == {"source": "", "lines": [
        HIGH_BY_SUIT.format(share="pot"),
        "This is the house's rule: § 637a.13(i)(1) says nothing of ties."]}


@pytest.mark.regulation("637a.11(k)")
def test_holdem_with_no_recipient_named_posts_the_house_rule_by_suit() -> None:
    """Hold'em: § 637a.11(k) gives the excess to the player the submission specifies;
    none specified, the house's rule by suit is posted."""
    assert _odd_chip("holdem") == {"source": "", "lines": [
        HIGH_BY_SUIT.format(share="pot"),
        "This is the house's rule: § 637a.11(k) leaves the odd chip to the player the "
        "Rules Submission names, and it names none."]}


@pytest.mark.regulation("637a.10(i)(3)(ii)", "637a.10(i)(3)(iii)")
def test_a_game_the_chapter_fixes_by_suit_posts_it_for_both_shares() -> None:
    assert _odd_chip("stud-hilo") == {"source": "637a.10(i)(3)(ii)-(iii): by suit",
                                      "lines": [HIGH_BY_SUIT.format(share="high share"),
                                                LOW_BY_SUIT]}


@pytest.mark.regulation("637a.12(k)(2)(ii)", "637a.12(k)(2)(iii)")
def test_a_game_offering_suit_or_a_named_player_posts_suit_when_none_is_named() -> None:
    """Omaha High-low 8: by suit or the player the submission names; none named: by suit,
    the chapter's rule. The high share named and the low not: each share as in force."""
    assert _odd_chip("omaha-hilo8") == {"source": "637a.12(k)(2)",
                                        "lines": [HIGH_BY_SUIT.format(share="high share"),
                                                  LOW_BY_SUIT]}
    named_high = _odd_chip("omaha-hilo8", odd_chip_recipient="first-left-of-button")
    assert named_high["lines"] == [
        "An odd chip of a split high share goes to the first tied player to the left of "
        "the button.", LOW_BY_SUIT]


@pytest.mark.regulation("637a.21(k)(5)")
def test_a_named_recipient_is_posted_as_named() -> None:
    assert _odd_chip("badugi") == {"source": "637a.21(k)(5)", "lines": [
        "An odd chip of a split pot goes to the first tied player to the left of the "
        "button."]}
