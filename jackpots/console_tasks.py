"""jackpots's "waiting for me" task providers and navigation (console.registry).

Each provider reads the funds' read models only (``BadBeatHit``, ``Fund``,
``HighHandSlip``, ``FundCount``; never the event log), scoped to the viewer's property, in
a number of queries that does not grow with the tables or items. Each item's link is the
form of the next step (``command_url`` of the service that takes it, the fund's name as
its key, as the API's ``jackpot-funds/<fund>/…``). A two-person step is shown to the
person who took the first with their name and no button (``actionable=False``): the
service refuses it (``same_person``, ``signed_already``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from casino.actors import Actor
from casino.domain.money import format_money
from casino.domain.wall_clock import format_wall_clock
from casino.roles import Role
from console.registry import (
    Listed,
    NavItem,
    TaskProvider,
    WaitingItem,
    command_url,
    listed,
    nav,
    task,
)
from jackpots import selectors
from jackpots.models import FundCount
from jackpots.services.common import PAYING, VERIFYING, WITNESSING
from jackpots.services.counts import (
    CARRIERS,
    CASHIERS,
    DEALER_COUNTS,
    EXPLAINING,
    SIGNING_OFF,
    WITNESSES,
)

#: the console's names of the count variance's two commands (their services share their
#: ``__name__`` with finance's exception commands, so they are declared under these)
COUNT_EXPLAIN = "count_variance_explain"
COUNT_SIGN_OFF = "count_variance_sign_off"
#: how long before its collect-by time an award not yet collected is listed for finance
#: (637a.16(b)(6), (i))
UNCOLLECTED_NOTICE = timedelta(hours=24)
#: a count step's event → the signer's kind (jackpots.domain.fund: a cage cashier's box
#: counts and total are one step, "count")
_COUNT_STEP_WORDS = {"BoxCounted": "Boxes counted", "CountWitnessed": "Witnessed",
                     "BoxesAccountedFor": "Boxes accounted for",
                     "CountCarriedToCage": "Carried to the cage",
                     "CountVerified": "Verified", "CountVarianceExplained": "Explained"}


def _when(actor: Actor, moment: Any) -> str:
    return format_wall_clock(moment, time_zone=actor.property.time_zone) if moment else ""


def _mine(actor: Actor, roles: tuple[Role, ...]) -> bool:
    return actor.has(*roles)


# --- Bad Beat hits (637a.15(f)-(g)) --------------------------------------------------------

def _hit_title(hit: Any) -> str:
    return (f"Bad Beat at {hit.table_name}: {hit.losing_hand} (seat {hit.losing_seat}) "
            f"beaten by {hit.winning_hand} (seat {hit.winning_seat})")


def bad_beats_to_verify(actor: Actor, limit: int | None = None) -> Listed:
    """Hands held at the showdown as a Bad Beat, for the poker shift supervisor to verify
    or reject (637a.15(f))."""
    total, hits = selectors.hits_in(actor, "held", limit)
    return Listed((WaitingItem(
        title=_hit_title(h),
        url=command_url("bad_beat_verify", h.fund, hand_id=h.hand_id),
        detail=f"Held {_when(actor, h.qualified_at)}; pot {format_money(h.pot_cents)}; "
               f"fund {h.fund}",
        action="Verify the hand") for h in hits), total)


def bad_beats_to_pay(actor: Actor, limit: int | None = None) -> Listed:
    """Verified payouts, for finance or the cage to pay against each player's
    identification (637a.15(f)(2), (g)); never by the person who verified it."""
    total, hits = selectors.hits_in(actor, "verified", limit)
    return Listed((WaitingItem(
        title=f"{_hit_title(h)}: pay {format_money(h.amount_cents or 0)}",
        url=command_url("bad_beat_pay", h.fund, hand_id=h.hand_id),
        detail=f"Verified by {h.verified_by} {_when(actor, h.decided_at)}; "
               + ", ".join(f"seat {s['seat']} {format_money(s['cents'])}" for s in h.shares
                           if s.get("cents")),
        action="Pay the Bad Beat", first_by=h.verified_by,
        actionable=actor.username != h.verified_by)
        for h in hits), total)


# --- the displayed amount (637a.15(h), 637a.16(b)) ------------------------------------------

def display_adjustments_to_witness(actor: Actor, limit: int | None = None) -> Listed:
    """Adjustments of a fund's display begun by finance, for a floorperson or above — not
    the finance employee — to witness (637a.15(h)(1))."""
    return listed(selectors.adjustments_waiting(actor), limit, lambda f: WaitingItem(
        title=f"Display of the {f.name} fund: set it to "
              f"{format_money(f.adjustment_waiting_cents or 0)}",
        url=command_url("display_witness", f.name),
        detail=f"Begun by {f.adjustment_started_by} {_when(actor, f.adjustment_started_at)}"
               .strip(),
        action="Witness the adjustment", first_by=f.adjustment_started_by,
        actionable=actor.username != f.adjustment_started_by))


# --- High Hand awards (637a.16(h)-(i)) ------------------------------------------------------

def _award_item(actor: Actor, s: Any, now: Any) -> WaitingItem:
    overdue = s.collect_by is not None and s.collect_by <= now
    by = f"collect by {_when(actor, s.collect_by)}" if s.collect_by else "no time limit"
    return WaitingItem(
        title=f"High Hand award of {format_money(s.award_cents)} to {s.player_name} "
              f"(slip {s.slip}, {s.table_name})",
        url=command_url("high_hand_pay", s.fund, period=s.period, slip=s.slip,
                        name=s.player_name),
        detail=f"{s.hand}; " + (f"was to be collected by {_when(actor, s.collect_by)}"
                                if overdue else by),
        action="Pay the award", overdue=overdue)


def high_hand_awards_to_pay(actor: Actor, limit: int | None = None) -> Listed:
    """Awards made at the end of a period and not yet paid, for the cage to pay against
    the player's identification (637a.16(h), (b)(7)); past its collect-by time, marked
    (the soonest to collect first: the overdue first)."""
    now = timezone.now()
    return listed(selectors.awards_owed(actor), limit, lambda s: _award_item(actor, s, now))


def high_hand_awards_uncollected(actor: Actor, limit: int | None = None) -> Listed:
    """Awards not collected whose posted time limit (637a.16(b)(6)) ends within
    :data:`UNCOLLECTED_NOTICE`, or has ended (overdue: the posted procedure for the
    uncollected, 637a.16(i), applies), for finance."""
    now = timezone.now()
    rows = selectors.awards_owed(actor).filter(collect_by__lte=now + UNCOLLECTED_NOTICE)
    return listed(rows, limit, lambda s: _award_item(actor, s, now))


# --- box counts (637a.15(d)-(e), 637a.16(d)-(e)) --------------------------------------------

def _signers(c: FundCount) -> dict[str, str]:
    """Who signed which step of the count (as jackpots.domain.fund folds it)."""
    out: dict[str, str] = {}
    for step in c.steps or []:
        kind = step["step"]
        if kind == "CountOpened":
            continue
        if kind == "BoxCounted" or (kind == "CountVerified" and c.place == "cage"):
            kind = "count"
        out.setdefault(step.get("by", ""), kind)
    return out


def _count_next(c: FundCount) -> tuple[str, tuple[Role, ...], str, str, dict[str, Any]]:
    """(command, roles, the button's words, the signer's kind, the form's initial)."""
    counted = {s.get("table_id") for s in c.steps or [] if s["step"] == "BoxCounted"}
    uncounted = [b["table_id"] for b in c.boxes or [] if b["table_id"] not in counted]
    box = {"table_id": uncounted[0]} if uncounted else {}
    if c.state == "open" and c.place == "table":
        if uncounted:
            return "count_box", DEALER_COUNTS, "Count the boxes", "count", box
        return "count_witness", WITNESSES, "Witness the count", "CountWitnessed", {}
    if c.state == "open":
        return "count_account", WITNESSES, "Account for the boxes", "BoxesAccountedFor", {}
    if c.state in ("witnessed", "accounted"):
        return "count_carry", CARRIERS, "Carry to the cage", "CountCarriedToCage", {}
    if c.state == "at_cage" and c.place == "cage" and uncounted:
        return "count_box", CASHIERS, "Count the boxes", "count", box
    if c.state == "at_cage":
        kind = "count" if c.place == "cage" else "CountVerified"
        return "count_verify", CASHIERS, "Verify the total", kind, {}
    if c.state == "verified":
        return COUNT_EXPLAIN, EXPLAINING, "Explain the variance", "CountVarianceExplained", {}
    return COUNT_SIGN_OFF, SIGNING_OFF, "Sign off the variance", "CountVarianceSignedOff", {}


def counts_open(actor: Actor, limit: int | None = None) -> Listed:
    """Each open box count whose next step the viewer's roles take: the dealer's box
    counts at a closed table, the floorperson's witness or accounting, security's carry,
    the cashier's count or verification, finance's explanation of a variance and a second
    person's sign-off. An escalated count (open past the posted limit) is overdue, and
    listed first."""
    out = []
    for c in selectors.counts_open(actor):
        command, roles, action, kind, initial = _count_next(c)
        if not _mine(actor, roles):
            continue
        signers = _signers(c)
        last = next((s for s in reversed(c.steps or []) if s["step"] in _COUNT_STEP_WORDS),
                    None)
        first = last.get("by", "") if last else ""
        done = signers.get(actor.username)
        may = done is None or done == kind
        if command == COUNT_SIGN_OFF and actor.username == first:
            may = False
        where = "at the table" if c.place == "table" else "at the cage"
        detail = (f"{_COUNT_STEP_WORDS[last['step']]} by {first}" if last else
                  f"Opened {_when(actor, c.opened_at)}")
        if c.variance_cents:
            detail += f"; variance {format_money(c.variance_cents)}"
        out.append(WaitingItem(
            title=f"Box count of the {c.fund} fund {where}"
                  + (f" ({c.key})" if c.key else "")
                  + f": {format_money(c.expected_cents)} expected",
            url=command_url(command, c.fund, count_id=c.count_id, **initial),
            detail=detail, action=action, first_by=first, overdue=c.escalated_at is not None,
            actionable=may))
    # the escalated first, then the oldest (a few open counts: sorted here)
    out.sort(key=lambda i: not i.overdue)
    return Listed(out if limit is None else out[:limit], len(out))


# --- registration ---------------------------------------------------------------------------

COUNTING_ROLES = tuple(dict.fromkeys(
    DEALER_COUNTS + WITNESSES + CARRIERS + CASHIERS + EXPLAINING + SIGNING_OFF))

task(TaskProvider(key="jackpots_bad_beats_to_verify", title="Bad Beat hands to verify",
                  roles=VERIFYING, items=bad_beats_to_verify, order=10))
task(TaskProvider(key="jackpots_bad_beats_to_pay", title="Bad Beat payouts to pay",
                  roles=PAYING, items=bad_beats_to_pay, order=15))
task(TaskProvider(key="jackpots_display_adjustments_to_witness",
                  title="Jackpot display adjustments to witness", roles=WITNESSING,
                  items=display_adjustments_to_witness, order=15))
task(TaskProvider(key="jackpots_high_hand_awards_to_pay", title="High Hand awards to pay",
                  roles=(Role.CASHIER,), items=high_hand_awards_to_pay, order=16))
task(TaskProvider(key="jackpots_high_hand_awards_uncollected",
                  title="High Hand awards not collected, due or overdue",
                  roles=(Role.FINANCE,), items=high_hand_awards_uncollected, order=46))
task(TaskProvider(key="jackpots_counts_open", title="Jackpot box counts open",
                  roles=COUNTING_ROLES, items=counts_open, order=35))

nav(NavItem(group="Money", label="Jackpots", url="/console/#jackpots_counts_open",
            roles=tuple(dict.fromkeys(VERIFYING + PAYING + WITNESSING + COUNTING_ROLES)),
            order=50,
            counts=("jackpots_bad_beats_to_verify", "jackpots_bad_beats_to_pay",
                    "jackpots_display_adjustments_to_witness",
                    "jackpots_high_hand_awards_to_pay", "jackpots_high_hand_awards_uncollected",
                    "jackpots_counts_open")))
