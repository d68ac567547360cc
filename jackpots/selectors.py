"""Reads of the jackpot funds, scoped to the caller's property (casino.scoping)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import Count, F, QuerySet, Window

from casino.actors import Actor
from casino.domain.errors import NotFoundError
from casino.domain.gaming_day import gaming_day_of
from casino.scoping import property_rows
from jackpots.domain.periods import period_key
from jackpots.models import (
    BadBeatHit,
    DisplayCheck,
    Fund,
    FundCount,
    FundDay,
    HighHandSlip,
    PayoutBox,
)
from tables.models import GameTable


def table_names(actor: Actor, ids: Any) -> dict[str, str]:
    """Table id (as text) -> the table's name, the caller's property's tables only, one
    query: the lists name each table, not only its id."""
    keys = {str(i) for i in ids if i}
    return {str(pk): name for pk, name in property_rows(
        GameTable.objects.filter(pk__in=keys), actor).values_list("pk", "name")}


def funds(actor: Actor) -> list[dict[str, Any]]:
    """Every fund of the property with its contributions and its tables' payout boxes
    (what each should hold: 637a.15(c), 637a.16(c))."""
    boxes: dict[str, list[PayoutBox]] = {}
    rows = list(property_rows(PayoutBox.objects.all(), actor))
    names = table_names(actor, (b.table_id for b in rows))
    for box in rows:
        box.table_name = names.get(str(box.table_id), "")
        boxes.setdefault(box.fund, []).append(box)
    return [{"fund": f, "boxes": boxes.get(f.name, [])}
            for f in property_rows(Fund.objects.all(), actor)]


def fund(actor: Actor, name: str) -> Fund:
    found = property_rows(Fund.objects.all(), actor).filter(name=name).first()
    if found is None:
        raise NotFoundError(f"no fund {name}", code="fund_not_found")
    return found


def fund_ledger(actor: Actor, name: str, first: date, last: date) -> list[FundDay]:
    """The fund's contributions by table and gaming day, ``first`` to ``last``: the
    finance department's official record (637a.15(e), 637a.16(e))."""
    fund(actor, name)
    rows = list(property_rows(FundDay.objects.all(), actor).filter(
        fund=name, gaming_day__range=(first, last)))
    names = table_names(actor, (r.table_id for r in rows))
    for r in rows:
        r.table_name = names.get(str(r.table_id), "")
    return rows


def hits(actor: Actor, name: str) -> list[BadBeatHit]:
    """The fund's Bad Beat hands, newest first (637a.15(f))."""
    fund(actor, name)
    return list(property_rows(BadBeatHit.objects.all(), actor).filter(fund=name))


def slips(actor: Actor, name: str, period: str | None = None) -> list[HighHandSlip]:
    """The fund's High Hand Tracking Slips, one period or all (637a.16(f))."""
    fund(actor, name)
    rows = property_rows(HighHandSlip.objects.all(), actor).filter(fund=name)
    if period:  # as the answers name it (with its offset) or by its key
        period = period_key(period, time_zone=actor.property.time_zone)
    return list(rows.filter(period=period) if period else rows)


def counts(actor: Actor, name: str) -> list[FundCount]:
    """The fund's box counts, newest first (637a.15(d)-(e), 637a.16(d)-(e)), each with the
    gaming day it was opened in (the day whose open items it belongs to, as finance
    reads it) and its boxes named by their tables."""
    fund(actor, name)
    rows = list(property_rows(FundCount.objects.all(), actor).filter(fund=name))
    prop = actor.property
    names = table_names(actor, (b.get("table_id") for c in rows for b in c.boxes or []))
    for c in rows:
        c.gaming_day = gaming_day_of(c.opened_at, time_zone=prop.time_zone,
                                     start_hour=prop.gaming_day_start_hour)
        c.named_boxes = [{"table_id": b.get("table_id"),
                          "table_name": names.get(str(b.get("table_id")), ""), **b}
                         for b in c.boxes or []]
    return rows


def display_checks(actor: Actor, name: str) -> list[DisplayCheck]:
    """The daily checks of the fund's displayed amount (637a.15(h))."""
    fund(actor, name)
    return list(property_rows(DisplayCheck.objects.all(), actor).filter(fund=name))


# --- what waits for someone (the console's "waiting for me", jackpots.console_tasks) ------
# Each a read of the read models alone (never the event log), scoped to the caller's
# property, in a number of queries that does not grow with the tables or items.

def hits_in(actor: Actor, state: str, limit: int | None = None
            ) -> tuple[int, list[BadBeatHit]]:
    """How many of the property's Bad Beat hands are in ``state`` (``held``,
    ``verified``), and the first ``limit`` of them (all when None), oldest first, each
    with its table's name (``table_name``): two queries (one when there is none)."""
    rows = (property_rows(BadBeatHit.objects.all(), actor).filter(state=state)
            .order_by("qualified_at", "hand_id"))
    if limit is None:
        shown = list(rows)
        total = len(shown)
    else:
        shown = list(rows.annotate(_total=Window(Count("*")))[:max(limit, 1)])
        total = shown[0]._total if shown else 0
        shown = shown[:limit]
    names = table_names(actor, (r.table_id for r in shown)) if shown else {}
    for r in shown:
        r.table_name = names.get(str(r.table_id), "")
    return total, shown


def adjustments_waiting(actor: Actor) -> list[Fund]:
    """Funds whose displayed amount finance began adjusting, waiting for the witness
    (637a.15(h)(1))."""
    return list(property_rows(Fund.objects.all(), actor)
                .filter(adjustment_waiting_cents__isnull=False).order_by("name"))


def awards_owed(actor: Actor) -> QuerySet:
    """High Hand awards made and neither paid nor gone by the posted procedure for the
    uncollected (637a.16(h)-(i)), the soonest to collect first (so the overdue first; an
    award with no time limit last)."""
    return (property_rows(HighHandSlip.objects.all(), actor)
            .filter(award_cents__isnull=False, paid_at__isnull=True, uncollected=False)
            .order_by(F("collect_by").asc(nulls_last=True), "period_start", "slip"))


def counts_open(actor: Actor) -> list[FundCount]:
    """Box counts not yet closed (637a.15(d)-(e), 637a.16(d)-(e)), oldest first."""
    return list(property_rows(FundCount.objects.all(), actor).exclude(state="closed")
                .order_by("opened_at"))
