"""finance's "waiting for me" task providers and navigation (console.registry).

Each provider reads finance's read models only (``TableDay`` with its folded state,
``FinanceException``, ``GamingDay``; never the event log), scoped to the viewer's
property, in one or two queries whatever the number of tables or items. Each item's link
is the form of the next step (``command_url`` of the service that takes it). A step of a
slip, an inventory, a count or an exception that the viewer may not take because they
signed another step of the same item is shown with who did the first step and no button
(``actionable=False``): the service would refuse it, 409 ``signed_already`` or
``same_person`` (finance.domain.table_day: nobody signs two steps of one slip or count).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from casino.actors import Actor
from casino.domain.money import format_money
from casino.domain.wall_clock import format_date, format_time_of_day, format_wall_clock
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
from finance import selectors
from finance.domain.table_day import slip_number
from finance.models import FinanceException, TableDay
from finance.services.common import (
    AT_TABLE,
    CAGE,
    COUNTING,
    FINANCE,
    FLOOR,
    REMOVING,
    RUNNERS,
    SIGNING_OFF,
)

#: a slip's step waiting → (the step before it, the command, the button's words)
SLIP_NEXT = {"requested": ("requested", "slip_prepare", "Prepare the slip"),
             "prepared": ("prepared", "slip_carry", "Sign for carrying it"),
             "carried": ("carried", "slip_complete", "Sign at the table")}
#: a drop box's step waiting → (the step before it, the command, the button's words)
DROP_NEXT = {"in_play": (None, "drop_remove", "Remove the box"),
             "removed": ("removed", "drop_count", "Count the box"),
             "counted": ("counted", "drop_count_sign", "Sign the count"),
             "signed": ("signed", "drop_accept", "Accept the count")}
FIGURES = {"drop": "Drop", "tray": "Tray", "poker_revenue": "Poker revenue"}
OPEN_ITEMS = {
    "open_round": "round open", "open_hand": "hand open", "no_opener": "no opener",
    "no_closer": "no closer", "opener_unsigned": "opener not signed",
    "closer_unsigned": "closer not signed", "fill_slip_unsigned": "fill slip not signed",
    "credit_slip_unsigned": "credit slip not signed", "box_not_counted": "box not counted",
    "count_unsigned": "count not signed", "count_not_accepted": "count not accepted",
    "jackpot_count_open": "jackpot box count open"}


def _zone(actor: Actor) -> str:
    return actor.property.time_zone


def _at(actor: Actor, iso: str | None, day: date) -> str:
    """" at 6:10 AM EST" on the gaming day's own dates (a day runs into the next
    calendar date), " at Nov 23, 2026, 6:10 AM EST" otherwise; "" when not known."""
    if not iso:
        return ""
    moment, zone = datetime.fromisoformat(iso), _zone(actor)
    if moment.astimezone(ZoneInfo(zone)).date() in (day, day + timedelta(days=1)):
        return f" at {format_time_of_day(moment, time_zone=zone)}"
    return f" at {format_wall_clock(moment, time_zone=zone)}"


def _who_did(signers: dict[str, str], step: str | None) -> str:
    return next((who for who, done in signers.items() if done == step), "") if step else ""


def _day_words(actor: Actor, day: Any) -> str:
    """"" for the day being played; " (gaming day Nov 24, 2026)" for another."""
    return "" if day == actor.gaming_day() else f" (gaming day {format_date(day)})"


# --- fill and credit slips ---------------------------------------------------------------

def _slips_waiting(actor: Actor, state: str, limit: int | None) -> Listed:
    """The slips at ``state`` of the table days with a slip open (a few rows: open slips
    are counted on the row), each made into an item only when shown."""
    before, command, action = SLIP_NEXT[state]

    def slips() -> Iterator[tuple[TableDay, str, dict[str, Any]]]:
        for row in selectors.table_days_with_open_slips(actor):
            found = row.state.get("slips", {})
            for slip_id, s in sorted(found.items(), key=lambda kv: (
                    row.step_times.get(f"slip:{kv[0]}", ""), kv[0])):
                if s["state"] == state:
                    yield row, slip_id, s

    def item(found: tuple[TableDay, str, dict[str, Any]]) -> WaitingItem:
        row, slip_id, s = found
        kind = "Fill" if s["kind"] == "fill" else "Credit"
        way = "to" if s["kind"] == "fill" else "from"
        first = _who_did(s["signers"], before)
        return WaitingItem(
            title=f"{kind} slip {slip_number(slip_id)}: {format_money(s['total_cents'])}"
                  f" {way} {row.table.name}{_day_words(actor, row.gaming_day)}",
            url=command_url(command, row.table_id, slip_id=slip_id,
                            gaming_day=row.gaming_day.isoformat()),
            detail=f"{before.capitalize()} by {first}"
                   f"{_at(actor, row.step_times.get(f'slip:{slip_id}'), row.gaming_day)}",
            action=action, first_by=first,
            # nobody signs two steps of one slip (check_signer)
            actionable=actor.username not in s["signers"])
    return listed(slips(), limit, item)


def slips_to_prepare(actor: Actor, limit: int | None = None) -> Listed:
    """Fill and credit slips requested by the floor, for the cage to prepare."""
    return _slips_waiting(actor, "requested", limit)


def slips_to_carry(actor: Actor, limit: int | None = None) -> Listed:
    """Slips the cage prepared, for the runner (security) to carry and sign."""
    return _slips_waiting(actor, "prepared", limit)


def slips_to_complete(actor: Actor, limit: int | None = None) -> Listed:
    """Slips the runner brought, for the dealer or floorperson at the table to sign."""
    return _slips_waiting(actor, "carried", limit)


# --- the tray's inventory slips -----------------------------------------------------------

def inventories_to_sign(actor: Actor, limit: int | None = None) -> Listed:
    """Opening and closing inventory slips the dealer recorded, for a floorperson who is
    not that dealer to sign."""
    def slips() -> Iterator[tuple[TableDay, str, dict[str, Any]]]:
        for row in selectors.table_days_with_inventory_to_sign(actor):
            for slip in ("opener", "closer"):
                inv = row.state.get("inventories", {}).get(slip)
                if inv and inv["state"] == "recorded":
                    yield row, slip, inv

    def item(found: tuple[TableDay, str, dict[str, Any]]) -> WaitingItem:
        row, slip, inv = found
        first = _who_did(inv["signers"], "recorded")
        words = "Opening" if slip == "opener" else "Closing"
        return WaitingItem(
            title=f"{words} inventory of {row.table.name}: "
                  f"{format_money(inv['total_cents'])}{_day_words(actor, row.gaming_day)}",
            url=command_url("inventory_sign", row.table_id, slip=slip,
                            gaming_day=row.gaming_day.isoformat()),
            detail=f"Recorded by {first}"
                   f"{_at(actor, row.step_times.get(f'inventory:{slip}'), row.gaming_day)}",
            action="Sign the inventory", first_by=first,
            actionable=actor.username not in inv["signers"])
    return listed(slips(), limit, item)


# --- drop boxes ---------------------------------------------------------------------------

def _drop_item(actor: Actor, row: TableDay) -> WaitingItem:
    before, command, action = DROP_NEXT[row.drop_state]
    signers = row.state.get("drop", {}).get("signers", {})
    first = _who_did(signers, before)
    title = f"Drop box of {row.table.name}{_day_words(actor, row.gaming_day)}"
    if row.drop_counted_cents is not None:
        title += f": counted {format_money(row.drop_counted_cents)}"
    detail = f"{before.capitalize()} by {first}" \
             f"{_at(actor, row.step_times.get('drop'), row.gaming_day)}" if first else \
        f"Gaming day {format_date(row.gaming_day)}"
    return WaitingItem(
        title=title, detail=detail, action=action, first_by=first,
        url=command_url(command, row.table_id, gaming_day=row.gaming_day.isoformat()),
        actionable=actor.username not in signers)


def drop_boxes_to_remove(actor: Actor, limit: int | None = None) -> Listed:
    """Boxes of the day just ended, or of a table whose closer is recorded, for security
    to remove."""
    return listed(selectors.drop_boxes_to_remove(actor), limit, lambda r: _drop_item(actor, r))


def drop_boxes_to_count(actor: Actor, limit: int | None = None) -> Listed:
    """Removed boxes for the count team to count (the service refuses a member who
    worked the table that day, 409 ``worked_the_table``)."""
    return listed(selectors.drop_boxes_at(actor, "removed"), limit, lambda r: _drop_item(actor, r))


def drop_counts_to_sign(actor: Actor, limit: int | None = None) -> Listed:
    """Counts entered, for a second member of the count team (not the counter) to sign."""
    return listed(selectors.drop_boxes_at(actor, "counted"), limit, lambda r: _drop_item(actor, r))


def drop_counts_to_accept(actor: Actor, limit: int | None = None) -> Listed:
    """Signed counts, for a cashier to accept: the drop is then final."""
    return listed(selectors.drop_boxes_at(actor, "signed"), limit, lambda r: _drop_item(actor, r))


# --- exceptions and the gaming day's close -------------------------------------------------

def _exception_title(e: FinanceException) -> str:
    short = "short" if e.variance_cents < 0 else "over"
    return (f"{FIGURES.get(e.figure, e.figure)} {short} {format_money(abs(e.variance_cents))}"
            f" at {e.table.name}, {format_date(e.gaming_day)}"
            + (" (after the close)" if e.after_close else ""))


def exceptions_to_explain(actor: Actor, limit: int | None = None) -> Listed:
    """Open exceptions (a variance beyond the tolerance, negative poker revenue), for
    finance to explain."""
    zone = _zone(actor)
    return listed(selectors.exceptions_in(actor, "open"), limit, lambda e: WaitingItem(
        title=_exception_title(e),
        url=command_url("variance_explain", e.exception_id),
        detail=f"Expected {format_money(e.expected_cents)}, counted "
               f"{format_money(e.counted_cents)}; found "
               f"{format_wall_clock(e.recorded_at, time_zone=zone)}",
        action="Explain it"))


def exceptions_to_sign_off(actor: Actor, limit: int | None = None) -> Listed:
    """Explained exceptions, for a second person of finance or compliance — never one who
    explained it — to sign off. Who explained is read for the items shown only."""
    zone = _zone(actor)
    shown = listed(selectors.exceptions_in(actor, "explained"), limit, lambda e: e)
    explained = selectors.explainers(actor, list(shown))
    return Listed((WaitingItem(
        title=_exception_title(e),
        url=command_url("variance_sign_off", e.exception_id),
        detail=f"Explained by {e.explained_by}"
               + (f" at {format_wall_clock(e.explained_at, time_zone=zone)}"
                  if e.explained_at else "") + f": {e.explanation}",
        action="Sign it off", first_by=e.explained_by,
        actionable=actor.username not in explained.get(str(e.exception_id), set()))
        for e in shown), shown.total)


def gaming_days_held(actor: Actor, limit: int | None = None) -> Listed:
    """Gaming days the close held because items were still open: finish them, or close
    with them listed."""
    def held(d: Any) -> WaitingItem:
        by_kind: dict[str, int] = {}
        for i in d.open_items:
            by_kind[i["item"]] = by_kind.get(i["item"], 0) + 1
        n = len(d.open_items)
        return WaitingItem(
            title=f"Gaming day {format_date(d.gaming_day)} held: {n} item"
                  f"{'' if n == 1 else 's'} open",
            url=command_url("gaming_day_close", None, gaming_day=d.gaming_day.isoformat()),
            detail="; ".join(f"{k} {OPEN_ITEMS.get(item, item)}"
                             for item, k in sorted(by_kind.items())),
            action="Close the day")
    return listed(selectors.gaming_days_held(actor), limit, held)


# --- registration ---------------------------------------------------------------------------

def _provider(key: str, title: str, roles: tuple[Role, ...],
              items: Callable[[Actor, int | None], Listed], order: int) -> TaskProvider:
    return task(TaskProvider(key=key, title=title, roles=roles, items=items, order=order))


_provider("finance_slips_to_prepare", "Fill and credit slips to prepare", CAGE,
          slips_to_prepare, 20)
_provider("finance_slips_to_carry", "Fill and credit slips to carry", RUNNERS,
          slips_to_carry, 20)
_provider("finance_slips_to_complete", "Fill and credit slips to sign at the table",
          AT_TABLE, slips_to_complete, 20)
_provider("finance_inventories_to_sign", "Table inventories to sign", FLOOR,
          inventories_to_sign, 25)
_provider("finance_drop_boxes_to_remove", "Drop boxes to remove", REMOVING,
          drop_boxes_to_remove, 30)
_provider("finance_drop_boxes_to_count", "Drop boxes to count", COUNTING,
          drop_boxes_to_count, 30)
_provider("finance_drop_counts_to_sign", "Drop box counts to sign", COUNTING,
          drop_counts_to_sign, 31)
_provider("finance_drop_counts_to_accept", "Drop box counts to accept", CAGE,
          drop_counts_to_accept, 31)
_provider("finance_exceptions_to_explain", "Exceptions to explain", FINANCE,
          exceptions_to_explain, 40)
_provider("finance_exceptions_to_sign_off", "Exceptions to sign off", SIGNING_OFF,
          exceptions_to_sign_off, 41)
_provider("finance_gaming_days_held", "Gaming days held with open items", FINANCE,
          gaming_days_held, 45)

# No cage, count-room or finance page yet: each goes to the home's section of its first
# list (the home gives each provider's section its key as id). Security carries the slips
# from the cage and takes the boxes to the count room, so it sees both.
nav(NavItem(group="Money", label="Cage", url="/console/#finance_slips_to_prepare",
            roles=CAGE + RUNNERS, order=20,
            counts=("finance_slips_to_prepare", "finance_slips_to_carry",
                    "finance_drop_counts_to_accept", "jackpots_bad_beats_to_pay",
                    "jackpots_high_hand_awards_to_pay")))
nav(NavItem(group="Money", label="Count room", url="/console/#finance_drop_boxes_to_count",
            roles=COUNTING + REMOVING, order=30,
            counts=("finance_drop_boxes_to_remove", "finance_drop_boxes_to_count",
                    "finance_drop_counts_to_sign")))
nav(NavItem(group="Money", label="Finance", url="/console/#finance_exceptions_to_sign_off",
            roles=SIGNING_OFF, order=40,
            counts=("finance_exceptions_to_explain", "finance_exceptions_to_sign_off",
                    "finance_gaming_days_held", "jackpots_high_hand_awards_uncollected")))
