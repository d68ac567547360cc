"""The zone a page is shown in (issue 22, casino.display_zone): the viewer's property's,
for a logged-in staff member or a room screen opened with its display key; the
configured property zone otherwise; and never for the API, whose timestamps stay as DRF
writes them (an active zone would move DRF's DateTimeField output off UTC)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils import timezone

from casino.display_zone import DisplayZoneMiddleware

pytestmark = pytest.mark.django_db

CHICAGO = "America/Chicago"


@pytest.fixture
def chicago(make_staff: Callable) -> Any:
    """A second property, in Chicago (not the configured New York), with a floorperson."""
    from casino.services import property_register

    prop = property_register(licence_number="PA-TEST-CHI", name="Chicago Casino",
                             system="test", time_zone=CHICAGO)
    return make_staff("floorperson", property=prop)


def _zone_seen(path: str, user: Any, **params: str) -> str:
    """The zone active while the view behind the middleware runs."""
    request = RequestFactory().get(path, params)
    request.user = user
    seen: list[str] = []

    def view(_request: Any) -> HttpResponse:
        seen.append(timezone.get_current_timezone_name())
        return HttpResponse("")

    DisplayZoneMiddleware(view)(request)
    return seen[0]


def test_a_page_is_shown_in_the_staff_members_propertys_zone(chicago: Any) -> None:
    assert _zone_seen("/finance/reports/", chicago) == CHICAGO


def test_a_screen_opened_with_its_key_is_shown_in_its_propertys_zone(
        chicago: Any, settings: Any) -> None:
    """The room board (§ 637a.9(c)) on a screen: nobody logged in, the display key."""
    settings.ROOM_BOARD_DISPLAY_KEYS = {"chicago-screen": "PA-TEST-CHI"}
    assert _zone_seen("/poker/board/", AnonymousUser(), key="chicago-screen") == CHICAGO


def test_nobody_known_is_shown_the_configured_zone(db: None, settings: Any) -> None:
    settings.PROPERTY_TIME_ZONE = "America/Denver"
    assert _zone_seen("/finance/reports/", AnonymousUser(), key="no-such-key") \
        == "America/Denver"


def test_the_api_keeps_the_servers_zone(chicago: Any) -> None:
    """The API's timestamps are not moved to the viewer's zone (settings.TIME_ZONE)."""
    assert _zone_seen("/api/v1/tables/", chicago) == "UTC"


def test_the_zone_is_put_back_after_the_page(chicago: Any) -> None:
    _zone_seen("/finance/reports/", chicago)
    assert timezone.get_current_timezone_name() == "UTC"


def test_what_django_prints_itself_is_the_wall_clock_with_the_zone() -> None:
    """The admin's dates and times (Django's own formats, casino.formats): 11:10 UTC on
    Nov 26, 2026 is 6:10 AM in New York, on Eastern Standard Time."""
    from datetime import UTC, datetime

    from django.template import Context, Template

    moment = datetime(2026, 11, 26, 11, 10, tzinfo=UTC)
    with timezone.override("America/New_York"):
        shown = Template("{{ moment }} | {{ moment|time }} | {{ moment|date }}").render(
            Context({"moment": moment}))
    assert shown == "Nov 26, 2026, 6:10 AM EST | 6:10 AM EST | Nov 26, 2026"
