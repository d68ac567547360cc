"""The poker room floor (``/console/poker/``, issue 23 item 4): every poker table's seats,
players, stakes and who is away. One link per seat: a vacant seat's "Seat a player" (the
declared form, the table and seat filled in, cash at the table or chips from the cage
chosen in it), a seated player's name (the seat's page, ``/console/poker/tables/<id>/
seats/<n>/``, with add-on, sit out or in, step away and return, move, leave: each only
if the viewer's roles may take it, ``console.registry.offer``; poker_room.services.seats,
637a.8(a)-(b)). Each table's block (its facts and its seats' rows) is made as a string in
Python: 80 tables of 10 seats are one loop, not 80 template inclusions and 800 rows of
template tags (``bench_console``).

Read from the read models in a fixed number of queries whatever the number of tables (the
tables, their seats as tuples, their poker rows, the rules in force per game): no query per table.
The stakes are worded as the room board words them (poker_room.board.selectors.stakes).

A poker table's console page shows the same block (a panel, tables.console_panels)."""

from __future__ import annotations

import uuid
from collections import defaultdict
from html import escape
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe

from casino.actors import Actor
from casino.domain.money import format_money
from casino.roles import Role
from casino.scoping import property_rows
from casino.templatetags.casino_display import dollars
from console.registry import offer
from poker_room.board.selectors import stakes
from poker_room.domain.contributions import posted_funds
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


def seat_actions(actor: Actor, table: GameTable, seat: Seat | None, n: int
                 ) -> list[dict[str, str]]:
    """The forms for seat ``n``, prefilled with the table and the seat; only the steps
    the seat's state admits and the viewer's roles may take (``console.registry.offer``:
    the declaration's roles, the API's; 637a.8(a)-(b))."""
    pk = table.pk
    if seat is None:
        if table.status != TableStatus.OPEN:
            return []
        # 637a.8(b)(2)-(3): cash at the table or chips from the cage, chosen in the form
        link = offer(actor, "Seat a player", "seat_player", pk, seat=n)
        return [link] if link else []
    admitted = _BY_STATUS.get(seat.status, set())
    out = []
    for name, words in SEAT_STEPS:
        if name in admitted:
            # a move is the player leaving here with the stakes, then seated at the new
            # table with those chips ("chips from the cage" there): no service moves in
            # one step
            extra = {"move": "1"} if words == "Move" else {}
            link = offer(actor, words, name, pk, seat=n, **extra)
            if link:
                out.append(link)
    return out


def seat_url(table_id: Any, n: int) -> str:
    return reverse("console:poker_seat", args=[table_id, n])


#: a stand-in id, reversed once per page to get a route's prefix (no reverse per row)
_SAMPLE = uuid.UUID(int=0)


def _prefix(name: str, *more: Any) -> str:
    """The URL of page ``name`` up to the id: ``/console/poker/hands/``."""
    return reverse(f"console:{name}", args=[_SAMPLE, *more]).split(str(_SAMPLE))[0]


#: a seat as the floor reads it (``values_list``: no model per seat)
_SEAT_FIELDS = ("table_id", "seat", "player_name", "stack_cents", "status", "covered_cents")


def _seat_row(n: int, s: tuple | None, button: bool, open_: bool, name: str,
              seat_form: str | None, seats_page: str) -> str:
    """One seat's row of the floor as HTML (escaped here: 800 seats are not 800
    template renderings): its number, the player (a link to the seat's page) or, vacant,
    "Seat a player" (the form, the table and seat filled in, when offered), the stakes
    and the status. ``name`` is the table's name escaped, ``seat_form`` the seat form's
    URL for the table (escaped; None when not offered), ``seats_page`` the prefix of the
    table's seats' pages (escaped)."""
    head = f'<th scope="row">{n}{" <small>(button)</small>" if button else ""}</th>'
    if s is None:
        if seat_form and open_:
            who = (f'<a href="{seat_form}?seat={n}" aria-label="Seat a player: seat {n} at '
                   f'{name}">Seat a player</a>')
        else:
            who = "Empty"
        return (f'<tr class="vacant">{head}<td>{who}</td><td>—</td>'
                f'<td>{"Open" if open_ else "Closed"}</td></tr>')
    _, _, player_name, stack, status, covered = s
    player = escape(player_name or "Anonymous player")
    words = STATUS_WORDS.get(status, status).capitalize()
    if status == SeatStatus.AWAY:
        words += f": {format_money(covered)} covered"
    return (f'<tr>{head}<td><a href="{seats_page}{n}/" aria-label="{player}: seat {n} at '
            f'{name}">{player}</a></td><td>{format_money(stack)}</td>'
            f'<td>{escape(words)}</td></tr>')


def _box_facts(o: dict | None, p: PokerTable | None) -> list[str]:
    """637a.2(e): the jackpot box registered for each fund, and each fund the rules pay
    into that has none here (its hands pay nothing into it), escaped."""
    boxes = (p.jackpot_boxes if p else None) or {}
    out = [f"jackpot box {escape(b['box'])} ({escape(f)})" for f, b in sorted(boxes.items())]
    missing = [f for f in posted_funds(o or {}) if f not in boxes]
    if missing:
        out.append(f"no jackpot box for {escape(', '.join(missing))}: no contributions")
    return out


def _house_procedures(o: dict | None) -> list[str]:
    """637a.18(s): the Rules Submission's own irregularity procedures, as the floor reads
    them beside the chapter's (escaped; none when the submission adds none)."""
    text = (o or {}).get("irregularity_procedures")
    if not text:
        return []
    # one paragraph per line as written (the page's policy allows no inline style)
    paragraphs = "".join(f"<p>{escape(line)}</p>" for line in text.splitlines()
                         if line.strip())
    return ['<details class="house-procedures"><summary>House irregularity procedures '
            f"(637a.18(s))</summary>\n{paragraphs}</details>"]


def _table_html(t: GameTable, game: str, stakes_words: str, o: dict | None, count: int,
                seats: dict[int, tuple], p: PokerTable | None, seat_form: str | None,
                urls: dict[str, str]) -> str:
    """One poker table's block of the floor (and of its page's panel) as HTML, escaped
    here: its game, stakes, buy-in, seats taken, hand in progress, who is away (their
    stakes covered, 637a.8(a)) and the seats' table. Its heading is the page's."""
    pk = t.pk
    name = escape(t.name)
    open_ = t.status == TableStatus.OPEN
    facts = [escape(game), escape(stakes_words)]
    if o and "buy_in_minimum_cents" in o:
        facts.append(f"buy-in {dollars(o['buy_in_minimum_cents'])} to "
                     f"{dollars(o['buy_in_maximum_cents'])}")
    if p and p.kill_active:
        facts.append("Kill in force")
    facts += _box_facts(o, p)
    facts.append(f"{len(seats)} of {count} seats taken" if open_ else "closed")
    facts.append(f'<a href="{urls["hand"]}{p.current_hand_id}/">hand in progress</a>'
                 if p and p.current_hand_id else "between hands")
    dealt = p.hands_dealt if p else 0
    facts.append(f"{dealt} hand{'' if dealt == 1 else 's'} dealt")
    out = [f"<p>{' · '.join(facts)}</p>"]
    out += _house_procedures(o)
    away = [s for n, s in sorted(seats.items()) if s[4] == SeatStatus.AWAY]
    if away:
        out.append("<p><strong>Away:</strong> " + "; ".join(
            f"seat {s[1]}{f' ({escape(s[2])})' if s[2] else ''}, stakes "
            f"{format_money(s[5])} covered" for s in away) + "</p>")
    seats_page = escape(urls["seat"] + f"{pk}/seats/")
    button = p.button_seat if p else None
    rows = "\n".join(_seat_row(n, seats.get(n), button == n, open_, name, seat_form,
                               seats_page) for n in range(1, count + 1))
    out.append(
        f'<div class="table-scroll" tabindex="0" role="region" aria-labelledby="seats-{pk}">\n'
        f'<table class="seats">\n<caption id="seats-{pk}">Seats at {name}</caption>\n'
        '<thead><tr><th scope="col">Seat</th><th scope="col">Player</th>'
        '<th scope="col">Stakes</th><th scope="col">Status</th></tr></thead>\n'
        f"<tbody>\n{rows}\n</tbody>\n</table>\n</div>")
    return "\n".join(out)


def floor_tables(actor: Actor, tables: list[GameTable] | None = None
                 ) -> list[dict[str, Any]]:
    """Each poker table of the actor's property (or ``tables``) with its block of HTML
    (``html``: game, stakes, seats, players, who is away) and its figures. Three queries
    plus one per game in play for any number of tables (the seats as tuples, not
    models)."""
    if tables is None:
        tables = list(_poker_tables(actor))
    ids = [t.pk for t in tables]
    seated: dict[Any, dict[int, tuple]] = defaultdict(dict)
    for s in Seat.objects.filter(table_id__in=ids).values_list(*_SEAT_FIELDS):
        seated[s[0]][s[1]] = s
    poker = {p.table_id: p for p in PokerTable.objects.filter(table_id__in=ids).only(
        "table_id", "button_seat", "kill_active", "hands_dealt", "current_hand_id",
        "jackpot_boxes")}
    urls = {"hand": _prefix("poker_hand"), "seat": _prefix("poker_seat", 1)}
    options: dict[str, Any] = {}
    names: dict[str, str] = {}
    out = []
    for t in tables:
        if t.game not in options:
            rs = rules_in_force(actor.property, t.game)
            options[t.game] = rs.options if rs else None
            names[t.game] = get_table_game(t.game).name
        o = options[t.game]
        count = min(t.positions, o.get("seats") or t.positions) if o else t.positions
        p = poker.get(t.pk)
        seats = seated[t.pk]
        # the seat form's URL for the table, when the viewer may seat (console.registry.offer)
        link = offer(actor, "Seat a player", "seat_player", t.pk)
        words = stakes(o)
        html = _table_html(t, names[t.game], words, o, count, seats, p,
                           escape(link["url"]) if link else None, urls)
        out.append({
            "table": t, "game": names[t.game], "stakes": words,
            "buy_in": (o["buy_in_minimum_cents"], o["buy_in_maximum_cents"])
            if o and "buy_in_minimum_cents" in o else None,
            "html": mark_safe(html), "seat_count": count,  # noqa: S308 (escaped above)
            "taken": len(seats), "hand": p.current_hand_id if p else None})
    return out


def _poker_tables(actor: Actor, game: str | None = None) -> Any:
    rows = property_rows(GameTable.objects.filter(game__in=POKER_GAMES), actor)
    if game:
        rows = rows.filter(game=game)
    return rows.order_by("name")


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
                   "now": timezone.now(), "games": games, "game": game,
                   "table_url": _prefix("table")})


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
    # 637a.2(e): the jackpot box steps, offered to whoever may take them
    boxes = [a for label, name in (("Register a jackpot box", "jackpot_box_register"),
                                   ("Remove a jackpot box", "jackpot_box_remove"))
             if (a := offer(actor, label, name, table.pk))]
    return Panel(title="Seats and stakes", template="poker_room/console/_table_seats_panel.html",
                 context={"t": floor_tables(actor, [table])[0], "box_actions": boxes},
                 order=10)
