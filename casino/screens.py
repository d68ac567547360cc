"""Who may open a page for the room's screens (the poker room board, the jackpot board):
staff logged in with one of the page's roles, or a screen with its display key, which
opens that page for its property and nothing else. The one way every board checks it."""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping

from django.http import HttpRequest, HttpResponse, JsonResponse

from casino.models import Property
from casino.roles import Role, has_role


class Refused(Exception):
    def __init__(self, status: int, code: str, detail: str):
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail

    def problem(self) -> JsonResponse:
        """The refusal as application/problem+json (a board's data endpoint)."""
        return JsonResponse({"type": f"urn:casino:problem:{self.code}", "status": self.status,
                             "code": self.code, "detail": self.detail}, status=self.status,
                            content_type="application/problem+json")


#: the settings that hold the screens' display keys (display key -> licence number)
DISPLAY_KEY_SETTINGS = ("ROOM_BOARD_DISPLAY_KEYS", "JACKPOT_BOARD_DISPLAY_KEYS")


def keyed_property(key: str, keys: Mapping[str, str]) -> Property | None:
    """The property ``key`` is set up for in ``keys`` (compared in constant time)."""
    for known, licence in keys.items():
        if hmac.compare_digest(known.encode(), key.encode()):
            prop = Property.objects.filter(licence_number=licence).first()
            if prop is not None:
                return prop
    return None


def screen_property(request: HttpRequest, keys: Mapping[str, str], roles: tuple[Role, ...],
                    *, what: str, login_next: str) -> Property:
    """The property whose board ``request`` may see: the one its ``?key=`` is set up for
    in ``keys`` (display key -> licence number, compared in constant time), or the
    logged-in staff member's when they hold one of ``roles``. 403 otherwise."""
    key = request.GET.get("key")
    if key:
        prop = keyed_property(key, keys)
        if prop is not None:
            return prop
        raise Refused(403, "display_key_unknown", f"this display key opens no {what}")
    user = request.user
    if not user.is_authenticated:
        raise Refused(403, "not_authenticated", f"log in (/console/login/?next={login_next})"
                                                " or open the board with the screen's key")
    staff = getattr(user, "staff", None)
    if staff is None or not has_role(user, *roles):
        raise Refused(403, "role_required", f"the {what} needs one of the roles: "
                                            + ", ".join(str(r) for r in roles))
    return staff.property


def board_views(*, keys_setting: str, roles: tuple[Role, ...], what: str, login_next: str,
                template: str, refused_template: str, data: Callable[[Property], dict]
                ) -> tuple[Callable[[HttpRequest], HttpResponse],
                           Callable[[HttpRequest], HttpResponse]]:
    """A board's page (rendered with its data, refreshing itself) and its data endpoint,
    both opened by :func:`screen_property` with the display keys of ``keys_setting``.
    The page shows the property's wall clock: it is rendered in the property's zone and
    hands its script the zone (``zone``) to format every time it writes."""
    from django.conf import settings
    from django.shortcuts import render
    from django.utils import timezone
    from django.views.decorators.cache import never_cache

    def property_of(request: HttpRequest) -> Property:
        return screen_property(request, getattr(settings, keys_setting, {}), roles,
                               what=what, login_next=login_next)

    @never_cache
    def page(request: HttpRequest) -> HttpResponse:
        try:
            prop = property_of(request)
        except Refused as r:
            return render(request, refused_template, {"refused": r}, status=r.status)
        # the board's own property's clock (its zone, named, for the page's script too)
        with timezone.override(prop.time_zone):
            return render(request, template, {"board": data(prop), "zone": prop.time_zone,
                                              "key": request.GET.get("key", "")})

    @never_cache
    def data_view(request: HttpRequest) -> HttpResponse:
        try:
            prop = property_of(request)
        except Refused as r:
            return r.problem()
        return JsonResponse(data(prop))

    return page, data_view
