"""The jackpot funds' records page (``/console/jackpots/``, issue 23 item 5): each fund's
recent Bad Beat hands, High Hand qualifying periods and payout-box counts, each linked to
its printable (jackpots.console_pages: the Bad Beat payout record of 637a.15(f)-(g), the
High Hand Tracking Slip of 637a.16(f), the box count of 637a.15(d)-(e) and
637a.16(d)-(e)). Without it the printables were reachable only by typing their address.

Read models only, scoped to the viewer's property; three queries whatever the number of
funds or rows (the newest :data:`SHOWN` of each kind). The hands and periods are for the
roles that read a fund through the API (``FUND_READERS``), the counts for those that read
its counts (``COUNT_READERS``: also the dealer and security, who sign a count)."""

from __future__ import annotations

from django.db.models import Count, Max, Min
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from casino.actors import Actor
from casino.scoping import property_rows
from jackpots.api.views import COUNT_READERS, FUND_READERS
from jackpots.console_pages import printable
from jackpots.models import BadBeatHit, FundCount, HighHandSlip
from jackpots.selectors import table_names

#: how many of each kind the page lists, newest first
SHOWN = 20
PAGE_ROLES = COUNT_READERS


def _hits(actor: Actor) -> list[dict]:
    rows = list(property_rows(BadBeatHit.objects.all(), actor).order_by("-qualified_at")[:SHOWN])
    names = table_names(actor, (h.table_id for h in rows)) if rows else {}
    return [{"hit": h, "table": names.get(str(h.table_id), ""),
             "url": reverse("console:print-bad-beat",
                            kwargs={"fund": h.fund, "hand_id": str(h.hand_id)})} for h in rows]


def _periods(actor: Actor) -> list[dict]:
    rows = (property_rows(HighHandSlip.objects.all(), actor).values("fund", "period")
            .annotate(start=Min("period_start"), end=Max("period_end"), lines=Count("pk"))
            .order_by("-start")[:SHOWN])
    return [{**r, "url": reverse("console:print-high-hand-slip",
                                 kwargs={"fund": r["fund"], "period": r["period"]})}
            for r in rows]


def _counts(actor: Actor) -> list[dict]:
    rows = property_rows(FundCount.objects.all(), actor).order_by("-opened_at")[:SHOWN]
    return [{"count": c, "url": reverse("console:print-jackpot-count",
                                        kwargs={"fund": c.fund, "count_id": str(c.count_id)})}
            for c in rows]


@printable(PAGE_ROLES)
def jackpots_page(request: HttpRequest, actor: Actor) -> HttpResponse:
    reads_funds = actor.has(*FUND_READERS)
    return render(request, "jackpots/console/funds.html", {
        "reads_funds": reads_funds, "shown": SHOWN,
        "hits": _hits(actor) if reads_funds else [],
        "periods": _periods(actor) if reads_funds else [],
        "counts": _counts(actor)})
