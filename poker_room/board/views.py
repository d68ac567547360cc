"""The room board page and its data: for the poker room's screens and the supervisor's
desk (637a.9(c)). Opened by staff logged in with a room role, or by a screen with its
display key (``ROOM_BOARD_DISPLAY_KEYS``), which shows this board and nothing else."""

from __future__ import annotations

import hmac
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from casino.models import Property
from casino.roles import Role, has_role
from poker_room.board.selectors import room_board

#: staff who may open the board with their own login
BOARD_ROLES = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE,
               Role.FINANCE, Role.SECURITY)


class Refused(Exception):
    def __init__(self, status: int, code: str, detail: str):
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail


def _property_of(request: HttpRequest) -> Property:
    key = request.GET.get("key")
    if key:
        for known, licence in getattr(settings, "ROOM_BOARD_DISPLAY_KEYS", {}).items():
            if hmac.compare_digest(known.encode(), key.encode()):
                prop = Property.objects.filter(licence_number=licence).first()
                if prop is not None:
                    return prop
        raise Refused(403, "display_key_unknown", "this display key opens no board")
    user = request.user
    if not user.is_authenticated:
        raise Refused(403, "not_authenticated", "log in (/api-auth/login/?next=/poker/board/)"
                                                " or open the board with the screen's key")
    staff = getattr(user, "staff", None)
    if staff is None or not has_role(user, *BOARD_ROLES):
        raise Refused(403, "role_required", "the room board needs a poker room role")
    return staff.property


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
        return JsonResponse({"type": f"urn:casino:problem:{r.code}", "status": r.status,
                             "code": r.code, "detail": r.detail}, status=r.status,
                            content_type="application/problem+json")
    return JsonResponse(room_board(prop))
