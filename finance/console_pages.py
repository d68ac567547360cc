"""finance's console pages (console.registry.page): the printables of a table's gaming day
(issue 23, item 5), on US Letter with their signature lines, from the table day's record
as the API's "behind" read gives it (:func:`finance.behind.table_day_record`: each slip
with its pieces, its total and each signature's person, role, credential and time), no
figure worked out twice:

* ``/console/print/tables/<table>/<day>/slips/<slip>/`` — a fill or credit slip: the
  chips by denomination, the total, and the four signatures of the slip's way from the
  floor to the table (requested by a floorperson, prepared by the cage, carried by the
  security runner, signed at the table by the dealer or floorperson), each a different
  person (:mod:`finance.domain.table_day`).
* ``/console/print/tables/<table>/<day>/inventory/<opener|closer>/`` — the table
  inventory slip: the chip tray by denomination, counted by the dealer and signed by a
  floorperson who did not count it.
* ``/console/print/tables/<table>/<day>/drop/`` — the count sheet of the table's drop box
  (the box every table has: § 637a.2(d), § 589.2(c), § 671a.2(c), § 579.2(c)): the cash and
  chips counted, removed by security, counted by one of the count team, signed by a
  second, accepted by a cashier.

The chapters held here (637a, 589, 671a, 579) require the drop box but do not prescribe
the fill, credit, inventory and count forms themselves (the Board's accounting and
internal-control chapters do); their signature lines are the steps the system records
and the separation of duties :mod:`finance.domain.table_day` enforces.

Scoped to the viewer's property (another property's table is 404); the roles that read a
table day through the API (``finance.services.READERS``), 403 otherwise.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from casino.actors import Actor
from casino.domain.errors import NotFoundError
from console.registry import page
from finance.behind import table_day_record
from finance.domain.table_day import CLOSER, FILL, OPENER
from finance.services.common import READERS, day_of
from jackpots.console_pages import first_step, printable, signature

#: the drop box each game's chapter requires at the table
DROP_BOX_RULE = {"five-card-hi-lo": "§ 579.2(c)", "lunar-poker-589": "§ 589.2(c)",
                 "lunar-poker-671a": "§ 671a.2(c)"}
POKER_DROP_BOX_RULE = "§ 637a.2(d)"
#: the system's rule for the slips' signatures (no chapter held here prescribes the forms)
SEPARATE = "each step a different person (finance.domain.table_day)"


def pieces(listing: dict[str, int] | None) -> list[dict[str, Any]]:
    """A slip's listing ``{"2500": 4}`` as lines, largest denomination first:
    ``{"denomination_cents": 2500, "count": 4, "amount_cents": 10000}``."""
    return [{"denomination_cents": int(d), "count": n, "amount_cents": int(d) * n}
            for d, n in sorted((listing or {}).items(), key=lambda kv: -int(kv[0])) if n]


def _record(actor: Actor, table_id: str, day: str) -> dict[str, Any]:
    return table_day_record(actor, table_id, day_of(actor, day))


@printable(READERS)
def slip_print(request: HttpRequest, actor: Actor, table_id: str, day: str, slip_id: str
               ) -> HttpResponse:
    record = _record(actor, table_id, day)
    slip = next((s for s in record["slips"] if s["slip_id"] == slip_id), None)
    if slip is None:
        raise NotFoundError(f"no fill or credit slip {slip_id} at this table that day",
                            code="slip_not_found")
    steps = slip["steps"]
    kind = "Fill" if slip["kind"] == FILL else "Credit"
    signatures = [
        signature("Floorperson or above", f"requested the {kind.lower()}", SEPARATE,
                  first_step(steps, "SlipRequested")),
        signature("Cashier", "prepared the slip and the chips at the cage", SEPARATE,
                  first_step(steps, "SlipPrepared")),
        signature("Security (runner)", "carried the slip and the chips", SEPARATE,
                  first_step(steps, "SlipCarried")),
        signature("Dealer or floorperson", "received the chips at the table"
                  if slip["kind"] == FILL else "released the chips at the table", SEPARATE,
                  first_step(steps, "SlipCompleted")),
    ]
    return render(request, "finance/console/print_slip.html", {
        "record": record, "slip": slip, "kind": kind, "lines": pieces(slip["pieces"]),
        "signatures": signatures})


@printable(READERS)
def inventory_print(request: HttpRequest, actor: Actor, table_id: str, day: str, slip: str
                    ) -> HttpResponse:
    if slip not in (OPENER, CLOSER):
        raise NotFoundError(f"no {slip} inventory slip", code="slip_not_found")
    record = _record(actor, table_id, day)
    found = next((s for s in record["inventories"] if s["slip"] == slip), None)
    if found is None:
        raise NotFoundError(f"no {slip} inventory slip recorded for this table that day",
                            code="slip_not_found")
    signatures = [
        signature("Dealer", "counted the chip tray", SEPARATE,
                  first_step(found["steps"], "InventorySlipRecorded")),
        signature("Floorperson or above", "verified the count", SEPARATE,
                  first_step(found["steps"], "InventorySlipSigned")),
    ]
    return render(request, "finance/console/print_inventory.html", {
        "record": record, "inventory": found, "lines": pieces(found["pieces"]),
        "signatures": signatures})


@printable(READERS)
def drop_count_print(request: HttpRequest, actor: Actor, table_id: str, day: str
                     ) -> HttpResponse:
    record = _record(actor, table_id, day)
    drop = record["drop"]
    if "counted_cents" not in drop:
        raise NotFoundError("the table's drop box is not counted yet that day",
                            code="drop_not_counted")
    steps = drop["steps"]
    rule = DROP_BOX_RULE.get(record["game"], POKER_DROP_BOX_RULE)
    signatures = [
        signature("Security", "removed the drop box from the table", SEPARATE,
                  first_step(steps, "DropBoxRemoved")),
        signature("Count team", "counted the box's contents", SEPARATE,
                  first_step(steps, "DropCounted")),
        signature("Count team (a second member)", "signed the count", SEPARATE,
                  first_step(steps, "DropCountSigned")),
        signature("Cashier", "accepted the count at the cage", SEPARATE,
                  first_step(steps, "DropCountAccepted")),
    ]
    return render(request, "finance/console/print_drop.html", {
        "record": record, "drop": drop, "cash": pieces(drop.get("cash")),
        "chips": pieces(drop.get("chips")), "rule": rule, "signatures": signatures})


T = "print/tables/<str:table_id>/<str:day>/"
page(T + "slips/<str:slip_id>/", slip_print, name="print-slip")
page(T + "inventory/<str:slip>/", inventory_print, name="print-inventory")
page(T + "drop/", drop_count_print, name="print-drop-count")
