"""Driving a round command by command in tests (no database)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from casino.domain.cards import parse_cards
from casino.domain.errors import DomainError
from tables.domain.banked import execute, rebuild
from tables.domain.banked.state import RoundState

LUNAR_589 = {"table_minimum_cents": 1000, "table_maximum_cents": 50000,
             "instant_paytable": "A", "super_wager_offered": True, "super_paytable": "B"}
LUNAR_671A = {"table_minimum_cents": 1000, "table_maximum_cents": 50000,
              "instant_paytable": "A", "super_on_other_hands_offered": True}
HILO = {"table_minimum_cents": 500, "table_maximum_cents": 50000, "ante_bonus_paytable": "B",
        "tie_wager_offered": True, "poker_bonus_offered": True, "poker_bonus_paytable": "A",
        "adjacent_betting_areas_permitted": True}
OPTIONS = {"lunar-poker-589": LUNAR_589, "lunar-poker-671a": LUNAR_671A,
           "five-card-hi-lo": HILO}


#: a deck in rank-major order: 2c 2d 2h 2s 3c 3d ... As (top card first), as text
ORDERED_DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def cards(text: str) -> list[int]:
    return parse_cards(text)


def ids(text: str) -> tuple[int, ...]:
    """Card numbers as the state holds them (a tuple)."""
    return tuple(parse_cards(text))


def texts(text: str) -> list[str]:
    """Cards as text, the way a console sends them: ``"As Kd"`` -> ``["As", "Kd"]``."""
    return text.split()


class Table:
    """One round; ``do`` runs a command and keeps its events, ``refuse`` checks a refusal
    leaves everything as it was."""

    def __init__(self, game: str, options: dict[str, Any] | None = None, *,
                 equipment: dict[str, str] | None = None, **overrides: Any):
        """``equipment``: the table's dealing_method and shuffler, as the round gate's
        RoundOpened gives them."""
        self.state: RoundState | None = None
        self.events: list[dict[str, Any]] = []
        opts = {**(options if options is not None else OPTIONS[game]), **overrides}
        self.do("open_round", game=game, options=opts, **(equipment or {}))

    def do(self, type_: str, **fields: Any) -> list[dict[str, Any]]:
        self.state, evs = execute(self.state, {"type": type_, **fields})
        self.events.extend(evs)
        return evs

    def refuse(self, code: str, type_: str, **fields: Any) -> DomainError:
        before = self.state
        snapshot = copy.deepcopy(before)
        with pytest.raises(DomainError) as err:
            execute(before, {"type": type_, **fields})
        assert err.value.code == code, err.value
        assert before == snapshot  # the state given to decide is untouched
        assert rebuild(self.events) == before  # and no event was kept
        return err.value

    # shortcuts ----------------------------------------------------------------
    def wager(self, position: int, wager: str, amount: int, player: str | None = None
              ) -> None:
        self.do("place_wager", position=position, wager=wager, amount=amount, player=player)

    def deal(self, hands: dict[int, str], dealer: str) -> None:
        self.do("no_more_bets")
        self.do("deal", hands={str(n): cards(h) for n, h in hands.items()},
                dealer=cards(dealer))

    def decide(self, position: int, decision: str, **fields: Any) -> list[dict[str, Any]]:
        return self.do("decision", position=position, decision=decision, **fields)

    def types(self, events: list[dict[str, Any]] | None = None) -> list[str]:
        return [e["type"] for e in (self.events if events is None else events)]

    def settled(self) -> list[tuple[int, str, str, int]]:
        return [(e["data"]["position"], e["data"]["wager"], e["data"]["outcome"],
                 e["data"]["returned"]) for e in self.events if e["type"] == "WagerSettled"]

    def returned(self, position: int) -> dict[str, int]:
        assert self.state is not None
        return dict(self.state.positions[position].returned)
