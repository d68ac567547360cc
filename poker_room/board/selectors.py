"""The room board's data (637a.9(c): the games, the limits and the vacant seats may be
announced in the room): every poker table of a property, read in one query per kind.
Never a player's name or phone: the board is for the room's screens."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from django.utils import timezone

from casino.domain.money import format_money
from casino.models import Property
from poker_room.board.registry import board_lists
from poker_room.models import PokerTable, Seat
from tables.domain.catalogue import POKER_GAMES, get_table_game
from tables.models import Deck, DeckState, GameTable, TableStatus
from tables.selectors import rules_in_force

_STRUCTURE = {"fixed-limit": "Fixed limit", "pot-limit": "Pot limit", "no-limit": "No limit"}


def stakes(options: dict[str, Any] | None) -> str:
    """The limits as the table's sign gives them (637a.8(k)), in dollars to the cent as
    every text a person reads (issue 22): "$4.00/$8.00 fixed limit, blinds $2.00/$4.00" or
    "No limit, blinds $1.00/$2.00, minimum bet $2.00"."""
    if not options:
        return "no rules in effect"
    m = format_money
    if options["structure"] == "fixed-limit":
        parts = [f"{m(options['small_bet_cents'])}/{m(options['big_bet_cents'])} fixed limit"]
    else:
        parts = [_STRUCTURE[options["structure"]]]
    if options.get("blinds_cents"):
        parts.append("blinds " + "/".join(m(b) for b in options["blinds_cents"]))
    if options.get("forced_bet_cents"):
        parts.append(f"forced bet {m(options['forced_bet_cents'])}")
    if options.get("ante_cents"):
        parts.append(f"ante {m(options['ante_cents'])}")
    if options.get("minimum_bet_cents"):
        parts.append(f"minimum bet {m(options['minimum_bet_cents'])}")
    return ", ".join(parts)


def room_board(prop: Property, now: datetime | None = None) -> dict[str, Any]:
    """Every poker table of ``prop`` (:func:`board_tables`) and the lists the floor keeps
    (:mod:`poker_room.board.registry`: name, length, the waiting players' initials)."""
    now = now or timezone.now()
    return {"property": prop.name, "at": now.isoformat(), "tables": board_tables(prop, now),
            "lists": board_lists(prop)}


def board_tables(prop: Property, now: datetime | None = None) -> list[dict[str, Any]]:
    """Every poker table of ``prop``: game, stakes, status, seats taken and vacant (none at
    a closed table), the hand in progress, the decks in play and the minutes each has left
    (637a.3(c))."""
    now = now or timezone.now()
    tables = list(GameTable.objects.filter(property=prop, game__in=POKER_GAMES)
                  .order_by("name"))
    ids = [t.pk for t in tables]
    taken: dict[Any, list[int]] = defaultdict(list)
    for table_id, seat in Seat.objects.filter(table_id__in=ids).values_list("table_id",
                                                                            "seat"):
        taken[table_id].append(seat)
    poker = {p.table_id: p for p in PokerTable.objects.filter(table_id__in=ids)}
    decks: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for d in Deck.objects.filter(table_id__in=ids, state=DeckState.IN_PLAY).order_by(
            "entered_play_at"):
        left = None if d.deadline_at is None else max(
            0, int((d.deadline_at - now).total_seconds() // 60))
        decks[d.table_id].append({"colour": d.back_colour, "minutes_left": left,
                                  "change_due": d.change_due})
    rules: dict[str, Any] = {}
    out = []
    for t in tables:
        if t.game not in rules:
            rs = rules_in_force(prop, t.game)
            rules[t.game] = rs.options if rs else None
        options = rules[t.game]
        seats = min(t.positions, options["seats"]) if options else t.positions
        mine = sorted(taken[t.pk])
        p = poker.get(t.pk)
        # a closed table has no seat to offer: the room's rule, in light of 637a.9(c)
        # (the room may announce vacant seats at its tables; one closed has none to fill)
        is_open = t.status == TableStatus.OPEN
        out.append({"id": str(t.pk), "name": t.name, "game_id": t.game,
                    "game": get_table_game(t.game).name,
                    "status": t.status, "stakes": stakes(options), "seats": seats,
                    "taken": mine,
                    "vacant": [n for n in range(1, seats + 1) if n not in mine]
                    if is_open else [],
                    "hand_in_progress": bool(p and p.current_hand_id),
                    "hands_dealt": p.hands_dealt if p else 0,
                    "kill": bool(p and p.kill_active), "decks": decks[t.pk]})
    return out
