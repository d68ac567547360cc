"""The jackpot fund report: per fund of the property and gaming day, the opening
balance, contributions (§ 637a.15(c), § 637a.16(c)), what the counts took from the
payout boxes to the cage ((d)-(e)), payouts, transfers in and out (§ 637a.15(i)), the
closing balance, and the amount displayed to patrons at the day's end ((b), (h)).

The ledger is the jackpots' own fund report (:func:`jackpots.reports.fund_report`, the
finance department's official record, (e)). The displayed amount at a day's end is the
last ``DisplayedAmountAdjusted`` on the fund's stream recorded on or before that gaming
day (the display changes only by a witnessed adjustment, § 637a.15(h)); blank before the
first. Read only; every read is the caller's property.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from casino.actors import Actor
from casino.eventstore.models import Event
from casino.scoping import property_rows
from finance.reports import Column, Report, register
from jackpots.models import Fund
from jackpots.reports import fund_report

COLUMNS = [
    Column("fund", "Fund", "text"), Column("kind", "Kind", "text"),
    Column("gaming_day", "Gaming day", "date"),
    Column("opening_cents", "Opening balance"),
    Column("contributions_cents", "Contributions"),
    Column("counted_cents", "Counted to the cage"),
    Column("payouts_cents", "Payouts"),
    Column("transfers_in_cents", "Transfers in"),
    Column("transfers_out_cents", "Transfers out"),
    Column("closing_cents", "Closing balance"),
    Column("displayed_cents", "Displayed at the day's end"),
    Column("tables", "Tables contributing", "count"),
]
#: the movements the totals row adds up over every fund and day
MOVEMENTS = ("contributions_cents", "counted_cents", "payouts_cents", "transfers_in_cents",
             "transfers_out_cents")

BASIS = ("Closing balance = opening + contributions + transfers in − payouts − transfers "
         "out (§ 637a.15(c), (g), (i); § 637a.16(c)); counted: what the payout box counts "
         "took to the cage ((d)-(e)); displayed: the amount shown to patrons after the last "
         "witnessed adjustment on or before the day ((h)), blank before the first.")


def _displayed_by_day(fund: Fund) -> list[tuple[str, int]]:
    """``[(gaming day, amount)]`` of the fund's display adjustments, in stream order."""
    events = Event.objects.filter(stream_id=fund.stream_id, type="DisplayedAmountAdjusted"
                                  ).order_by("version").values_list("metadata", "data")
    return [((meta or {}).get("gaming_day", ""), data["amount_cents"])
            for meta, data in events]


def _displayed_at(adjusted: list[tuple[str, int]], day: str) -> int | None:
    shown = None
    for when, amount in adjusted:
        if when and when <= day:
            shown = amount
    return shown


@register("jackpot-funds")
def jackpot_funds(actor: Actor, first: date, last: date, params: dict[str, str]) -> Report:
    rows: list[dict[str, Any]] = []
    opening = closing = 0
    for fund in property_rows(Fund.objects.all(), actor).order_by("name"):
        ledger = fund_report(actor, fund.name, first, last)
        adjusted = _displayed_by_day(fund)
        for r in ledger["rows"]:
            rows.append({**r, "fund": fund.name, "kind": fund.get_kind_display(),
                         "displayed_cents": _displayed_at(adjusted, r["gaming_day"])})
        if ledger["rows"]:
            opening += ledger["rows"][0]["opening_cents"]
            closing += ledger["rows"][-1]["closing_cents"]
    totals = None
    if rows:
        totals = {"fund": "All funds", "kind": "", "gaming_day": "", "opening_cents": opening,
                  "closing_cents": closing, "displayed_cents": None, "tables": None,
                  **{k: sum(r[k] for r in rows) for k in MOVEMENTS}}
    return Report(name="jackpot-funds", title="Jackpot funds", first=first, last=last,
                  columns=COLUMNS, rows=rows, basis=BASIS, totals=totals, notes=[
                      "Totals: the movements of every fund and day; the opening balance "
                      "of the funds on the first day and the closing balance on the last."])
