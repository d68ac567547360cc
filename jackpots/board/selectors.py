"""The jackpot board's data (637a.15(b), 637a.16(b): the current amounts displayed to
patrons): every fund of a property with the amount finance last adjusted the display to,
and whether it is pending adjustment after a verified Bad Beat (637a.15(f)(1)). Never a
player's name or phone: the board is for the room's screens."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from casino.domain.money import format_money
from casino.models import Property
from jackpots.models import BAD_BEAT, Fund

_KIND = {BAD_BEAT: "Bad Beat"}


def jackpot_board(prop: Property) -> dict[str, Any]:
    funds = Fund.objects.filter(property=prop).order_by("kind", "name")
    return {"property": prop.name, "at": timezone.now().isoformat(), "funds": [{
        "fund": f.name, "kind": _KIND.get(f.kind, "High Hand"),
        "displayed_cents": f.displayed_cents,
        "displayed": format_money(f.displayed_cents) if f.displayed_cents is not None
        else "to be announced",
        "pending_adjustment": f.display_pending} for f in funds]}
