"""The game registry for hand checking (casino.domain.hands.games)."""

from __future__ import annotations

import pytest

from casino.domain.cards import CardCountError, CardError, DuplicateCardError
from casino.domain.errors import DomainError
from casino.domain.hands.games import (RANKINGS, GameInputError, UnknownGameError, evaluate,
                                       game_names)

EXPECTED = {"holdem", "stud-high", "stud-low", "stud-hilo", "stud-hilo8", "super-stud-hilo8",
            "omaha-high", "omaha-hilo8", "five-card-omaha-high", "five-card-omaha-hilo8",
            "draw-high", "draw-low", "five-card-stud", "triple-draw-27", "triple-draw-a5",
            "badeucey", "badacey", "badugi"}


def test_registry_names():
    """The poker games are casino's own; apps above register theirs at start-up
    (tables' house-banked games: tests/tables/domain/test_hand_checking.py)."""
    assert EXPECTED <= set(game_names())
    for g in RANKINGS.values():
        assert g.fields and g.regulation


@pytest.mark.regulation("637a.11(k)")
def test_holdem_uses_any_five_of_seven():
    """§ 637a.11(k): any of the two hole cards and the five community cards."""
    r = evaluate("holdem", hole="AhKh", board="QhJhTh2c3c")
    assert r["description"] == "Royal flush" and r["category"] == "Straight flush"
    assert "low" not in r
    board = evaluate("holdem", hole="2d3d", board="AsKsQsJsTs")
    assert board["description"] == "Royal flush"  # the board plays (637a.11(k))


@pytest.mark.regulation("637a.12(k)(2)", "637a.12(l)", "637a.12(m)")
def test_omaha_hilo8_result_shape():
    """§ 637a.12(k)(2), (l): high and eight-or-better low; no low is reported as such."""
    r = evaluate("omaha-hilo8", hole="AsKsQdJd", board="2c3c4h9sTs")
    assert r["game"] == "omaha-hilo8" and isinstance(r["rank"], int)
    assert r["low"]["qualifies"] is False and r["low"]["rank"] is None
    r = evaluate("omaha-hilo8", hole="As2sKd3d", board="4s5s8sJhQc")
    assert r["description"] == "Flush, ace high"
    assert r["low"]["qualifies"] is True and r["low"]["description"] == "8-5-4-2-A low"
    assert evaluate("five-card-omaha-hilo8", hole="As2sKd3d9c",
                    board="4s5s8sJhQc")["low"]["qualifies"]


@pytest.mark.regulation("637a.10(i)(3)", "637a.10(j)")
def test_stud_hilo_without_qualifier_always_has_a_low():
    """§ 637a.10(i)(3): Seven-card Stud High-low Split has no eight qualifier (that is
    only 637a.10(j) for Eight or Better)."""
    r = evaluate("stud-hilo", cards="KsKdQhQcJsJd9h")
    assert r["low"]["qualifies"] is True
    # four ranks: the best low pairs the lowest rank, jacks, with K-Q-9
    assert r["low"]["description"] == "One pair, jacks, K-Q-9"
    r8 = evaluate("stud-hilo8", cards="KsKdQhQcJsJd9h")
    assert r8["low"]["qualifies"] is False


def test_lowball_games():
    """§ 637a.20(k)(3)-(4), § 637a.10(i)(2), § 637a.13(i)(2)."""
    assert evaluate("triple-draw-27", cards="7s5d4h3c2c")["description"] == "7-5-4-3-2 low"
    assert evaluate("triple-draw-a5", cards="As2s3s4s5s")["description"] == "5-4-3-2-A low"
    assert evaluate("stud-low", cards="AsAdKh2c3d4s9h")["description"] == "9-4-3-2-A low"
    assert evaluate("draw-low", cards="As2d3h4c5s")["rank"] > \
        evaluate("draw-low", cards="As2d3h4c6s")["rank"]


@pytest.mark.regulation("637a.20(l)(1)(i)", "637a.20(l)(2)(i)", "637a.21(k)(1)")
def test_split_badugi_games():
    """§ 637a.20(l)(1) Badeucey (2-7 + Badugi ace high), § 637a.20(l)(2) Badacey
    (A-5 + Badugi ace low), § 637a.21(k) Badugi."""
    r = evaluate("badeucey", cards="2s3d4h5cAs")
    assert r["badugi"]["description"] == "Four-card Badugi, 5-4-3-2"
    assert r["description"] == "A-5-4-3-2 low"
    r = evaluate("badacey", cards="As2d3h4c5c")
    assert r["badugi"]["description"] == "Four-card Badugi, 4-3-2-A"
    assert r["description"] == "5-4-3-2-A low"
    assert evaluate("badugi", cards="As2d3h4c")["description"] == "Four-card Badugi, 4-3-2-A"


@pytest.mark.parametrize("kwargs, exc, code, text", [
    ({"game": "razz", "cards": "As2d3h4c5s"}, UnknownGameError, "unknown_game", "razz"),
    ({"game": "omaha-hilo8", "hole": "AsKsQd", "board": "2c3c4h9sTs"}, CardCountError,
     "wrong_card_count", "omaha-hilo8 needs 4 or 5 hole cards and 5 board cards"),
    ({"game": "badugi", "cards": "As2d3h"}, CardCountError, "wrong_card_count",
     "badugi needs 4 cards"),
    ({"game": "holdem", "hole": "AsKs"}, GameInputError, "missing_field", "board"),
    ({"game": "badugi", "cards": "As2d3h4c", "board": "5c"}, GameInputError,
     "unexpected_field", "board"),
    ({"game": "badugi", "cards": "As2d3h4x"}, CardError, "invalid_card", "4x"),
    ({"game": "badugi", "cards": "As2d3hAS"}, DuplicateCardError, "duplicate_card", "As"),
    ({"game": "omaha-high", "hole": "AsKsQdJd", "board": "As3c4h9sTs"}, DuplicateCardError,
     "duplicate_card", "As"),
    ({"game": "badugi", "cards": 42}, GameInputError, "invalid_hand_input", "cards"),
])
def test_bad_input(kwargs, exc, code, text):
    with pytest.raises(exc) as info:
        evaluate(**kwargs)
    assert isinstance(info.value, DomainError)
    assert info.value.code == code
    assert text in str(info.value)


def test_cards_from_a_generator_are_not_lost_637a_13_i_1():
    """§ 637a.13(i)(1): Five-card Draw High ranks the five cards given; a generator of
    card numbers or of card texts used to be half-consumed by the type checks."""
    royal = [48, 44, 40, 36, 32]  # Ac Kc Qc Jc Tc (rank << 2 | suit 0)
    assert evaluate("draw-high", cards=(c for c in royal))["description"] == "Royal flush"
    assert evaluate("draw-high", cards=(t for t in ["Ac", "Kc", "Qc", "Jc", "Tc"])
                    )["description"] == "Royal flush"
