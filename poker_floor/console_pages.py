"""The poker floor's console pages (console.registry.page; issue 24, items 1, 2 and 9).

* ``/console/poker/lists/``: every list of the property — a waitlist while a table of its
  game is open, an interest list otherwise — with each waiting player in calling order
  (position, initials; the floor's roles also the name, phone and e-mail), the time listed
  on the property's clock and the calls missed, and the open calls with their table, seat
  and deadline. The steps are links to the declared commands' forms, each offered only to
  a viewer whose roles may take it (``console.registry.offer``). ``results/`` is the same lists alone, polled (htmx, 204 while
  unchanged), as the console's other lists are.
* ``/console/poker/lists/<id>/``: one list (and its ``results/``).
* ``/console/poker/lists/<id>/fairness/?day=YYYY-MM-DD``: the fairness record of the list's
  gaming day, worked out from the list's events (:mod:`poker_floor.fairness`).

The floor's roles read and work the lists; dealers, compliance and security read them
with initials only (no name, phone or e-mail is ever sent to them).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from casino.actors import Actor
from casino.declared import declared
from casino.scoping import property_row
from console.registry import offer, page
from console.waiting import fragment_stamp
from poker_floor import commands, move_commands  # noqa: F401  (the declarations offered here)
from poker_floor import fairness as fair
from poker_floor import selectors
from poker_floor.models import Waitlist
from poker_floor.services.common import FLOOR
from tables.console_access import console_page

LISTS_URL = "/console/poker/lists/"

#: a list's own steps: (words, declared command); each offered when the viewer may
#: ("Call the next player" is offered per vacant seat, its table and seat filled in)
LIST_STEPS = (("Add a player", "player_list"), ("Table change", "table_change_request"),
              ("Open a table by lot", "table_open_by_lot"),
              ("Break a table by lot", "table_break_by_lot"),
              ("Set when a table is suggested", "waitlist_configure"))
#: a must-move game's steps (the list has a main table) and the step that sets one up
MUST_MOVE_STEPS = (("Move the must-move player", "must_move"),
                   ("End the must-move game", "must_move_clear"))
MUST_MOVE_SET = (("Set up a must-move game", "must_move_set"),)
#: a waiting player's steps
ENTRY_STEPS = (("Call this player", "call_player"), ("Take off the list", "player_delist"))
#: an open call's steps
CALL_STEPS = (("Seat the player", "call_seat"), ("Time out", "call_timeout"),
              ("Cancel the call", "call_cancel"))


#: command name -> its body fields
_FIELDS: dict[str, frozenset[str]] = {}


def _body_fields(name: str) -> frozenset[str]:
    """The body fields of the declared command ``name`` (KeyError: not declared, a step
    naming a command that does not exist)."""
    if name not in _FIELDS:
        _FIELDS[name] = frozenset(declared(name).input().fields)
    return _FIELDS[name]


def offered(actor: Actor, label: str, name: str, ids: dict[str, Any]) -> dict[str, str] | None:
    """The link to the form of the declared command ``name`` for this list, entry or call,
    or None when it is not the viewer's to take. ``ids`` are the
    service's keywords (``waitlist_id``, ``entry_id``, ``call_id``): the one the
    declaration takes in its URL is the form's id, the others are filled in where the
    form has such a field."""
    fields = _body_fields(name)
    decl = declared(name)
    body = {v: k for k, v in decl.rename.items()}   # service keyword -> body field
    pk = None
    initial = {}
    for keyword, value in ids.items():
        if keyword == decl.id_arg:
            pk = value
        elif body.get(keyword, keyword) in fields:
            initial[body.get(keyword, keyword)] = value
    if decl.id_arg is not None and pk is None:
        return None
    return offer(actor, label, name, pk, **initial)


def _steps(actor: Actor, steps: tuple[tuple[str, str], ...], ids: dict[str, Any]
           ) -> list[dict[str, str]]:
    return [link for label, name in steps if (link := offered(actor, label, name, ids))]


def _decorated(actor: Actor, views: list[selectors.ListView]) -> list[selectors.ListView]:
    """Each list, player and call with the steps the viewer may take (``.steps``)."""
    for v in views:
        w = str(v.waitlist.pk)
        v.steps = _steps(actor, LIST_STEPS + (MUST_MOVE_STEPS if v.waitlist.main_table
                                              else MUST_MOVE_SET), {"waitlist_id": w})
        v.seat_calls = [link for table, name, seat in v.vacant if (link := offered(
            actor, f"Call the next player to {name}, seat {seat}", "call_next",
            {"waitlist_id": w, "table_id": table, "seat": seat}))]
        # a call out of turn: the first vacant seat filled in (the form may change it)
        first = {"table_id": v.vacant[0][0], "seat": v.vacant[0][2]} if v.vacant else {}
        for row in v.waiting:
            row.steps = [] if row.called else _steps(
                actor, ENTRY_STEPS, {"waitlist_id": w, "entry_id": str(row.entry.pk), **first})
        for c in v.calls:
            c.steps = _steps(actor, CALL_STEPS, {"call_id": str(c.call.pk), "waitlist_id": w})
        v.any_entry_steps = any(row.steps for row in v.waiting)
        v.any_call_steps = any(c.steps for c in v.calls)
    return views


def _context(actor: Actor, waitlist_id: Any = None) -> dict[str, Any]:
    views = _decorated(actor, selectors.lists(actor, waitlist_id=waitlist_id))
    return {"lists": views, "personal": actor.has(*FLOOR),
            "fairness": actor.has(*fair.FAIRNESS_READERS), "one": waitlist_id is not None,
            "now": timezone.now()}


def _results(request: HttpRequest, actor: Actor, url: str, waitlist_id: Any = None
             ) -> tuple[str, str]:
    """The lists' results (the polled part) as HTML and its stamp."""
    body = render_to_string("poker_floor/console/_lists_body.html",
                            _context(actor, waitlist_id), request=request)
    stamp = fragment_stamp(body)
    html = render_to_string("poker_floor/console/_lists_results.html", {
        "body": body, "stamp": stamp, "url": url, "seconds": settings.CONSOLE_POLL_SECONDS},
        request=request)
    return html, stamp


def _fragment(request: HttpRequest, actor: Actor, url: str, waitlist_id: Any = None
              ) -> HttpResponse:
    """The results alone for the poller: 204 while they are what the page shows
    (``If-None-Match`` or ``?since=``)."""
    html, stamp = _results(request, actor, url, waitlist_id)
    seen = request.headers.get("If-None-Match", "").strip('"') or request.GET.get("since", "")
    if seen == stamp:
        return HttpResponse(status=204, headers={"ETag": f'"{stamp}"'})
    return HttpResponse(html, headers={"ETag": f'"{stamp}"', "Cache-Control": "no-store"})


def _waitlist(actor: Actor, pk: Any) -> Waitlist:
    return property_row(Waitlist.objects, actor, pk, what="waitlist")


@console_page(*selectors.LIST_READERS)
def lists_page(request: HttpRequest, actor: Actor) -> HttpResponse:
    """Every list of the property, its players in calling order and its open calls."""
    url = reverse("console:poker_lists_results")
    html, _ = _results(request, actor, url)
    return render(request, "poker_floor/console/lists.html", {
        "results": html, "personal": actor.has(*FLOOR),
        # a game's list is opened here (the game chosen on the form)
        "open_list": offer(actor, "Open a list for a game", "waitlist_open")})


@console_page(*selectors.LIST_READERS)
def lists_results(request: HttpRequest, actor: Actor) -> HttpResponse:
    return _fragment(request, actor, reverse("console:poker_lists_results"))


@console_page(*selectors.LIST_READERS)
def list_page(request: HttpRequest, actor: Actor, pk: Any) -> HttpResponse:
    """One list: its players in calling order, its open calls, its steps."""
    w = _waitlist(actor, pk)
    url = reverse("console:poker_list_results", args=[w.pk])
    html, _ = _results(request, actor, url, w.pk)
    return render(request, "poker_floor/console/list.html", {
        "waitlist": w, "results": html, "personal": actor.has(*FLOOR),
        "fairness": actor.has(*fair.FAIRNESS_READERS)})


@console_page(*selectors.LIST_READERS)
def list_results(request: HttpRequest, actor: Actor, pk: Any) -> HttpResponse:
    w = _waitlist(actor, pk)
    return _fragment(request, actor, reverse("console:poker_list_results", args=[w.pk]), w.pk)


@console_page(*fair.FAIRNESS_READERS)
def fairness_page(request: HttpRequest, actor: Actor, pk: Any) -> HttpResponse:
    """The list's fairness record for a gaming day (``?day=YYYY-MM-DD``, today's gaming
    day without one), optionally one player's steps (``?entry=<id>``): "I was skipped"
    answered by their "passed" steps, each naming who was called instead and why."""
    w = _waitlist(actor, pk)
    entry = request.GET.get("entry") or None
    try:
        day = fair.day_of(request.GET.get("day"), actor)
    except fair.FairnessDayError as exc:
        return render(request, "poker_floor/console/fairness.html", {
            "waitlist": w, "problem": exc.message, "day_text": request.GET.get("day", "")},
            status=400)
    record = fair.fairness_record(w, day, actor=actor, entry=entry)
    player = None
    if entry:
        player = next((s.player for s in record["steps"] if s.player and s.player.entry == entry),
                      None)
    return render(request, "poker_floor/console/fairness.html", {
        "waitlist": w, "record": record, "day": day, "day_text": day.isoformat(),
        "entry": entry, "player": player,
        "url": reverse("console:poker_list_fairness", args=[w.pk])})


page("poker/lists/", lists_page, name="poker_lists")
page("poker/lists/results/", lists_results, name="poker_lists_results")
page("poker/lists/<uuid:pk>/", list_page, name="poker_list")
page("poker/lists/<uuid:pk>/results/", list_results, name="poker_list_results")
page("poker/lists/<uuid:pk>/fairness/", fairness_page, name="poker_list_fairness")
