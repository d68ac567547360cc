"""Finance's pages for people (server-rendered, printable): the list of reports and each
report for a span of gaming days, with its CSV one click away. Staff logged in with a
role that reads finance; a bad span or an unknown report is a page that says why."""

from __future__ import annotations

from datetime import timedelta

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.cache import never_cache

from casino.domain.errors import DomainError
from casino.roles import has_role
from casino.screens import Refused
from finance import reports
from finance.reports.chart import svg
from finance.services.common import READERS
from jackpots.reports import gaming_day_span

REFUSED = "finance/refused.html"


def _reader(request: HttpRequest) -> HttpResponse | None:
    user = request.user
    if not user.is_authenticated or getattr(user, "staff", None) is None \
            or not has_role(user, *READERS):
        r = Refused(403, "role_required", "finance's reports need a login with one of the "
                    "roles: " + ", ".join(str(x) for x in READERS))
        return render(request, REFUSED, {"refused": r, "login": "/console/login/?next="
                                         + request.path}, status=403)
    return None


@never_cache
def report_list(request: HttpRequest) -> HttpResponse:
    refused = _reader(request)
    if refused:
        return refused
    from casino.actors import actor_of

    actor = actor_of(request.user)
    day = actor.gaming_day()
    return render(request, "finance/reports.html", {
        "names": reports.names(), "today": day.isoformat(),
        "yesterday": (day - timedelta(days=1)).isoformat()})


@never_cache
def report_page(request: HttpRequest, name: str) -> HttpResponse:
    refused = _reader(request)
    if refused:
        return refused
    from casino.actors import actor_of

    actor = actor_of(request.user)
    try:
        first, last = gaming_day_span(request.GET, actor.gaming_day())
        report = reports.build(name, actor, first, last, request.GET.dict())
    except DomainError as e:
        r = Refused(e.status, e.code, e.message)
        return render(request, REFUSED, {"refused": r}, status=e.status)
    query = request.GET.copy()
    query["as"] = "csv"
    return render(request, "finance/report.html", {
        "report": report, "chart": mark_safe(svg(report.chart)),  # noqa: S308  built here
        "csv": f"/api/v1/finance/reports/{name}/?{query.urlencode()}"})


@never_cache
def behind_page(request: HttpRequest, table_id: str, day: str) -> HttpResponse:
    """The rounds and hands behind a table's gaming-day figures, printable
    (:mod:`finance.behind`)."""
    refused = _reader(request)
    if refused:
        return refused
    from casino.actors import actor_of
    from finance.behind import table_day_behind
    from finance.services.common import day_of

    actor = actor_of(request.user)
    try:
        behind = table_day_behind(actor, table_id, day_of(actor, day))
    except DomainError as e:
        r = Refused(e.status, e.code, e.message)
        return render(request, REFUSED, {"refused": r}, status=e.status)
    return render(request, "finance/behind.html", {"b": behind})
