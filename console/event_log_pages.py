"""The event log for compliance (issue 23 item 4): browse by stream, type, person, table and
gaming day with the API's selector and keyset paging
(:func:`casino.eventstore.selectors.events_page`, scoped as ``/api/v1/events/`` is: the
caller's property, every property for a group-wide officer), each event as its sentence;
a stream's history; and the chain's state: ``verify_events``'s checks run on demand
(POST; they only read) and the newest digest with its signature status (DESIGN §3)."""

from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import urlencode

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from casino.eventstore import selectors
from casino.eventstore.digests import (
    DigestReport,
    DigestUnavailable,
    digest_check,
    digests_page,
    verify_digests,
)
from casino.eventstore.verify import verify_chain
from casino.roles import Role
from console.history import sentence
from console.middleware import refusal
from console.registry import NavItem, nav, page

#: events on one page of the browser
PAGE_SIZE = 50
#: the filters, as the query string names them
FILTERS = ("stream_id", "type", "person", "table", "gaming_day")


def _refused(request: HttpRequest) -> HttpResponse | None:
    if not request.console.has(Role.COMPLIANCE):
        return refusal(request, "The event log needs the compliance role.")
    return None


def _filters(request: HttpRequest) -> tuple[dict[str, str], dict[str, str]]:
    """The filters given, and a sentence for each one that is not valid."""
    given = {k: request.GET.get(k, "").strip() for k in FILTERS}
    problems = {k: f"The {k.replace('_', ' ')} filter cannot hold a NUL character."
                for k, v in given.items() if "\x00" in v}  # PostgreSQL's text cannot either
    if given["gaming_day"] and "gaming_day" not in problems:
        try:
            date.fromisoformat(given["gaming_day"])
        except ValueError:
            problems["gaming_day"] = "Give the gaming day as a date, such as 2026-11-25."
    return given, problems


def _from_position(request: HttpRequest) -> int:
    try:
        value = int(request.GET.get("from_position", "1"))
    except ValueError:
        return 1
    return value if 0 < value < 2**63 else 1


def _rows(events: list[dict]) -> list[dict[str, Any]]:
    return [{"event": e, "sentence": sentence(e)} for e in events]


def event_log(request: HttpRequest) -> HttpResponse:
    refused = _refused(request)
    if refused:
        return refused
    given, problems = _filters(request)
    start = _from_position(request)
    events: list[dict] = []
    if not problems:
        events = selectors.events_page(
            actor=request.console.actor, from_position=start, limit=PAGE_SIZE,
            stream_id=given["stream_id"] or None, event_type=given["type"] or None,
            person=given["person"] or None, table=given["table"] or None,
            gaming_day=given["gaming_day"] or None)
    next_url = ""
    if len(events) == PAGE_SIZE:
        query = {k: v for k, v in given.items() if v}
        query["from_position"] = str(events[-1]["position"] + 1)
        next_url = "/console/events/?" + urlencode(query)
    context = {"events": _rows(events), "given": given, "problems": problems,
               "next_url": next_url, "first_page": start == 1,
               "group_wide": request.console.actor.group_wide}
    # htmx asks for the results only (Wagtail's results_only): the filters stay as typed
    template = ("console/compliance/_event_results.html" if getattr(request, "htmx", False)
                else "console/compliance/event_log.html")
    return render(request, template, context, status=400 if problems else 200)


def stream_history(request: HttpRequest, stream_id: str) -> HttpResponse:
    refused = _refused(request)
    if refused:
        return refused
    actor = request.console.actor
    if "\x00" in stream_id or not selectors.stream_visible(actor=actor, stream_id=stream_id):
        raise Http404("no such stream")  # another property's stream is not disclosed
    start = _from_position(request)
    events = selectors.events_page(actor=actor, from_position=start, limit=PAGE_SIZE,
                                   stream_id=stream_id)
    next_url = ""
    if len(events) == PAGE_SIZE:
        next_url = f"/console/events/stream/{stream_id}/?from_position={events[-1]['position'] + 1}"
    return render(request, "console/compliance/stream.html", {
        "stream_id": stream_id, "events": _rows(events), "next_url": next_url})


# --- the chain's state -------------------------------------------------------------------

def _cache_key(request: HttpRequest) -> str:
    actor = request.console.actor
    return "console:verify_events:" + ("all" if actor.group_wide
                                       else actor.property.licence_number)


def _newest_digest() -> dict[str, Any]:
    """The newest digest and whether its signature (and the log) still match it, as
    ``/api/v1/digests/`` and ``verify_events`` judge it (:func:`digest_check`)."""
    try:
        page_, total = digests_page(limit=1)
    except DigestUnavailable as exc:
        return {"unavailable": str(exc)}
    if not page_:
        return {"digest": None, "total": total}
    digest = page_[0]
    try:
        problem = digest_check(digest)
    except DigestUnavailable as exc:
        problem = f"cannot be checked: {exc}"
    return {"digest": digest, "total": total, "problem": problem}


def _verify(request: HttpRequest) -> dict[str, Any]:
    """What ``manage.py verify_events`` checks: every stream's chain and every seal, then
    every digest. ``count`` counts the caller's property's events (every property's for a
    group-wide officer), as the API's chain check does; a break anywhere is reported."""
    actor = request.console.actor
    chain = verify_chain(property=None if actor.group_wide else actor.property.licence_number)
    try:
        digests = verify_digests()
    except DigestUnavailable as exc:
        digests = DigestReport(False, 0, 0, None, f"digests cannot be checked: {exc}")
    return {"chain": chain, "digests": digests, "ok": chain.ok and digests.ok,
            "at": timezone.now(), "by": actor.username}


@require_http_methods(["GET", "POST"])
def verification(request: HttpRequest) -> HttpResponse:
    refused = _refused(request)
    if refused:
        return refused
    result = None
    if request.method == "POST":
        result = _verify(request)
        # the last result is kept in the cache, not the database: a check appends nothing
        cache.set(_cache_key(request), result, timeout=7 * 24 * 3600)
    else:
        result = cache.get(_cache_key(request))
    context = {"result": result, "newest": _newest_digest(), "just_run": request.method == "POST"}
    template = ("console/compliance/_verification_result.html"
                if request.method == "POST" and getattr(request, "htmx", False)
                else "console/compliance/verification.html")
    return render(request, template, context)


page("events/", event_log, name="events")
page("events/verification/", verification, name="events-verification")
page("events/stream/<str:stream_id>/", stream_history, name="events-stream")
nav(NavItem(group="Audit", label="Event log", url="/console/events/",
            roles=(Role.COMPLIANCE,), order=10))
nav(NavItem(group="Audit", label="Chain and digests", url="/console/events/verification/",
            roles=(Role.COMPLIANCE,), order=20))
