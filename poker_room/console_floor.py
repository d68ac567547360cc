"""The poker room floor (``/console/poker/``, issue 23 item 4): every poker table's seats,
players, stakes and who is away, with the floor's actions as links to the declared
commands' forms (seat with a cash buy-in or with chips from the cage, add-on, sit out or
in, step away and return, move, leave: poker_room.services.seats, 637a.8(a)-(b)).

Read from the read models in a fixed number of queries whatever the number of tables (the
tables, their seats, their poker rows, the rules in force per game): no query per table.
The stakes are worded as the room board words them (poker_room.board.selectors.stakes).

A poker table's console page shows the same block (a panel, tables.console_panels)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from casino.actors import Actor
from casino.roles import Role
from casino.scoping import property_rows
from console.registry import command_url
from poker_room.board.selectors import stakes
from poker_room.models import PokerTable, Seat, SeatStatus
from tables.console_access import console_page
from tables.console_panels import Panel
from tables.domain.catalogue import POKER_GAMES, get_table_game
from tables.models import GameTable, TableStatus
from tables.selectors import rules_in_force

#: who reads the floor (the players' names are on it): the API's readers of a table's seats
FLOOR_ROLES = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE,
               Role.SECURITY)
#: who is offered the seating actions (poker_room.services.seats.SEATING, FLOOR)
SEATING = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
FLOOR = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)

STATUS_WORDS = {SeatStatus.PLAYING: "playing", SeatStatus.SITTING_OUT: "sitting out",
                SeatStatus.AWAY: "away"}


def _link(name: str, table: Any, label: str, **initial: Any) -> dict[str, str]:
    return {"url": command_url(name, table, **initial), "label": label}


def _seat_actions(actor: Actor, table: GameTable, seat: Seat | None, n: int
                  ) -> list[dict[str, str]]:
    """The forms for seat ``n``, prefilled with the table and the seat; only the actions
    the viewer's roles may take."""
    if not actor.has(*SEATING):
        return []
    pk = table.pk
    if seat is None:
        if table.status != TableStatus.OPEN:
            return []
        # 637a.8(b)(2)-(3): cash at the table is a chip sale; chips come from the cage
        return [_link("seat_player", pk, "Seat: cash buy-in", seat=n, paid_with="cash"),
                _link("seat_player", pk, "Seat: chips from the cage", seat=n,
                      paid_with="chips")]
    out = [_link("chips_add", pk, "Add-on", seat=n)]
    if seat.status == SeatStatus.PLAYING:
        out.append(_link("sit_out", pk, "Sit out", seat=n))
        if actor.has(*FLOOR):
            out.append(_link("step_away", pk, "Step away", seat=n))
    elif seat.status == SeatStatus.SITTING_OUT:
        out.append(_link("sit_in", pk, "Sit in", seat=n))
    elif seat.status == SeatStatus.AWAY and actor.has(*FLOOR):
        out.append(_link("player_return", pk, "Returned", seat=n))
    # a move is the player leaving here with the stakes, then seated at the new table with
    # those chips ("chips from the cage" there): no service moves in one step
    out.append(_link("seat_leave", pk, "Move", seat=n, move="1"))
    out.append(_link("seat_leave", pk, "Leave", seat=n))
    return out


def floor_tables(actor: Actor, tables: list[GameTable] | None = None
                 ) -> list[dict[str, Any]]:
    """Each poker table of the actor's property (or ``tables``) with its seats, players,
    stakes and actions. Four queries plus one per game for any number of tables."""
    if tables is None:
        tables = list(property_rows(GameTable.objects.filter(game__in=POKER_GAMES), actor)
                      .select_related("dealer").order_by("name"))
    ids = [t.pk for t in tables]
    seated: dict[Any, dict[int, Seat]] = defaultdict(dict)
    for s in Seat.objects.filter(table_id__in=ids):
        seated[s.table_id][s.seat] = s
    poker = {p.table_id: p for p in PokerTable.objects.filter(table_id__in=ids)}
    options: dict[str, Any] = {}
    out = []
    for t in tables:
        if t.game not in options:
            rs = rules_in_force(actor.property, t.game)
            options[t.game] = rs.options if rs else None
        o = options[t.game]
        count = min(t.positions, o.get("seats") or t.positions) if o else t.positions
        p = poker.get(t.pk)
        seats = []
        for n in range(1, count + 1):
            s = seated[t.pk].get(n)
            seats.append({"n": n, "seat": s, "actions": _seat_actions(actor, t, s, n),
                          "status": STATUS_WORDS.get(s.status, s.status) if s else "",
                          "button": bool(p and p.button_seat == n)})
        away = [s for s in seated[t.pk].values() if s.status == SeatStatus.AWAY]
        out.append({
            "table": t, "game": get_table_game(t.game).name, "stakes": stakes(o),
            "buy_in": (o["buy_in_minimum_cents"], o["buy_in_maximum_cents"])
            if o and "buy_in_minimum_cents" in o else None,
            "seats": seats, "taken": len(seated[t.pk]), "away": sorted(away, key=lambda s: s.seat),
            "hand": p.current_hand_id if p else None,
            "hands_dealt": p.hands_dealt if p else 0, "kill": bool(p and p.kill_active)})
    return out


@console_page(*FLOOR_ROLES)
def floor_page(request: HttpRequest, actor: Actor) -> HttpResponse:
    return render(request, "poker_room/console/floor.html",
                  {"tables": floor_tables(actor), "now": timezone.now()})


def seats_panel(request: HttpRequest, actor: Actor, table: GameTable) -> Panel | None:
    """A poker table's page shows its seats and hand as the floor does."""
    if not get_table_game(table.game).is_poker or not actor.has(*FLOOR_ROLES):
        return None
    return Panel(title="Seats and stakes", template="poker_room/console/_table_seats_panel.html",
                 context={"t": floor_tables(actor, [table])[0]}, order=10)
