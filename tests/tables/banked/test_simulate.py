"""Simulated rounds: seeded decks repeat, the simple strategy does what it says, and the
benchmark measures something."""

from __future__ import annotations

import random

import pytest

from tables.domain.banked import Phase
from tables.domain.banked.simulate import bench_rounds, deal_deck, play_round

from .drive import cards


def _deck_for_one_position(player: str, dealer: str) -> list[int]:
    """By-card dealing to one position (§ 589.8(c)): player, dealer, player, ..."""
    p, d = cards(player), cards(dealer)
    head = [c for pair in zip(p, d, strict=True) for c in pair]
    return head + [c for c in range(52) if c not in head]


@pytest.mark.parametrize("game", ["lunar-poker-589", "lunar-poker-671a", "five-card-hi-lo"])
def test_a_seeded_round_repeats(game: str) -> None:
    one = play_round(game, None, random.Random(42), positions=3)
    two = play_round(game, None, random.Random(42), positions=3)
    assert one.events == two.events
    assert one.state.phase is Phase.CLOSED
    assert one.wagered == one.returned + one.house_win


def test_a_secure_shuffle_round_settles() -> None:
    played = play_round("five-card-hi-lo", positions=6)
    assert played.state.phase is Phase.CLOSED
    assert sorted(played.state.deck) == list(range(52))


def test_seeded_decks_are_whole_decks() -> None:
    assert sorted(deal_deck(random.Random(1))) == list(range(52))


def test_simple_strategy_bets_ace_king_or_better() -> None:
    deck = _deck_for_one_position("Ac Kd 7s 4h 2c", "Qh Js 9h 5s 3d")
    played = play_round("lunar-poker-589", None, deck=deck, side_wagers=False)
    assert played.state.positions[1].decision == "bet"


def test_simple_strategy_folds_less_than_ace_king() -> None:
    deck = _deck_for_one_position("Ac Qd 7s 4h 2c", "Kh Js 9h 5s 3d")
    played = play_round("lunar-poker-671a", None, deck=deck, side_wagers=False)
    assert played.state.positions[1].decision == "fold"


def test_simple_strategy_declares_an_instant_hand() -> None:
    deck = _deck_for_one_position("As Ks Qs Js Ts", "Kh Jd 9h 5c 3d")
    played = play_round("lunar-poker-589", None, deck=deck)
    assert played.state.positions[1].decision == "instant"
    assert played.state.positions[1].returned["ante"] == 1000 * 1501  # Paytable A


def test_simple_strategy_plays_hilo_with_the_largest_high_hand() -> None:
    deck = _deck_for_one_position("As Kd 7s 4h 2c", "Qh Js 9h 5s 3d")
    played = play_round("five-card-hi-lo", None, deck=deck)
    assert played.state.positions[1].setting == (tuple(cards("As Kd 7s")),
                                                 tuple(cards("4h 2c")))


def test_benchmark_reports_rounds_per_second() -> None:
    assert bench_rounds("lunar-poker-589", 50, 3) > 0
    assert bench_rounds("five-card-hi-lo", 50, 3, positions=6, include_shuffle=True) > 0
