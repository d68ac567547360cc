"""The house-banked games in the hand-checking rankings registry (casino.domain.hands.games.RANKINGS),
registered by ``TablesConfig.ready()`` from :mod:`tables.domain.hands.checking`."""

from __future__ import annotations

import pytest

from casino.domain.cards import CardCountError
from casino.domain.hands.games import RANKINGS, evaluate
from tables.domain.hands.checking import BANKED_RANKINGS


def test_tables_registers_its_banked_games() -> None:
    assert {g.name for g in BANKED_RANKINGS} == {"lunar-poker-589", "lunar-poker-671a",
                                             "five-card-hi-lo"}
    for game in BANKED_RANKINGS:
        assert RANKINGS[game.name] is game


def test_lunar_registry_pays_pair_of_aces_and_ace_king_for_the_chapter_example() -> None:
    """§ 589.11(e)(1)(ii): A-A-K-8-9 is paid for the pair of aces and the ace-king."""
    out = evaluate("lunar-poker-589", cards="AsAdKc8h9s")
    assert out["description"] == "One pair, aces"
    assert len(out["bet_combinations"]) == 2
    assert out["bet_combinations"][0].startswith("One pair")
    assert out["bet_combinations"][1].startswith("Ace-king")


def test_lunar_registry_takes_six_cards_after_a_buy() -> None:
    """§ 671a.11(f)(2)(ii): after buying a sixth card the best five of six count."""
    out = evaluate("lunar-poker-671a", cards="AsAdKc8h9s8d")
    assert out["description"].startswith("Two pair")


def test_hilo_registry_lists_both_settings_of_the_chapter_example() -> None:
    """§ 579.11(d): A-J-10-9-2 may be set J-10-9 (29) high and A-2 (3) low; the ace may
    also stay high. § 579.11(e): the dealer keeps aces high."""
    out = evaluate("five-card-hi-lo", cards="AsJdTh9c2s")
    assert [29, 3] in out["legal_setting_totals"]
    assert out["dealer_setting"]["high_total"] == 31 and out["dealer_setting"]["low_total"] == 11


def test_banked_registry_refuses_a_wrong_card_count() -> None:
    with pytest.raises(CardCountError, match="five-card-hi-lo needs 5 cards"):
        evaluate("five-card-hi-lo", cards="AsJdTh9c")
