"""One registry of games (issue 12, item 6): :mod:`tables.domain.catalogue`. Every other
per-game table — how hands are ranked, how a poker hand is dealt, which rulebook a
house-banked round follows — is keyed by its ids and covers exactly its games."""

from __future__ import annotations

from casino.domain.hands.games import RANKINGS
from poker_room.domain.games import POKER_SPECS
from tables.domain.banked.state import HILO_GAME, LUNAR_GAMES
from tables.domain.catalogue import BANKED_GAMES, GAMES, POKER_GAMES
from tables.domain.hands.lunar import Rulebook


def test_the_registry_holds_every_chapter_game_once() -> None:
    """Three house-banked games (chapters 589, 671a, 579) and the eighteen games of
    chapter 637a (§ 637a.10 to § 637a.14, § 637a.19 to § 637a.21)."""
    assert BANKED_GAMES == ("lunar-poker-589", "lunar-poker-671a", "five-card-hi-lo")
    assert len(POKER_GAMES) == 18
    assert set(GAMES) == set(BANKED_GAMES) | set(POKER_GAMES)


def test_every_game_has_a_ranking_and_every_poker_game_a_deal() -> None:
    assert set(GAMES) <= set(RANKINGS)
    assert set(POKER_SPECS) == set(POKER_GAMES)
    for game_id, spec in POKER_SPECS.items():
        assert spec.max_players == GAMES[game_id].max_positions, game_id


def test_banked_rulebooks_follow_the_registry() -> None:
    """§ 589.2(a) and § 671a.2(a): two Lunar Poker rulebooks; § 579.2(a) Five Card Hi-Lo."""
    assert LUNAR_GAMES == {"lunar-poker-589": Rulebook.CH589,
                           "lunar-poker-671a": Rulebook.CH671A}
    assert HILO_GAME == "five-card-hi-lo"
