"""Compliance's pages of the players required to leave a game (637a.18(c)): every notice
no compliance officer has acknowledged yet, oldest first, a page at a time. A notice
leaves these pages only when it is acknowledged, however old it is; the console's home
shows the oldest few and links here."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from casino.actors import Actor
from poker_room.console_tasks import removal_notice
from poker_room.services import seats
from tables.console_access import console_page

#: notices on a page
PER_PAGE = 25


@console_page(*seats.COMPLIANCE)
def removals_page(request: HttpRequest, actor: Actor) -> HttpResponse:
    """The page ``?page=`` of the notices not yet acknowledged (a number out of range
    shows the last page, anything else the first)."""
    pages = Paginator(seats.removals_to_acknowledge(actor), PER_PAGE)
    shown = pages.get_page(request.GET.get("page"))
    item = removal_notice(actor)
    return render(request, "poker_room/console/removals.html", {
        "page": shown, "items": [item(e) for e in shown.object_list],
        "total": pages.count})
