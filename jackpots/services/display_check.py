"""The daily check of the displayed amounts (637a.15(h), 637a.16(b)): after each gaming
day, each fund's display must have been adjusted during it (no less than once a day) and
must not still be pending after a payout (a Bad Beat verified, a High Hand period's
awards fixed: 637a.15(f)(1), and the room's rule for 637a.16(b)); otherwise an exception
is recorded for finance to act on. Once per fund and gaming day: a second run finds it checked."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from django.utils import timezone

from casino.domain.errors import ConflictError
from jackpots.models import Fund
from jackpots.services.common import AtFund, _caught_up, fund_state, system_decision


def _verdict(at: AtFund, day: date) -> dict[str, Any]:
    adjusted = [a for a in at.state.adjustments if a == day.isoformat()]
    if not adjusted:
        return {"passed": False, "reason": "not_adjusted",
                "detail": "the display was not adjusted during the gaming day (637a.15(h))"}
    if at.state.display_pending:
        return {"passed": False, "reason": "pending_not_adjusted",
                "detail": "a payout from the fund is not yet reflected in the display "
                          "(637a.15(f)(1), (h); 637a.16(b))"}
    return {"passed": True, "reason": "", "detail": ""}


def display_checks_due(now: datetime | None = None) -> int:
    """Check every fund for the gaming day that ended last; returns how many it checked.
    A fund opened (its first contribution) during that day is checked from the next."""
    from casino.actors import system_actor

    now = now or timezone.now()
    done = 0
    _caught_up()
    for row in Fund.objects.select_related("property"):
        actor = system_actor(row.property, "jackpot-display-check")
        day = actor.gaming_day(now) - timedelta(days=1)
        if row.first_contribution_at is None or actor.gaming_day(
                row.first_contribution_at) >= day + timedelta(days=1):
            continue
        state = fund_state(row)
        if day.isoformat() in state.display_checks:
            continue

        def decide(at: AtFund, d: date = day) -> None:
            if d.isoformat() in at.state.display_checks:
                raise ConflictError("checked meanwhile", code="checked")
            at.record("DisplayChecked", {"gaming_day": d.isoformat(),
                                         "displayed_cents": at.row.displayed_cents,
                                         "record_cents": at.available_cents,
                                         **_verdict(at, d), "rule": "637a.15(h)(2)"},
                      "system")
        done += system_decision(actor, row.name, decide)
    if done:
        _caught_up()
    return done
