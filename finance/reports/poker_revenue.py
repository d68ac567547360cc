"""The poker revenue report: the rake by type (§ 637a.17(b)) by poker table and gaming
day, from the rake ledger the hands and time charges keep (``poker_room.models.RakeDay``).

* percentage rake, § 637a.17(b)(1), and incremental rake, (b)(2): from the pots;
* time charges, (b)(3): those a floorperson has verified are in the drop box ((b)(3)(v))
  and count as revenue; those assessed and not yet verified sit in the rake area
  ((b)(3)(iv)) and are shown apart, outside the revenue.

Read only; every read is the caller's property.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from casino.actors import Actor
from casino.scoping import property_rows
from finance.reports import Column, Report, register
from poker_room.models import RakeDay
from tables.models import GameTable

COLUMNS = [
    Column("table", "Table", "text"), Column("game", "Game", "text"),
    Column("gaming_day", "Gaming day", "date"), Column("hands", "Hands", "count"),
    Column("percentage_rake_cents", "Percentage rake"),
    Column("incremental_rake_cents", "Incremental rake"),
    Column("time_charges_cents", "Time charges (verified)"),
    Column("revenue_cents", "Poker revenue (to the drop box)"),
    Column("time_charges_pending_cents", "Time charges pending verification"),
]
SUMMED = ("hands", "percentage_rake_cents", "incremental_rake_cents", "time_charges_cents",
          "revenue_cents", "time_charges_pending_cents")

BASIS = ("Poker revenue = percentage rake (§ 637a.17(b)(1)) + incremental rake ((b)(2)) + "
         "time charges verified by a floorperson ((b)(3)(v)): what the drop box should hold "
         "beside the chips sold for cash. Time charges assessed but not yet verified are "
         "in the rake area ((b)(3)(iv)), shown apart and not in the revenue.")


def _row(r: RakeDay, table: GameTable | None) -> dict[str, Any]:
    return {"table": table.name if table else str(r.table_id),
            "game": table.game if table else "", "gaming_day": r.gaming_day.isoformat(),
            "hands": r.hands, "percentage_rake_cents": r.percentage_rake_cents,
            "incremental_rake_cents": r.incremental_rake_cents,
            "time_charges_cents": r.time_charges_cents,
            "revenue_cents": r.rake_and_time_charges_cents,
            "time_charges_pending_cents": r.time_charges_pending_cents,
            "behind": f"/finance/behind/{r.table_id}/{r.gaming_day.isoformat()}/"}


@register("poker-revenue")
def poker_revenue(actor: Actor, first: date, last: date, params: dict[str, str]) -> Report:
    days = list(property_rows(RakeDay.objects.all(), actor)
                .filter(gaming_day__range=(first, last)))
    tables = {t.pk: t for t in property_rows(GameTable.objects.all(), actor)
              .filter(pk__in={d.table_id for d in days})}
    rows = sorted((_row(d, tables.get(d.table_id)) for d in days),
                  key=lambda r: (r["gaming_day"], r["table"]))
    totals = {"table": "Total", "game": "", "gaming_day": "",
              **{k: sum(r[k] for r in rows) for k in SUMMED}} if rows else None
    return Report(name="poker-revenue", title="Poker revenue", first=first, last=last,
                  columns=COLUMNS, rows=rows, basis=BASIS, totals=totals)
