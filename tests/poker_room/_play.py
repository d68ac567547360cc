"""A poker hand played through the services by a dealer who checks and calls to the end
(for tests that need hands recorded, not any particular outcome)."""

from __future__ import annotations

import random
from typing import Any

from casino.actors import Actor
from poker_room.demo import jackpot_boxes_ready
from poker_room.models import Seat
from poker_room.services import hands, seats
from tables.demo import deck_ready
from tables.selectors import decks_in_play


def poker_table_ready(table: Any, crew: dict[str, Actor], players: int = 3) -> None:
    """Two decks in play, a jackpot box for each fund (637a.2(e)) and ``players`` seated
    with $100."""
    for colour in ("red", "blue")[len(decks_in_play(table)):]:
        deck_ready(table, crew["dealer"], crew["floor"], colour, batch=colour)
    jackpot_boxes_ready(table, crew["floor"])
    for seat in range(1, players + 1):
        if not Seat.objects.filter(table=table, seat=seat).exists():
            seats.seat_player(actor=crew["dealer"], table_id=table.pk, seat=seat,
                              buy_in_cents=10_000, paid_with="chips")


def play_hand(table: Any, crew: dict[str, Actor], *, seed: int = 1,
              batched: bool = False) -> hands.PokerHand:
    """One hand from the engine's deal (a shuffled deck), every player checking or
    calling, one command at a time or (``batched``) a betting round at a time."""
    from tables.models import GameTable

    table = GameTable.objects.get(pk=table.pk)
    dealer = crew["dealer"]
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    ph = hands.hand_start(actor=dealer, table_id=table.pk, deck_id=_next_deck(table),
                          deck=deck)
    while not ph.hand.is_complete:
        batch = []
        hand = ph.hand
        while not hand.is_complete and hand.to_act is not None and len(batch) < 20:
            command = _check_or_call(hand)
            batch.append(command)
            hand.execute(command)
            if not batched:
                break
        ph = hands.hand_command(actor=dealer, round_id=ph.round_id, commands=batch,
                                expected_version=ph.version)
    return ph


def _next_deck(table: Any) -> Any:
    from tables.domain.decks import expected_deck

    pair = [str(d.pk) for d in decks_in_play(table)]
    return expected_deck(pair, str(table.last_deck_id) if table.last_deck_id else None) \
        or pair[0]


def _check_or_call(hand: Any) -> dict[str, Any]:
    legal = hand.legal_actions()
    acts = legal["actions"]
    if "draw" in acts:
        return {"type": "draw", "seat": legal["seat"], "discard": []}
    if "bring_in" in acts:
        return {"type": "act", "seat": legal["seat"], "action": "bring_in"}
    return {"type": "act", "seat": legal["seat"],
            "action": "check" if "check" in acts else "call"}
