"""The jackpot board page and its data: for the room's TVs, opened with a screen's display
key (``JACKPOT_BOARD_DISPLAY_KEYS``, which shows this board and nothing else), or by staff
logged in with a room role."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from casino.models import Property
from casino.roles import Role
from casino.screens import Refused, screen_property
from jackpots.board.selectors import jackpot_board

BOARD_ROLES = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE,
               Role.FINANCE, Role.SECURITY, Role.CASHIER)


def _property_of(request: HttpRequest) -> Property:
    return screen_property(request, getattr(settings, "JACKPOT_BOARD_DISPLAY_KEYS", {}),
                           BOARD_ROLES, what="jackpot board", login_next="/jackpots/board/")


@never_cache
def board_page(request: HttpRequest) -> HttpResponse:
    try:
        prop = _property_of(request)
    except Refused as r:
        return render(request, "jackpots/board_refused.html", {"refused": r},
                      status=r.status)
    return render(request, "jackpots/board.html",
                  {"board": jackpot_board(prop), "key": request.GET.get("key", "")})


@never_cache
def board_data(request: HttpRequest) -> Any:
    try:
        prop = _property_of(request)
    except Refused as r:
        return r.problem()
    return JsonResponse(jackpot_board(prop))
