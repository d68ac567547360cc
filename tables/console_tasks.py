"""tables's "waiting for me" task providers and navigation (console.registry).

Each provider reads the read models only (:mod:`tables.selectors`: decks, their signed
steps, Rules Submissions), of the viewer's property, in one query whatever the number of
tables or decks, and is shown to exactly the roles its command admits (the API's and the
console form's declaration). A two-person step shows who did the first step and is not
offered to that person (``actionable=False``). An item is gone for everyone once its step
is recorded: the read model no longer matches.

* decks received and not yet inspected: the dealer assigned to the table (589.4(a),
  637a.4(a), 671a.4(a), 579.4(a));
* inspections to verify: a floorperson, never the dealer who inspected (same subsections);
* counts to verify: a floorperson signs the dealer's count (637a.7(e)(4)), never the
  person who counted;
* deck changes due or overdue: the deck's time limit (589.3(c), 671a.3(c), 579.3(c),
  637a.3(c)), read from its deadline as of now, due from the timer's warning on;
* Rules Submissions awaiting approval and withdrawals awaiting confirmation: a second
  compliance officer (601a.2), never the author, submitter or requester.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import BooleanField, Case, Q, Value, When
from django.utils import timezone

from casino.actors import Actor
from casino.domain.wall_clock import format_time_of_day, format_wall_clock
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
from tables import selectors
from tables.domain.catalogue import GAMES
from tables.services import decks as deck_services
from tables.services import rules as rules_services

# The roles each command admits (its declaration in tables.commands, the API's roles=);
# tests/tables/test_console_tasks.py holds these to the declarations.
INSPECT_ROLES = (Role.DEALER,)
VERIFY_ROLES = (Role.FLOORPERSON,)
COUNT_VERIFY_ROLES = (Role.FLOORPERSON,)
REMOVE_ROLES = (Role.DEALER, Role.FLOORPERSON)
RULES_APPROVE_ROLES = (Role.COMPLIANCE,)
WITHDRAW_CONFIRM_ROLES = (Role.COMPLIANCE,)
TABLES_URL = "/console/tables/"

#: how a deck's time limit is named (its ``limit_basis``)
_LIMIT_WORDS = {"hand": "dealt by hand", "shoe": "dealt from a shoe", "poker": "at poker"}


# --- words ----------------------------------------------------------------------------

def said_at(moment: datetime | None, actor: Actor, now: datetime) -> str:
    """``6:10 AM EST`` on the property's clock for a moment of today, else with its date
    (``Nov 24, 2026, 11:50 PM EST``)."""
    if moment is None:
        return "an unrecorded time"
    zone = actor.property.time_zone
    if moment.astimezone(ZoneInfo(zone)).date() == now.astimezone(ZoneInfo(zone)).date():
        return format_time_of_day(moment, time_zone=zone)
    return format_wall_clock(moment, time_zone=zone)


def _deck(deck: Any) -> str:
    """``Red deck (batch B-1) at Table 3``."""
    colour = deck.back_colour.strip()
    return f"{colour[:1].upper()}{colour[1:]} deck (batch {deck.batch}) at {deck.table.name}"


def _game(game: str) -> str:
    g = GAMES.get(game)
    return g.name if g is not None else game


def _rules(rs: Any) -> str:
    return f"{_game(rs.game)} rules, version {rs.version_number}"


# --- decks ----------------------------------------------------------------------------

def decks_to_inspect(actor: Actor, limit: int | None = None) -> Listed:
    """Decks received at the viewer's tables, waiting for the dealer's inspection."""
    now = timezone.now()
    return listed(
        selectors.decks_to_inspect(actor.property, dealer_id=actor.user_id), limit,
        lambda d: WaitingItem(
            title=f"{_deck(d)}: inspect it",
            detail=f"Received at {said_at(d.received_at, actor, now)}",
            action="Inspect the deck",
            url=command_url(deck_services.deck_inspect.__name__, d.pk)))


def inspections_to_verify(actor: Actor, limit: int | None = None) -> Listed:
    """Inspections to verify; the dealer who inspected sees it without the step."""
    now = timezone.now()

    def item(d: Any) -> WaitingItem:
        found = (f"defects found: {'; '.join(d.defects)}" if d.defects
                 else "no defects found")
        own = d.inspected_by == actor.username
        return WaitingItem(
            title=f"{_deck(d)}: inspection to verify",
            detail=(f"Inspected by {d.inspected_by} at {said_at(d.inspected_at, actor, now)}, "
                    f"{found}" + ("; another floorperson verifies it" if own else "")),
            action="Reject the deck" if d.defects else "Verify the inspection",
            first_by=d.inspected_by or "",
            actionable=not own,
            url=command_url(deck_services.deck_inspection_verify.__name__, d.pk,
                            accepted="false" if d.defects else None))
    return listed(selectors.inspections_to_verify(actor.property), limit, item)


def counts_to_verify(actor: Actor, limit: int | None = None) -> Listed:
    """The dealer's deck counts awaiting a floorperson's signature; not offered to the
    person who counted."""
    now = timezone.now()

    def item(d: Any) -> WaitingItem:
        own = d.counted_by == actor.username
        cards = f"{d.counted_cards} cards" if d.counted_cards is not None else "the cards"
        return WaitingItem(
            title=f"{_deck(d)}: count to verify",
            detail=(f"{d.counted_by} counted {cards} at {said_at(d.counted_at, actor, now)}"
                    + ("; someone else signs the count" if own else "")),
            action="Sign the count",
            first_by=d.counted_by or "",
            actionable=not own,
            url=command_url(deck_services.deck_count_verify.__name__, d.pk))
    return listed(selectors.counts_to_verify(actor.property), limit, item)


def deck_changes_due(actor: Actor, limit: int | None = None) -> Listed:
    """Decks whose time limit ends within the warning, or has ended (overdue, first; then
    the soonest deadline). A dealer sees the decks of the tables they are assigned to
    (they act only there); a floorperson every table's. The database orders and limits
    them: a floor of 240 tables makes the few items shown, not 480."""
    now = timezone.now()
    dealer_id = None if actor.has(Role.FLOORPERSON) else actor.user_id
    rows = (selectors.deck_changes_due(actor.property, now, dealer_id=dealer_id)
            .annotate(overdue=Case(When(Q(change_due=True) | Q(deadline_at__lte=now),
                                        then=Value(True)),
                                   default=Value(False), output_field=BooleanField()))
            .order_by("-overdue", "deadline_at", "id"))

    def item(d: Any) -> WaitingItem:
        basis = _LIMIT_WORDS.get(d.limit_basis, "")
        words = f"the time limit for a deck {basis}" if basis else "its time limit"
        when = said_at(d.deadline_at, actor, now)
        return WaitingItem(
            title=f"{_deck(d)}: change {'overdue' if d.overdue else 'due'}",
            detail=(f"Past {words} since {when}" if d.overdue
                    else f"Reaches {words} at {when}"),
            action="Remove the deck",
            overdue=d.overdue,
            url=command_url(deck_services.deck_remove.__name__, d.pk, reason="time-limit"))
    return listed(rows, limit, item)


# --- Rules Submissions ----------------------------------------------------------------

def rules_to_approve(actor: Actor, limit: int | None = None) -> Listed:
    """Submitted versions awaiting a second compliance officer's approval; the author,
    an editor or the submitter sees it without the step."""
    def item(rs: Any) -> WaitingItem:
        authors = {rs.drafted_by, *rs.revised_by, rs.submitted_by} - {""}
        own = actor.username in authors
        drafted = ("" if rs.drafted_by == rs.submitted_by
                   else f"; drafted by {rs.drafted_by}")
        return WaitingItem(
            title=f"{_rules(rs)}: approval",
            detail=(f"Submitted by {rs.submitted_by}{drafted}"
                    + ("; another compliance officer approves it" if own else "")),
            action="Approve or return it",
            first_by=rs.submitted_by,
            actionable=not own,
            url=command_url(rules_services.rules_approve.__name__, rs.pk))
    return listed(selectors.rules_awaiting_approval(actor.property), limit, item)


def withdrawals_to_confirm(actor: Actor, limit: int | None = None) -> Listed:
    """Withdrawals of a version in effect awaiting a second compliance officer; the
    officer who asked sees it without the step."""
    now = timezone.now()

    def item(rs: Any) -> WaitingItem:
        own = rs.withdrawal_requested_by == actor.username
        return WaitingItem(
            title=f"{_rules(rs)}: withdrawal to confirm",
            detail=(f"Asked by {rs.withdrawal_requested_by} at "
                    f"{said_at(rs.withdrawal_requested_at, actor, now)}: {rs.withdrawal_reason}"
                    + ("; another compliance officer confirms it" if own else "")),
            action="Confirm the withdrawal",
            first_by=rs.withdrawal_requested_by,
            actionable=not own,
            url=command_url(rules_services.rules_withdraw_confirm.__name__, rs.pk))
    return listed(selectors.withdrawals_awaiting_confirmation(actor.property), limit, item)


DECK_CHANGES = task(TaskProvider(
    key="deck_changes_due", title="Deck changes due", roles=REMOVE_ROLES,
    items=deck_changes_due, order=10, list_url=TABLES_URL))
DECKS_TO_INSPECT = task(TaskProvider(
    key="decks_to_inspect", title="Decks to inspect", roles=INSPECT_ROLES,
    items=decks_to_inspect, order=20, list_url=TABLES_URL))
INSPECTIONS_TO_VERIFY = task(TaskProvider(
    key="deck_inspections_to_verify", title="Deck inspections to verify",
    roles=VERIFY_ROLES, items=inspections_to_verify, order=21, list_url=TABLES_URL))
COUNTS_TO_VERIFY = task(TaskProvider(
    key="deck_counts_to_verify", title="Deck counts to verify", roles=COUNT_VERIFY_ROLES,
    items=counts_to_verify, order=22, list_url=TABLES_URL))
RULES_TO_APPROVE = task(TaskProvider(
    key="rules_to_approve", title="Rules Submissions awaiting approval",
    roles=RULES_APPROVE_ROLES, items=rules_to_approve, order=40))
WITHDRAWALS_TO_CONFIRM = task(TaskProvider(
    key="rules_withdrawals_to_confirm", title="Rules withdrawals awaiting confirmation",
    roles=WITHDRAW_CONFIRM_ROLES, items=withdrawals_to_confirm, order=41))

DECK_TASKS = (DECK_CHANGES.key, DECKS_TO_INSPECT.key, INSPECTIONS_TO_VERIFY.key,
              COUNTS_TO_VERIFY.key)
RULES_TASKS = (RULES_TO_APPROVE.key, WITHDRAWALS_TO_CONFIRM.key)

# The Tables nav item is tables.console_pages's (one, with the page's roles).
nav(NavItem(group="Decks", label="Decks to handle", url="/console/#deck_changes_due",
            roles=tuple(dict.fromkeys(INSPECT_ROLES + VERIFY_ROLES + REMOVE_ROLES)),
            counts=DECK_TASKS, order=20))
# The Rules Submissions page (tables.console_rules) lists every version and its steps.
nav(NavItem(group="Rules", label="Rules Submissions", url="/console/rules/",
            roles=RULES_APPROVE_ROLES, counts=RULES_TASKS, order=40))
