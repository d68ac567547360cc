"""The variance and exception report: every exception of the span, open and closed, with
its explanation and sign-offs.

* Finance's exceptions (``finance.models.FinanceException``): a drop or tray variance
  beyond the tolerance, or negative poker revenue (always an exception, with a written
  investigation), found at the gaming day's close — or after it, when a count accepted
  late shows one (an adjustment, flagged "after the close"). Explained by finance, signed
  off by a second person of finance or compliance. Each row links to the rounds and hands
  behind its table's day.
* The jackpot payout box counts with a variance (``jackpots.models.FundCount``,
  637a.15(e), 637a.16(e)): what the boxes should hold against what the cashier counted,
  explained by finance and signed off by a second person; by the gaming day the count was
  opened.

Reads only; nothing is written.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from casino.actors import Actor
from casino.domain.gaming_day import gaming_day_bounds, gaming_day_of
from casino.domain.wall_clock import iso_with_offset
from casino.scoping import property_rows
from finance import selectors
from finance.behind import page_link
from finance.reports import Column, Report, register
from jackpots.models import FundCount
from tables.models import GameTable

COLUMNS = [
    Column("kind", "Kind", "text"),
    Column("day", "Gaming day", "date"),
    Column("table", "Table", "text"),
    Column("figure", "Figure", "text"),
    Column("expected_cents", "Expected"),
    Column("counted_cents", "Counted"),
    Column("variance_cents", "Variance"),
    Column("state", "State", "text"),
    Column("explanation", "Explanation", "text"),
    Column("explained_by", "Explained by", "text"),
    Column("explained_at", "Explained at", "time"),
    Column("signed_off_by", "Signed off by", "text"),
    Column("signed_off_at", "Signed off at", "time"),
    Column("after_close", "After the close", "text"),
]

FINANCE, JACKPOT_BOX = "finance", "jackpot box"
AFTER_CLOSE = "after the close"
#: a count's state (jackpots.domain.fund) as an exception's: verified with a variance is
#: open; a closed count with a variance was signed off
JACKPOT_STATES = {"verified": "open", "explained": "explained", "closed": "signed_off"}
OPEN = "open"


def _finance_rows(actor: Actor, first: date, last: date) -> list[dict[str, Any]]:
    tz = actor.property.time_zone
    return [{
        "kind": FINANCE, "day": e.gaming_day.isoformat(), "table": e.table.name,
        "figure": e.figure, "expected_cents": e.expected_cents,
        "counted_cents": e.counted_cents, "variance_cents": e.variance_cents,
        "state": e.state, "explanation": e.explanation, "explained_by": e.explained_by,
        "explained_at": iso_with_offset(e.explained_at, time_zone=tz)
        if e.explained_at else None,
        "signed_off_by": e.signed_off_by,
        "signed_off_at": iso_with_offset(e.signed_off_at, time_zone=tz)
        if e.signed_off_at else None,
        "after_close": AFTER_CLOSE if e.after_close else "",
        "behind": page_link(e.table_id, e.gaming_day)}
        for e in selectors.exceptions(actor, first, last)]


def _step(count: FundCount, name: str) -> dict[str, Any]:
    """The count's last step of ``name`` (its person and time), or nothing."""
    return next((s for s in reversed(count.steps or []) if s.get("step") == name), {})


def _jackpot_rows(actor: Actor, first: date, last: date) -> list[dict[str, Any]]:
    prop = actor.property
    start, _ = gaming_day_bounds(first, time_zone=prop.time_zone,
                                 start_hour=prop.gaming_day_start_hour)
    _, end = gaming_day_bounds(last, time_zone=prop.time_zone,
                               start_hour=prop.gaming_day_start_hour)
    counts = list(property_rows(FundCount.objects.all(), actor)
                  .filter(opened_at__gte=start, opened_at__lt=end,
                          variance_cents__isnull=False).exclude(variance_cents=0)
                  .order_by("opened_at"))
    ids = {b.get("table_id") for c in counts for b in (c.boxes or [])}
    tables_of = property_rows(GameTable.objects.filter(pk__in=[i for i in ids if i]), actor)
    names = {str(k): v for k, v in tables_of.values_list("pk", "name")}
    rows = []
    for c in counts:
        explained, signed = _step(c, "CountVarianceExplained"), _step(c, "CountVarianceSignedOff")
        tables = sorted(names.get(str(b.get("table_id")), str(b.get("table_id")))
                        for b in (c.boxes or []))
        rows.append({
            "kind": JACKPOT_BOX,
            "day": gaming_day_of(c.opened_at, time_zone=prop.time_zone,
                                 start_hour=prop.gaming_day_start_hour).isoformat(),
            "table": ", ".join(tables) or f"({c.place})",
            "figure": f"{c.fund} payout boxes ({c.place} count)",
            "expected_cents": c.expected_cents, "counted_cents": c.counted_cents,
            "variance_cents": c.variance_cents,
            "state": JACKPOT_STATES.get(c.state, c.state), "explanation": c.explanation,
            "explained_by": explained.get("by", ""),
            "explained_at": _at(explained, prop.time_zone),
            "signed_off_by": signed.get("by", ""),
            "signed_off_at": _at(signed, prop.time_zone),
            "after_close": ""})
    return rows


def _at(step: dict[str, Any], time_zone: str) -> str | None:
    return iso_with_offset(datetime.fromisoformat(step["at"]), time_zone=time_zone) \
        if step.get("at") else None


@register("exceptions")
def exceptions_report(actor: Actor, first: date, last: date, params: dict[str, str]
                      ) -> Report:
    """Every exception of ``first..last``: finance's and the jackpot box counts'."""
    rows = sorted(_finance_rows(actor, first, last) + _jackpot_rows(actor, first, last),
                  key=lambda r: (r["day"], r["kind"], r["table"]))
    still_open = sum(r["state"] != "signed_off" for r in rows)
    notes = [f"{len(rows)} exception(s), {still_open} not signed off yet."]
    if any(r["after_close"] for r in rows):
        notes.append("An exception found after the close came with a count accepted after "
                     "the gaming day was closed: an adjustment to the frozen figures.")
    notes.append("Variance = counted − expected (negative: a shortage). Each is explained "
                 "by finance and signed off by a second person, finance or compliance, "
                 "never the one who explained it. Jackpot payout box counts: 637a.15(e), "
                 "637a.16(e).")
    return Report(
        name="exceptions", title="Variance and exception report", first=first, last=last,
        columns=COLUMNS, rows=rows,
        basis="Every variance beyond the tolerance and every negative poker revenue found "
              "by the reconciliation, and every jackpot payout box count with a variance, "
              "open and closed, with explanations and sign-offs.",
        totals={"kind": "total", "variance_cents": sum(r["variance_cents"] for r in rows),
                "state": f"{still_open} open"} if rows else None,
        notes=notes)
