"""Our hands played again in pokerkit (a development dependency, imported lazily): the
differential tests, ``bench_poker`` and the PHH fixtures use it.

pokerkit numbers players from the first seat to the left of the button (button games) or
from the dealer's left (stud); our events name seats. Only games both implement map:
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from casino.domain.cards import format_card
from poker_room.domain.hand import Hand
from poker_room.domain.rules import FIXED_LIMIT, NO_LIMIT, POT_LIMIT

#: our (game, structure) -> (pokerkit class name, PHH variant code)
PAIRS = {
    ("holdem", NO_LIMIT): ("NoLimitTexasHoldem", "NT"),
    ("holdem", FIXED_LIMIT): ("FixedLimitTexasHoldem", "FT"),
    ("omaha-high", POT_LIMIT): ("PotLimitOmahaHoldem", "PO"),
    ("omaha-hilo8", FIXED_LIMIT): ("FixedLimitOmahaHoldemHighLowSplitEightOrBetter", "FO/8"),
    ("stud-high", FIXED_LIMIT): ("FixedLimitSevenCardStud", "F7S"),
    ("stud-hilo8", FIXED_LIMIT): ("FixedLimitSevenCardStudHighLowSplitEightOrBetter",
                                  "F7S/8"),
    ("stud-low", FIXED_LIMIT): ("FixedLimitRazz", "FR"),
    ("triple-draw-27", FIXED_LIMIT): ("FixedLimitDeuceToSevenLowballTripleDraw", "F2L3D"),
    ("badugi", FIXED_LIMIT): ("FixedLimitBadugi", "FB"),
}
VARIANTS = {v: k for k, (_, v) in PAIRS.items()}
#: pokerkit's cap on bets and raises in a fixed-limit betting round (blinds and the
#: bring-in not counted)
POKERKIT_FIXED_LIMIT_CAP = 4


def _pk():
    import pokerkit
    return pokerkit


_CARDS: list[Any] = []


def pk_card(c: int):
    if not _CARDS:
        pk = _pk()
        _CARDS.extend(next(iter(pk.Card.parse(format_card(x)))) for x in range(52))
    return _CARDS[c]


def automations():
    A = _pk().Automation
    return (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.CARD_BURNING,
            A.HOLE_CARDS_SHOWING_OR_MUCKING, A.HAND_KILLING, A.CHIPS_PUSHING,
            A.CHIPS_PULLING)


def player_order(hand: Hand) -> list[int]:
    """Our player index of pokerkit's (and PHH's) p1, p2, ...: from the button's left in
    button games, from the dealer's left in stud."""
    n = len(hand._seats)
    if hand.spec.uses_button:
        start = (hand._button + 1) % n
        return [(start + k) % n for k in range(n)]
    return list(range(n))


def game_and_args(hand: Hand) -> tuple[Any, tuple, list[int]]:
    """(pokerkit game class, create_state args after the automations, our player index of
    each pokerkit player)."""
    rules, spec = hand.rules, hand.spec
    name, _ = PAIRS[(spec.id, rules.structure)]
    cls = getattr(_pk(), name)
    n = len(hand._seats)
    order = player_order(hand)
    stacks = [hand._start[i] for i in order]
    antes = [rules.ante_cents] * n
    if spec.family == "stud":
        args = (True, antes, rules.bring_in_cents, rules.small_bet_cents,
                rules.big_bet_cents, stacks, n)
    else:
        blinds = list(rules.blinds_cents)
        if rules.structure == FIXED_LIMIT:
            args = (True, antes, blinds, rules.small_bet_cents, rules.big_bet_cents,
                    stacks, n)
        else:
            args = (True, antes, blinds, rules.opening_bet_cents, stacks, n)
    return cls, args, order


def replay_in_pokerkit(hand: Hand) -> Any:
    """Play ``hand`` (complete, from its events) in a pokerkit ``State`` with the same
    cards and decisions; returns the state."""
    return _replay(hand, None)


class _Recorder:
    """Wraps a State and logs each operation, so it can be timed again on its own."""

    def __init__(self, state: Any, log: list) -> None:
        self._state, self._log = state, log

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._state, name)
        if name in ("deal_hole", "deal_board", "fold", "check_or_call", "post_bring_in",
                    "complete_bet_or_raise_to", "stand_pat_or_discard"):
            def call(*a: Any) -> Any:
                self._log.append((name, a))
                return attr(*a)
            return call
        return attr


def script(hand: Hand) -> tuple[Any, tuple, list]:
    """The pokerkit class, its create_state arguments and the operations that replay
    ``hand``: for timing pokerkit alone (``bench_poker``)."""
    log: list = []
    _replay(hand, log)
    cls, args, _ = game_and_args(hand)
    return cls, args, log


def run_script(cls: Any, args: tuple, log: list) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = cls.create_state(automations(), *args)
        for name, a in log:
            getattr(state, name)(*a)
    return state


def _replay(hand: Hand, log: list | None) -> Any:
    cls, args, order = game_and_args(hand)
    pos = {i: k for k, i in enumerate(order)}
    seat_pos = {hand._seats[i]: pos[i] for i in order}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = cls.create_state(automations(), *args)
        if log is not None:
            state = _Recorder(state, log)
        holes: dict[int, list] = {}
        boards: list = []

        def pump() -> None:
            while True:
                if state.can_deal_hole():
                    k = state.hole_dealee_index
                    cards = holes.get(k)
                    if not cards:
                        return
                    take = _street_count(state, k, cards)
                    state.deal_hole([pk_card(c) for c in cards[:take]])
                    del cards[:take]
                elif state.can_deal_board() and boards:
                    state.deal_board([pk_card(c) for c in boards.pop(0)])
                else:
                    return

        for e in hand.events:
            t, d = e["type"], e["data"]
            if t == "CardsDealt":
                for seat, cs in d["cards"]:
                    holes.setdefault(seat_pos[seat], []).extend(cs)
            elif t == "BoardDealt":
                boards.append(d["cards"])
            elif t == "PlayerDrew":
                pump()
                state.stand_pat_or_discard([pk_card(c) for c in d["discarded"]])
                holes.setdefault(seat_pos[d["seat"]], []).extend(d["cards"])
                continue
            elif t in ("PlayerFolded", "PlayerChecked", "PlayerCalled", "PlayerBet",
                       "PlayerRaised", "BringInPosted"):
                pump()
                if t == "PlayerFolded":
                    state.fold()
                elif t in ("PlayerChecked", "PlayerCalled"):
                    state.check_or_call()
                elif t == "BringInPosted":
                    state.post_bring_in()
                else:
                    state.complete_bet_or_raise_to(d["to"])
            pump()
        pump()
    return state._state if log is not None else state


def _street_count(state: Any, k: int, cards: Sequence[int]) -> int:
    """How many cards pokerkit deals player ``k`` at this point of the street."""
    street = state.street
    if street is None:
        return len(cards)
    if any(street.hole_dealing_statuses):
        # a draw street deals the discarded count; a dealing street its statuses
        if street.draw_status:
            return len(cards)
        return len(street.hole_dealing_statuses)
    return len(cards)


def pokerkit_stacks(hand: Hand) -> dict[int, int]:
    """Final stacks pokerkit reaches on the same hand, by our seat."""
    state = replay_in_pokerkit(hand)
    _, _, order = game_and_args(hand)
    return {hand._seats[i]: state.stacks[k] for k, i in enumerate(order)}
