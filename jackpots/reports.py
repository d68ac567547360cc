"""The fund ledger report (637a.15(e), 637a.16(e): the finance department's official
record): for each gaming day of a span, what came into the fund (contributions by its
tables, transfers from discontinued funds), what left it (payouts, transfers out), what
the counts took from the boxes to the cage, and the balance at the day's start and end.
Read from the projections and the fund's own events; nothing is written."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.db.models import Count, Sum

from casino.actors import Actor
from casino.domain.errors import DomainError
from casino.eventstore.models import Event
from casino.scoping import property_rows
from jackpots.models import Fund, FundDay
from jackpots.selectors import fund

#: the longest span one ledger read covers
MAX_DAYS = 366


class BadRange(DomainError):
    code = "invalid_gaming_day"


def gaming_day_span(params: Any, default: date) -> tuple[date, date]:
    """The ``first`` and ``last`` gaming days asked for (YYYY-MM-DD; ``first`` defaults
    to ``default``, ``last`` to ``first``): last on or after first, at most
    :data:`MAX_DAYS` on; 400 ``invalid_gaming_day`` naming the field otherwise."""
    def day(key: str, fallback: date) -> date:
        text = params.get(key)
        if not text:
            return fallback
        try:
            return date.fromisoformat(text)
        except (TypeError, ValueError):
            raise BadRange(f"{key} is a date, YYYY-MM-DD", field=key) from None

    first = day("first", default)
    last = day("last", first)
    if last < first or last - first > timedelta(days=MAX_DAYS):
        raise BadRange(f"last is on or after first, at most {MAX_DAYS} days on",
                       field="last")
    return first, last


def _by_day(events: Any, amount: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in events:
        day = (e.metadata or {}).get("gaming_day")
        if day:
            out[day] = out.get(day, 0) + int(e.data.get(amount) or 0)
    return out


def fund_report(actor: Actor, name: str, first: date, last: date) -> dict[str, Any]:
    row = fund(actor, name)
    stream = row.stream_id
    own = list(Event.objects.filter(stream_id=stream, type__in=[
        "BadBeatPaid", "HighHandPaid", "FundDiscontinued", "CountVerified"]))
    paid = _by_day([e for e in own if e.type in ("BadBeatPaid", "HighHandPaid")],
                   "amount_cents")
    out_ = _by_day([e for e in own if e.type == "FundDiscontinued"], "amount_cents")
    counted = _by_day([e for e in own if e.type == "CountVerified"], "counted_cents")
    # the property's fund streams by name (an index lookup each: a prefix match scans
    # the whole log where the database's collation is not C)
    streams = [f.stream_id for f in Fund.objects.filter(property_id=row.property_id)]
    incoming = Event.objects.filter(type="FundDiscontinued", stream_id__in=streams)
    in_ = _by_day([e for e in incoming if e.data.get("transfer_to") == name], "amount_cents")
    days = property_rows(FundDay.objects.all(), actor).filter(fund=name)
    contributed = {d["gaming_day"].isoformat(): d["cents"] for d in
                   days.values("gaming_day").annotate(cents=Sum("contributions_cents"))}
    tables = {d["gaming_day"].isoformat(): d["n"] for d in
              days.values("gaming_day").annotate(n=Count("table_id"))}
    balance = 0
    for day in sorted(set(contributed) | set(paid) | set(out_) | set(in_)):
        if day >= first.isoformat():
            break
        balance += contributed.get(day, 0) + in_.get(day, 0) - paid.get(day, 0) \
            - out_.get(day, 0)
    rows = []
    day = first
    while day <= last:
        k = day.isoformat()
        opening = balance
        balance += contributed.get(k, 0) + in_.get(k, 0) - paid.get(k, 0) - out_.get(k, 0)
        rows.append({"gaming_day": k, "opening_cents": opening,
                     "contributions_cents": contributed.get(k, 0),
                     "transfers_in_cents": in_.get(k, 0), "payouts_cents": paid.get(k, 0),
                     "transfers_out_cents": out_.get(k, 0), "closing_cents": balance,
                     "counted_cents": counted.get(k, 0), "tables": tables.get(k, 0)})
        day += timedelta(days=1)
    return {"fund": name, "kind": row.kind, "first": first.isoformat(),
            "last": last.isoformat(), "displayed_cents": row.displayed_cents, "rows": rows}


#: the ledger's CSV: (key, words, kind), written as every CSV meant for people is
#: (casino.domain.spreadsheet: words with the unit, dollars to the cent, dates)
CSV_COLUMNS = [("gaming_day", "Gaming day", "date"), ("opening_cents", "Opening", "money"),
               ("contributions_cents", "Contributions", "money"),
               ("transfers_in_cents", "Transfers in", "money"),
               ("payouts_cents", "Payouts", "money"),
               ("transfers_out_cents", "Transfers out", "money"),
               ("closing_cents", "Closing", "money"),
               ("counted_cents", "Counted to the cage", "money"),
               ("tables", "Tables contributing", "count")]


def csv_table(report: dict[str, Any]) -> tuple[list[tuple[str, str, str]], list[Any]]:
    """The ledger by gaming day as its CSV is written (637a.15(e), 637a.16(e)): columns
    and rows for casino.api.downloads.csv_download."""
    return CSV_COLUMNS, report["rows"]


def period_report(actor: Actor, name: str, first: date, last: date) -> dict[str, Any]:
    """A High Hand fund's ledger by qualifying period (637a.16(g)-(i)): for each period
    closed in the span (by its local start), the pooled amount, the hand that won it,
    what was awarded, paid and left uncollected, and what its count took to the cage."""
    row = fund(actor, name)
    events = list(Event.objects.filter(stream_id=row.stream_id, type__in=[
        "HighHandRecorded", "HighHandPeriodClosed", "HighHandPaid",
        "HighHandAwardUncollected", "CountOpened", "CountVerified"]).order_by("version"))
    bounds = {e.data["period"]: (e.data["period_start"], e.data["period_end"])
              for e in events if e.type == "HighHandRecorded"}
    count_key = {e.data["count_id"]: e.data.get("key") for e in events
                 if e.type == "CountOpened"}
    rows: dict[str, dict[str, Any]] = {}
    for e in events:
        d = e.data
        if e.type == "HighHandPeriodClosed" and first.isoformat() <= d["period"][:10] \
                <= last.isoformat():
            start, end = bounds.get(d["period"], ("", ""))
            rows[d["period"]] = {"period": d["period"], "period_start": start,
                                 "period_end": end, "hand": d.get("hand", ""),
                                 "pooled_cents": d["amount_cents"],
                                 "awarded_cents": sum(a["cents"] for a in d["awards"]),
                                 "paid_cents": 0, "uncollected_cents": 0, "counted_cents": 0}
        elif e.type == "HighHandPaid" and d["period"] in rows:
            rows[d["period"]]["paid_cents"] += d["amount_cents"]
        elif e.type == "HighHandAwardUncollected" and d["period"] in rows:
            rows[d["period"]]["uncollected_cents"] += d["amount_cents"]
        elif e.type == "CountVerified" and count_key.get(d["count_id"]) in rows:
            rows[count_key[d["count_id"]]]["counted_cents"] += d["counted_cents"]
    return {"fund": name, "kind": row.kind, "first": first.isoformat(),
            "last": last.isoformat(), "rows": [rows[k] for k in sorted(rows)]}


#: a period is named by its start and end, each with the property's offset (its key,
#: a local wall-clock start without an offset, is not written where a person reads it)
PERIOD_CSV_COLUMNS = [("period_start", "Period start", "time"),
                      ("period_end", "Period end", "time"), ("hand", "Winning hand", "text"),
                      ("pooled_cents", "Pooled", "money"), ("awarded_cents", "Awarded", "money"),
                      ("paid_cents", "Paid", "money"),
                      ("uncollected_cents", "Uncollected", "money"),
                      ("counted_cents", "Counted to the cage", "money")]


def periods_csv_table(report: dict[str, Any]) -> tuple[list[tuple[str, str, str]], list[Any]]:
    """The High Hand ledger by qualifying period as its CSV is written (637a.16(g)-(i))."""
    return PERIOD_CSV_COLUMNS, report["rows"]
