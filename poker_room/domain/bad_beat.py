"""Bad Beat qualification, judged at the showdown from the hand's events (637a.15(b)(3)-(4),
637a.15(f)(1)): the posted qualifying hand lost to a higher hand, in a hand with the
posted number of players dealt in and a pot of the posted minimum.

This only says whether the hand qualifies and who held what; verifying and paying it is
the jackpots' business (637a.15(f)-(g)). High-hand games only: a lowball pot has no bad
beat in the sense of the posted qualifying hands (full house or better).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from casino.domain.hands.high import Category, best_high, category_of, describe_high, ranks_of
from casino.domain.hands.omaha import omaha_high
from poker_room.domain.games import get_game

_CATEGORY = {"full-house": Category.FULL_HOUSE, "four-of-a-kind": Category.FOUR_OF_A_KIND,
             "straight-flush": Category.STRAIGHT_FLUSH, "royal-flush": Category.STRAIGHT_FLUSH}
_RANKS = "23456789TJQKA"
#: the showdowns judged by a five-card high hand
_HIGH = {"holdem", "omaha", "stud_high", "high5"}


def _value(showdown: str, own: Sequence[int], board: Sequence[int]) -> int:
    if showdown == "omaha":
        return omaha_high(list(own), list(board))
    return best_high(list(own) + list(board))


def _both_hole_cards_play(showdown: str, own: Sequence[int], board: Sequence[int],
                          value: int) -> bool:
    """Hold'em: some best hand uses both hole cards (Omaha always uses exactly two)."""
    if showdown != "holdem":
        return True
    return any(best_high(list(own) + list(three)) == value
               for three in itertools.combinations(board, 3))


def _cards_held(events: Sequence[Mapping[str, Any]]) -> dict[int, list[int]]:
    """Each seat's cards at the end, from the deal and the draws: a losing hand mucked at
    the showdown (637a.18(e)) still qualifies when tabled to claim the Bad Beat, and the
    record knows it."""
    held: dict[int, list[int]] = {}
    for e in events:
        d = e["data"]
        if e["type"] == "CardsDealt":
            for seat, cards in d["cards"]:
                held.setdefault(seat, []).extend(cards)
        elif e["type"] == "PlayerDrew":
            kept = [c for c in held[d["seat"]] if c not in d["discarded"]]
            held[d["seat"]] = kept + list(d["cards"])
        elif e["type"] == "ExposedCardReplaced" and d.get("replacement") is not None:
            held[d["seat"]] = [d["replacement"] if c == d["card"] else c
                               for c in held[d["seat"]]]
    return held


def _meets(value: int, q: Mapping[str, Any]) -> bool:
    need = q["losing_hand_at_least"]
    cat = category_of(value)
    if cat < _CATEGORY[need]:
        return False
    if need == "royal-flush" and not (cat is Category.STRAIGHT_FLUSH
                                      and ranks_of(value)[0] == 12):
        return False
    rank = q.get("rank_at_least")
    if rank and cat == _CATEGORY[need]:
        return ranks_of(value)[0] >= _RANKS.index(rank)
    return True


def judge(game: str, bad_beat: Mapping[str, Any] | None, events: Sequence[Mapping[str, Any]]
          ) -> dict[str, Any] | None:
    """The Bad Beat this hand qualifies for, or None. ``bad_beat`` is the Rules
    Submission's canonical ``bad_beat`` options; ``events`` the hand's engine events."""
    spec = get_game(game)
    if not bad_beat or spec.showdown not in _HIGH or not events:
        return None
    q = bad_beat["qualifying_hand"]
    dealt = [s for s, _ in events[0]["data"]["seats"]]
    done = next((e["data"] for e in reversed(events) if e["type"] == "HandCompleted"), None)
    if (done is None or done.get("voided") or len(dealt) < q["minimum_players_dealt"]
            or done["pot"] < bad_beat["minimum_pot_cents"]):
        return None
    board = [c for e in events if e["type"] == "BoardDealt" for c in e["data"]["cards"]]
    order = next((e["data"]["order"] for e in events if e["type"] == "ShowdownStarted"), [])
    held = _cards_held(events)
    shown = {s: held[s] for s in order}
    winners = {e["data"]["seat"] for e in events
               if e["type"] == "PotAwarded" and e["data"]["pot"] == 0}
    if len(shown) < 2 or len(winners) != 1:
        return None  # no showdown, or a split main pot: nobody was beaten
    values = {s: _value(spec.showdown, cards, board) for s, cards in shown.items()}
    (winner,) = winners
    losers = [s for s in shown if s not in winners]
    if not losers or winner not in values:
        return None
    loser = max(losers, key=lambda s: values[s])
    if not _meets(values[loser], q):
        return None
    if q.get("both_hole_cards_must_play") and not all(
            _both_hole_cards_play(spec.showdown, shown[s], board, values[s])
            for s in (loser, winner)):
        return None
    return {"losing_seat": loser, "losing_hand": describe_high(values[loser]),
            "winning_seat": winner, "winning_hand": describe_high(values[winner]),
            "players_dealt": dealt, "pot_cents": done["pot"]}
