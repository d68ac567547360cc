"""The jackpot board's data (637a.15(b), 637a.16(b): the current amounts displayed to
patrons): every fund of a property with the amount finance last adjusted the display to,
and whether it is pending adjustment after a payout (637a.15(f)(1); a High Hand award too,
the room's rule so the display stays the current amount, 637a.16(b)). Never a
player's name or phone: the board is for the room's screens."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from casino.domain.money import format_money
from casino.models import Property
from jackpots.domain.periods import period_at, period_name
from jackpots.models import BAD_BEAT, HIGH_HAND, Fund, HighHandSlip
from tables.domain.catalogue import POKER_GAMES
from tables.models import GameTable
from tables.selectors import rules_in_force

_KIND = {BAD_BEAT: "Bad Beat"}


def _period_minutes(prop: Property) -> dict[str, int]:
    """High Hand fund -> its qualifying period's length, from the Rules Submissions in
    force for the games of the property's poker tables."""
    out: dict[str, int] = {}
    games = set(GameTable.objects.filter(property=prop, game__in=POKER_GAMES)
                .values_list("game", flat=True))
    for game in sorted(games):
        rs = rules_in_force(prop, game)
        high = (rs.options if rs else {}).get("high_hand")
        if high:
            out.setdefault(high["fund"], high["qualifying_period_minutes"])
    return out


def _high_hand(prop: Property, fund: str, minutes: int | None) -> dict[str, Any] | None:
    """The period now running and its highest hand so far (637a.16(f)): the table and
    seat, never the player."""
    if minutes is None:
        return None
    period = period_at(timezone.now(), time_zone=prop.time_zone,
                       day_start_hour=prop.gaming_day_start_hour, minutes=minutes)
    best = HighHandSlip.objects.filter(property=prop, fund=fund, period=period.key).order_by(
        "-value", "slip").first()
    # named as the API names a period: its local start with the property's offset
    # ("2026-11-25T20:00:00-05:00"), never the naive key the slips are filed under
    return {"period": period_name(period.key, time_zone=prop.time_zone),
            "ends_at": period.end.isoformat(),
            "hand": best.hand if best else None,
            "table": best.table_name if best else None, "seat": best.seat if best else None}


def jackpot_board(prop: Property) -> dict[str, Any]:
    funds = Fund.objects.filter(property=prop).order_by("kind", "name")
    minutes = _period_minutes(prop) if any(f.kind == HIGH_HAND for f in funds) else {}
    return {"property": prop.name, "at": timezone.now().isoformat(), "funds": [{
        "fund": f.name, "kind": _KIND.get(f.kind, "High Hand"),
        "displayed_cents": f.displayed_cents,
        "displayed": format_money(f.displayed_cents) if f.displayed_cents is not None
        else "to be announced",
        "pending_adjustment": f.display_pending,
        "high_hand": _high_hand(prop, f.name, minutes.get(f.name))
        if f.kind == HIGH_HAND else None} for f in funds]}
