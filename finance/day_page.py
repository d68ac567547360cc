"""A gaming day at a glance for finance and the cage (printable): what is still open
(boxes not counted, counts not signed, slips not signed, rounds and hands not closed),
each table's figures expected from the events beside what was counted, the exceptions
with their explanations and sign-offs, and after the close the adjustments since."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from casino.actors import actor_of
from casino.domain.errors import DomainError
from casino.screens import Refused
from finance import selectors
from finance.pages import REFUSED, _reader
from finance.services.common import day_of


@never_cache
def gaming_day_page(request: HttpRequest, day: str) -> HttpResponse:
    refused = _reader(request)
    if refused:
        return refused
    actor = actor_of(request.user)
    try:
        rec = selectors.reconciliation(actor, day_of(actor, day))
    except DomainError as e:
        return render(request, REFUSED, {"refused": Refused(e.status, e.code, e.message)},
                      status=e.status)
    return render(request, "finance/gaming_day.html", {"rec": rec})
