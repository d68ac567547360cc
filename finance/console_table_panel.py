"""Finance's panel on a table's console page (``tables.console_panels``): today's chip
tray and drop box — the inventory slips, chip sales, fills and credits with their state,
and the drop — from the table day's read model (the figures the API's
``GET finance/tables/{id}/days/{day}/`` gives), with the next step's form for each slip.
The steps and who signs each are finance.domain.table_day's; the next step of a slip is
the one "waiting for me" offers (finance.console_tasks.SLIP_NEXT)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from casino.actors import Actor
from console.registry import command_url
from finance import selectors
from finance.console_tasks import SLIP_NEXT, slip_number
from finance.services.common import READERS
from tables.console_panels import Panel, register_panel

#: the drop box's state in words (TableDay.drop_state)
DROP_WORDS = {"in_play": "at the table", "removed": "removed, to be counted",
              "counted": "counted, the count to be signed",
              "signed": "count signed, to be accepted by the cage", "accepted": "accepted"}


def _slips(table_id: Any, day: Any, row: Any) -> list[dict[str, Any]]:
    slips = (getattr(row, "state", None) or {}).get("slips", {})
    out = []
    for slip_id, s in slips.items():
        step = SLIP_NEXT.get(s["state"])
        signers = s.get("signers", {})
        out.append({
            "number": slip_number(slip_id), "kind": s["kind"], "state": s["state"],
            "total_cents": s["total_cents"],
            "signed_by": ", ".join(f"{who} ({what})" for who, what in signers.items()),
            "next": (step[2], command_url(step[1], table_id, slip_id=slip_id,
                                          gaming_day=day.isoformat())) if step else None})
    return out


@register_panel
def table_day_panel(request: HttpRequest, actor: Actor, table: Any) -> Panel | None:
    if not actor.has(*READERS):
        return None
    day = actor.gaming_day()
    row = selectors.table_day(actor, table.pk, day)
    return Panel(title="Today's tray and drop box", order=40,
                 template="finance/console/_table_day_panel.html",
                 context={"day": row, "slips": _slips(table.pk, day, row),
                          "drop": DROP_WORDS.get(row.drop_state, row.drop_state)})
