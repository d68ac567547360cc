"""Finance's panel on a table's console page (``tables.console_panels``): today's chip
tray and drop box — the inventory slips, chip sales, fills and credits with their state,
and the drop — from the table day's read model (the figures the API's
``GET finance/tables/{id}/days/{day}/`` gives), with the next step's form for each slip.
The steps and who signs each are finance.domain.table_day's; the next step of a slip is
the one "waiting for me" offers (finance.console_tasks.SLIP_NEXT)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from casino.actors import Actor
from console.registry import offer
from finance import selectors
from finance.console_tasks import SLIP_NEXT
from finance.domain.table_day import CLOSER, OPENER, slip_number
from finance.services.common import READERS
from tables.console_panels import Panel, register_panel

#: the drop box's state in words (TableDay.drop_state)
DROP_WORDS = {"in_play": "at the table", "removed": "removed, to be counted",
              "counted": "counted, the count to be signed",
              "signed": "count signed, to be accepted by the cage", "accepted": "accepted"}


def _printable(name: str, table_id: Any, day: Any, **kwargs: str) -> str:
    """A printable of the table day (finance.console_pages), ``console:<name>``."""
    return reverse(f"console:{name}", kwargs={"table_id": str(table_id),
                                             "day": day.isoformat(), **kwargs})


def _slips(actor: Actor, table_id: Any, day: Any, row: Any) -> list[dict[str, Any]]:
    """Each slip with its printable and its next step's form — offered only to a role
    that may take it (:func:`console.registry.offer`)."""
    slips = (getattr(row, "state", None) or {}).get("slips", {})
    out = []
    for slip_id, s in slips.items():
        step = SLIP_NEXT.get(s["state"])
        signers = s.get("signers", {})
        out.append({
            "number": slip_number(slip_id), "kind": s["kind"], "state": s["state"],
            "total_cents": s["total_cents"],
            "signed_by": ", ".join(f"{who} ({what})" for who, what in signers.items()),
            "print_url": _printable("print-slip", table_id, day, slip_id=slip_id),
            "next": offer(actor, step[2], step[1], table_id, slip_id=slip_id,
                          gaming_day=day.isoformat()) if step else None,
            "next_words": step[2] if step else ""})
    return out


def _printables(table_id: Any, day: Any, row: Any) -> list[dict[str, str]]:
    """The table day's printables that exist: the inventory slips recorded (signed or
    not) and the drop box's count sheet once it is counted (finance.console_pages answers
    404 before)."""
    out = []
    recorded = (getattr(row, "state", None) or {}).get("inventories", {})
    for slip, label in ((OPENER, "Opening inventory slip"),
                        (CLOSER, "Closing inventory slip")):
        if slip in recorded:
            out.append({"label": label,
                        "url": _printable("print-inventory", table_id, day, slip=slip)})
    if row.drop_counted_cents is not None:
        out.append({"label": "Drop box count sheet",
                    "url": _printable("print-drop-count", table_id, day)})
    return out


@register_panel
def table_day_panel(request: HttpRequest, actor: Actor, table: Any) -> Panel | None:
    if not actor.has(*READERS):
        return None
    day = actor.gaming_day()
    row = selectors.table_day(actor, table.pk, day)
    return Panel(title="Today's tray and drop box", order=40,
                 template="finance/console/_table_day_panel.html",
                 context={"day": row, "slips": _slips(actor, table.pk, day, row),
                          "printables": _printables(table.pk, day, row),
                          "drop": DROP_WORDS.get(row.drop_state, row.drop_state)})
