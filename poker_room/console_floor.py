"""The poker room floor (``/console/poker/``, issue 23 item 4): every poker table's seats,
players, stakes and who is away. One link per seat: a vacant seat's "Seat a player" (the
declared form, the table and seat filled in, cash at the table or chips from the cage
chosen in it), a seated player's name (the seat's page, ``/console/poker/tables/<id>/
seats/<n>/``, with add-on, sit out or in, step away and return, move, leave: each only
if the viewer's roles may take it, ``casino.declared``; poker_room.services.seats,
637a.8(a)-(b)). The seats' rows are made as strings in Python: 80 tables of 10 seats
are one loop, not 800 template renderings (``bench_console``).

Read from the read models in a fixed number of queries whatever the number of tables (the
tables, their seats, their poker rows, the rules in force per game): no query per table.
The stakes are worded as the room board words them (poker_room.board.selectors.stakes).

A poker table's console page shows the same block (a panel, tables.console_panels)."""

from __future__ import annotations

from collections import defaultdict
from html import escape
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe

from casino.actors import Actor
from casino.declared import declared
from casino.domain.money import format_money
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

STATUS_WORDS = {SeatStatus.PLAYING: "playing", SeatStatus.SITTING_OUT: "sitting out",
                SeatStatus.AWAY: "away"}


#: a seated player's steps, in the order the seat page offers them: (command, words)
SEAT_STEPS = (("chips_add", "Add-on"), ("sit_out", "Sit out"), ("sit_in", "Sit in"),
              ("step_away", "Step away"), ("player_return", "Returned"),
              ("seat_leave", "Move"), ("seat_leave", "Leave"))
#: which steps a seat's status admits (the services refuse the others)
_BY_STATUS = {SeatStatus.PLAYING: {"chips_add", "sit_out", "step_away", "seat_leave"},
              SeatStatus.SITTING_OUT: {"chips_add", "sit_in", "seat_leave"},
              SeatStatus.AWAY: {"chips_add", "player_return", "seat_leave"}}


def _may(actor: Actor, name: str) -> bool:
    """Whether the viewer's roles may take command ``name`` (its declaration's roles,
    the API's and the form's)."""
    return actor.has(*declared(name).roles)


def seat_actions(actor: Actor, table: GameTable, seat: Seat | None, n: int
                 ) -> list[dict[str, str]]:
    """The forms for seat ``n``, prefilled with the table and the seat; only the steps
    the seat's state admits and the viewer's roles may take (637a.8(a)-(b))."""
    pk = table.pk
    if seat is None:
        if table.status != TableStatus.OPEN or not _may(actor, "seat_player"):
            return []
        # 637a.8(b)(2)-(3): cash at the table or chips from the cage, chosen in the form
        return [{"url": command_url("seat_player", pk, seat=n), "label": "Seat a player"}]
    admitted = _BY_STATUS.get(seat.status, set())
    out = []
    for name, words in SEAT_STEPS:
        if name in admitted and _may(actor, name):
            # a move is the player leaving here with the stakes, then seated at the new
            # table with those chips ("chips from the cage" there): no service moves in
            # one step
            extra = {"move": "1"} if words == "Move" else {}
            out.append({"url": command_url(name, pk, seat=n, **extra), "label": words})
    return out


def seat_url(table_id: Any, n: int) -> str:
    return reverse("console:poker_seat", args=[table_id, n])


def _seat_row(t: GameTable, name: str, urls: tuple[str, str], s: Seat | None, n: int,
              button: bool, may_seat: bool) -> str:
    """One seat's row of the floor as HTML (escaped here: 800 seats are not 800
    template renderings): its number, the player (a link to the seat's page) or, vacant,
    "Seat a player" (the form, the table and seat filled in), the stakes and the status.
    ``name`` is the table's name escaped, ``urls`` the seat form's and the seats' pages'
    URLs for the table (escaped)."""
    head = f'<th scope="row">{n}{" <small>(button)</small>" if button else ""}</th>'
    if s is None:
        if may_seat and t.status == TableStatus.OPEN:
            url = f"{urls[0]}?seat={n}"
            who = (f'<a href="{url}" aria-label="Seat a player: seat {n} at {name}">'
                   f'Seat a player</a>')
        else:
            who = "Empty"
        state = "Open" if t.status == TableStatus.OPEN else "Closed"
        return f'<tr class="vacant">{head}<td>{who}</td><td>—</td><td>{state}</td></tr>'
    player = escape(s.player_name or "Anonymous player")
    who = (f'<a href="{urls[1]}{n}/" aria-label="{player}: seat {n} at {name}">'
           f'{player}</a>')
    status = STATUS_WORDS.get(s.status, s.status).capitalize()
    if s.status == SeatStatus.AWAY:
        status += f": {format_money(s.covered_cents)} covered"
    return (f'<tr>{head}<td>{who}</td><td>{format_money(s.stack_cents)}</td>'
            f'<td>{escape(status)}</td></tr>')


def floor_tables(actor: Actor, tables: list[GameTable] | None = None
                 ) -> list[dict[str, Any]]:
    """Each poker table of the actor's property (or ``tables``) with its seats' rows,
    players, stakes and who is away. Four queries plus one per game for any number of
    tables."""
    if tables is None:
        tables = list(_poker_tables(actor))
    ids = [t.pk for t in tables]
    may_seat = _may(actor, "seat_player")
    seated: dict[Any, dict[int, Seat]] = defaultdict(dict)
    for s in Seat.objects.filter(table_id__in=ids).only(
            "table_id", "seat", "player_name", "stack_cents", "status", "covered_cents"):
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
        # the prefixes of the seat form's and the seat pages' URLs, made once per table
        urls = (escape(command_url("seat_player", t.pk)), escape(seat_url(t.pk, 1)[:-2]))
        name = escape(t.name)
        rows = "\n".join(
            _seat_row(t, name, urls, seated[t.pk].get(n), n,
                      bool(p and p.button_seat == n), may_seat) for n in range(1, count + 1))
        away = [s for s in seated[t.pk].values() if s.status == SeatStatus.AWAY]
        out.append({
            "table": t, "game": get_table_game(t.game).name, "stakes": stakes(o),
            "buy_in": (o["buy_in_minimum_cents"], o["buy_in_maximum_cents"])
            if o and "buy_in_minimum_cents" in o else None,
            "rows": mark_safe(rows), "seat_count": count,  # noqa: S308 (escaped above)
            "taken": len(seated[t.pk]), "away": sorted(away, key=lambda s: s.seat),
            "hand": p.current_hand_id if p else None,
            "hands_dealt": p.hands_dealt if p else 0, "kill": bool(p and p.kill_active)})
    return out


def _poker_tables(actor: Actor, game: str | None = None) -> Any:
    rows = property_rows(GameTable.objects.filter(game__in=POKER_GAMES), actor)
    if game:
        rows = rows.filter(game=game)
    return rows.select_related("dealer").order_by("name")


@console_page(*FLOOR_ROLES)
def floor_page(request: HttpRequest, actor: Actor) -> HttpResponse:
    """The floor: one link per seat (the seat's page, or the seat form of a vacant seat),
    optionally one game's tables (``?game=holdem``)."""
    game = request.GET.get("game") or ""
    if game not in POKER_GAMES:
        game = ""
    games = sorted(((g, get_table_game(g).name) for g in POKER_GAMES), key=lambda g: g[1])
    return render(request, "poker_room/console/floor.html",
                  {"tables": floor_tables(actor, list(_poker_tables(actor, game))),
                   "now": timezone.now(), "games": games, "game": game})


@console_page(*FLOOR_ROLES)
def seat_page(request: HttpRequest, actor: Actor, pk: Any, n: int) -> HttpResponse:
    """One seat of a poker table: the player, the stakes, the status, and the steps the
    viewer may take (add-on, sit out or in, step away or return, move, leave: each only
    when the seat's state admits it and the viewer's roles may take it, 637a.8(a)-(b)).
    Another property's table, a table that is not poker, or a seat it has not: 404."""
    table = _poker_tables(actor).filter(pk=pk).first()
    if table is None:
        raise Http404("no such poker table")
    t = floor_tables(actor, [table])[0]
    if not 1 <= n <= t["seat_count"]:
        raise Http404("no such seat")
    seat = Seat.objects.filter(table_id=table.pk, seat=n).first()
    return render(request, "poker_room/console/seat.html", {
        "t": t, "table": table, "n": n, "seat": seat,
        "status": STATUS_WORDS.get(seat.status, seat.status) if seat else "",
        "actions": seat_actions(actor, table, seat, n)})


def seats_panel(request: HttpRequest, actor: Actor, table: GameTable) -> Panel | None:
    """A poker table's page shows its seats and hand as the floor does."""
    if not get_table_game(table.game).is_poker or not actor.has(*FLOOR_ROLES):
        return None
    return Panel(title="Seats and stakes", template="poker_room/console/_table_seats_panel.html",
                 context={"t": floor_tables(actor, [table])[0]}, order=10)
