"""The live games feed's page and JSON (issue 24, item 6; 637a.9(c)): no login, one per
property, named by its licence number in the URL (an unknown one is 404).

The JSON is what a web site, an app or a TV reads: served from the per-process cache of
:func:`poker_floor.feed.feed_body` with a strong ETag (a hash of the body), answered 304
to a matching ``If-None-Match``, ``Cache-Control: public, no-cache`` (any cache may keep
it but asks again, with the ETag, before each use: never staler than the server's own
cache, ``FEED_CACHE_MS``, at most a second) and readable from any origin (it holds
nothing private). Every client address (behind a trusted proxy, the client's own) may
make ``FEED_RATE_PER_MINUTE`` requests a minute of the page and the JSON together, counted
across every process in the shared cache (:mod:`casino.rate_limits`; 429 ``rate_limited``
with ``Retry-After`` past it; the default, 600, lets ten pages behind one address ask
every second, as ``live.js`` does). The hit path reads no database.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from casino.api.problems import PROBLEM_CONTENT_TYPE, problem
from casino.models import Property
from casino.rate_limits import client_address, counted, seconds_left
from poker_floor.feed import feed_body, wait_words

#: the JSON's caching headers: any cache may keep it but revalidates it (the ETag) before
#: each use, so no client cache adds to the server's staleness; any origin may read it
FEED_HEADERS = {"Cache-Control": "public, no-cache", "Access-Control-Allow-Origin": "*"}


def _rate_limited(request: HttpRequest) -> HttpResponse | None:
    """429 ``rate_limited`` for an address past ``FEED_RATE_PER_MINUTE`` this minute."""
    limit = settings.FEED_RATE_PER_MINUTE
    if counted(f"feed-rate:{client_address(request)}", 60) <= limit:
        return None
    return JsonResponse(
        problem(429, "rate_limited", f"more than {limit} requests a minute from this "
                                     "address; wait and ask again"),
        status=429, content_type=PROBLEM_CONTENT_TYPE,
        headers={"Retry-After": str(seconds_left(60))})


def _matches(header: str | None, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (or is ``*``): the weak comparison RFC 9110
    asks of a GET's ``If-None-Match``."""
    if not header:
        return False
    tags = [t.strip() for t in header.split(",")]
    return "*" in tags or etag in (t.removeprefix("W/") for t in tags)


def _not_found(licence: str) -> JsonResponse:
    return JsonResponse(problem(404, "not_found", f"no property with licence {licence!r}"),
                        status=404, content_type=PROBLEM_CONTENT_TYPE)


@require_safe
def feed_json(request: HttpRequest, licence: str) -> HttpResponse:
    """``/poker/live/<licence>/feed.json``: the games running, their stakes, open tables
    and vacant seats, each list's length (no name, phone or e-mail)."""
    limited = _rate_limited(request)
    if limited is not None:
        return limited
    body = feed_body(licence)
    if body is None:
        return _not_found(licence)
    headers = {"ETag": body.etag, **FEED_HEADERS}
    if _matches(request.headers.get("If-None-Match"), body.etag):
        response: HttpResponse = HttpResponseNotModified(headers=headers)
        return response
    return HttpResponse(body.json, content_type="application/json", headers=headers)


@require_safe
def live_page(request: HttpRequest, licence: str) -> HttpResponse:
    """``/poker/live/<licence>/``: the feed as a page for people (and a TV), on the
    property's wall clock, kept up to date by ``poker_floor/live.js`` from the JSON."""
    limited = _rate_limited(request)
    if limited is not None:
        return limited
    body = feed_body(licence)
    prop = Property.objects.filter(licence_number=licence).only(
        "name", "time_zone", "licence_number").first() if body is not None else None
    if body is None or prop is None:
        raise Http404("no such property")
    with timezone.override(prop.time_zone):
        # the cached data stays as it is: the page's wording goes on copies
        games = [{**g, "wait": wait_words(g["waitlist"])} for g in body.data["games"]]
        return render(request, "poker_floor/live.html", {
            "feed": {**body.data, "games": games}, "licence": licence,
            "zone": prop.time_zone, "now": timezone.now(), "kiosk": settings.FLOOR_KIOSK})
