"""The room board page and its data: for the poker room's screens and the supervisor's
desk (637a.9(c)). Opened by staff logged in with a room role, or by a screen with its
display key (``ROOM_BOARD_DISPLAY_KEYS``), which shows this board and nothing else."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from casino.models import Property
from casino.roles import Role
from casino.screens import Refused, screen_property
from poker_room.board.selectors import room_board

#: staff who may open the board with their own login
BOARD_ROLES = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE,
               Role.FINANCE, Role.SECURITY)


def _property_of(request: HttpRequest) -> Property:
    return screen_property(request, getattr(settings, "ROOM_BOARD_DISPLAY_KEYS", {}),
                           BOARD_ROLES, what="room board", login_next="/poker/board/")


@never_cache
def board_page(request: HttpRequest) -> HttpResponse:
    try:
        prop = _property_of(request)
    except Refused as r:
        return render(request, "poker_room/board_refused.html", {"refused": r},
                      status=r.status)
    return render(request, "poker_room/board.html",
                  {"board": room_board(prop), "key": request.GET.get("key", "")})


@never_cache
def board_data(request: HttpRequest) -> Any:
    try:
        prop = _property_of(request)
    except Refused as r:
        return r.problem()
    return JsonResponse(room_board(prop))
