"""Pages show the viewer's property's wall clock (issue 22): the template filters of
``casino_display`` read the zone Django has active, and this middleware activates it for
each page — the logged-in staff member's property's zone, or for a room screen opened
with its display key (``casino.screens``) that screen's property's zone; otherwise
``settings.PROPERTY_TIME_ZONE``.

The API (``/api/``) is left alone: DRF's ``DateTimeField`` writes an instant in the
active zone, and the API's timestamps stay ISO 8601 as they are. A page the API serves
(the table sign, ``?format=html``) activates its table's property's zone itself."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

API_PREFIX = "/api/"


def viewer_time_zone(request: HttpRequest) -> str:
    """The zone of the property whose pages ``request`` reads."""
    user = getattr(request, "user", None)
    staff = getattr(user, "staff", None) if user is not None and user.is_authenticated \
        else None
    if staff is not None:
        return staff.property.time_zone
    key = request.GET.get("key")
    if key:
        from casino.screens import DISPLAY_KEY_SETTINGS, keyed_property

        for name in DISPLAY_KEY_SETTINGS:
            prop = keyed_property(key, getattr(settings, name, {}))
            if prop is not None:
                return prop.time_zone
    return settings.PROPERTY_TIME_ZONE


class DisplayZoneMiddleware:
    """Activates :func:`viewer_time_zone` for every request outside the API."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(API_PREFIX):
            return self.get_response(request)
        with timezone.override(viewer_time_zone(request)):
            return self.get_response(request)
