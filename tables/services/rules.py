"""Rules Submissions (601a.2): draft → submitted → approved by a second compliance officer
→ in effect from its effective time → superseded by the next version, or withdrawn (a
version in effect only when a second compliance officer confirms one's request).

A version that has left the draft is never edited; a change is a new version.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from casino.actors import Actor, system_actor
from casino.domain.errors import ConflictError, DomainError
from casino.domain.inputs import text_input
from casino.eventstore.store import NewEvent
from casino.models import Property
from casino.roles import Role
from casino.scoping import property_rows
from tables.domain.catalogue import get_table_game
from tables.domain.paytable_edges import negative_edges
from tables.domain.rules_options import validate_options
from tables.models import RulesState, RulesSubmission
from tables.selectors import rules_in_force
from tables.services.common import allowed, locked, record, record_new

FILERS = (Role.COMPLIANCE, Role.ADMIN)
PAST_TOLERANCE = timedelta(minutes=5)


class NoRulesInEffect(ConflictError):
    """409 ``no_rules_in_effect``, carrying the table's ``rules_notice`` (why: the last
    version in effect was withdrawn, and by whom) into the problem body."""

    code = "no_rules_in_effect"

    def __init__(self, game: str, *, rules_notice: Any = None) -> None:
        super().__init__(f"no Rules Submission for {game} is in effect")
        self.extra = {"rules_notice": rules_notice}


def _text(value: Any, field: str, *, required: bool = False, limit: int = 4000) -> str:
    return text_input(value, field, limit=limit, required=required)


def rules_draft(*, actor: Actor, game: str, options: Any, notes: str = "") -> RulesSubmission:
    """A new draft version for ``game``, numbered after the property's last one."""
    role = actor.require(*FILERS)
    get_table_game(game)
    canonical = validate_options(game, options)
    notes = _text(notes, "notes")
    with transaction.atomic():
        # Serialize numbering per property: the property row is the lock.
        Property.objects.select_for_update().get(pk=actor.property.pk)
        last = property_rows(RulesSubmission.objects.filter(game=game), actor).aggregate(
            n=Max("version_number"))["n"] or 0
        rules_id = uuid.uuid4()
        record_new("rules_submission", f"rules-{rules_id}", [NewEvent(
            "RulesSubmissionDrafted",
            {"property": actor.property.licence_number, "game": game, "version_number": last + 1,
             "options": canonical, "notes": notes})], actor, role)
    return RulesSubmission.objects.get(pk=rules_id)


def _not_editable(rs: RulesSubmission) -> ConflictError:
    if rs.state == RulesState.IN_EFFECT:
        return ConflictError(f"version {rs.version_number} is in effect and can never be edited;"
                             " file a new version to supersede it", code="rules_version_in_effect")
    return ConflictError(f"version {rs.version_number} is {rs.state}; only a draft can be edited",
                         code="rules_version_not_draft")


def rules_revise(*, actor: Actor, rules_id: Any, options: Any = None,
                 notes: str | None = None) -> RulesSubmission:
    role = actor.require(*FILERS)
    with transaction.atomic():
        rs = locked(RulesSubmission, rules_id, actor, what="rules_submission")
        if rs.state != RulesState.DRAFT:
            raise _not_editable(rs)
        canonical = validate_options(rs.game, options) if options is not None else rs.options
        record(rs, [NewEvent("RulesSubmissionRevised", {
            "options": canonical,
            "notes": _text(notes, "notes") if notes is not None else rs.notes})], actor, role)
    return RulesSubmission.objects.get(pk=rs.pk)


def rules_submit(*, actor: Actor, rules_id: Any) -> RulesSubmission:
    role = actor.require(*FILERS)
    with transaction.atomic():
        rs = locked(RulesSubmission, rules_id, actor, what="rules_submission")
        allowed(rs, rs.submit, code="rules_wrong_state",
                message=f"version {rs.version_number} is {rs.state}; only a draft is submitted")
        # Options are checked again: the chapter's rules may have been tightened since.
        validate_options(rs.game, rs.options)
        record(rs, [NewEvent("RulesSubmissionSubmitted", {})], actor, role)
    return RulesSubmission.objects.get(pk=rs.pk)


def _compliance_step(actor: Actor, rules_id: Any, reason: str, *, transition: str,
                     event: str, refusal: str) -> RulesSubmission:
    """A compliance officer moves a version along with a stated reason."""
    role = actor.require(Role.COMPLIANCE)
    reason = _text(reason, "reason", required=True)
    with transaction.atomic():
        rs = locked(RulesSubmission, rules_id, actor, what="rules_submission")
        allowed(rs, getattr(rs, transition), code="rules_wrong_state",
                message=f"version {rs.version_number} is {rs.state}{refusal}")
        record(rs, [NewEvent(event, {"reason": reason})], actor, role)
    return RulesSubmission.objects.get(pk=rs.pk)


def rules_return(*, actor: Actor, rules_id: Any, reason: str) -> RulesSubmission:
    """Compliance sends a submitted version back to draft with a reason."""
    return _compliance_step(actor, rules_id, reason, transition="return_to_draft",
                            event="RulesSubmissionReturned", refusal=", not submitted")


def _parse_time(value: Any, field: str) -> datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(str(value))
        except ValueError:
            raise DomainError(f"{field} must be an ISO 8601 date-time", code="invalid_input",
                              field=field) from None
    if moment.tzinfo is None:
        raise DomainError(f"{field} must carry a time zone offset (e.g. Z or -05:00)",
                          code="invalid_input", field=field)
    return moment


class NegativeHouseEdgeUnacknowledged(ConflictError):
    """409 ``negative_house_edge_unacknowledged``, naming the paytables and their edges in
    the problem body."""

    code = "negative_house_edge_unacknowledged"

    def __init__(self, flagged: list[dict[str, Any]]) -> None:
        names = ", ".join(f"{e['paytable']} ({e['house_edge_percent']})" for e in flagged)
        super().__init__(f"the Rules Submission selects a paytable with a negative house "
                         f"edge: {names}; approve it only with "
                         "acknowledge_negative_house_edge")
        self.extra = {"negative_house_edges": flagged}


def _acknowledged_edges(rs: RulesSubmission, acknowledged: bool) -> dict[str, Any]:
    """What the approval event records of the selected paytables that pay back more than
    is wagered (601a.2, 589.12(b)): refused unless the approver acknowledges them; the
    acknowledgement's author is the event's actor."""
    flagged = [e.as_dict() for e in negative_edges(rs.game, rs.options)]
    if not flagged:
        return {}
    if not acknowledged:
        raise NegativeHouseEdgeUnacknowledged(flagged)
    return {"negative_house_edges_acknowledged": [
        {k: e[k] for k in ("paytable", "section", "house_edge", "house_edge_percent")}
        for e in flagged]}


def rules_approve(*, actor: Actor, rules_id: Any, effective_at: Any = None,
                  acknowledge_negative_house_edge: Any = False) -> RulesSubmission:
    """Approve a submitted version; it takes effect at ``effective_at`` (default: now).

    Four eyes: the approver is a compliance officer who neither drafted, edited nor
    submitted this version. A version selecting a paytable with a negative house edge
    (:mod:`tables.domain.paytable_edges`) is approved only with
    ``acknowledge_negative_house_edge``, recorded on the approval.
    """
    role = actor.require(Role.COMPLIANCE)
    if not isinstance(acknowledge_negative_house_edge, bool):
        raise DomainError("acknowledge_negative_house_edge must be true or false",
                          code="invalid_acknowledgement",
                          field="acknowledge_negative_house_edge")
    now = timezone.now()
    when = _parse_time(effective_at, "effective_at") or now
    if when < now - PAST_TOLERANCE:
        raise DomainError("the effective time is in the past", code="effective_time_in_past",
                          field="effective_at")
    when = max(when, now)
    with transaction.atomic():
        rs = locked(RulesSubmission, rules_id, actor, what="rules_submission")
        allowed(rs, rs.approve, code="rules_wrong_state",
                message=f"version {rs.version_number} is {rs.state}, not submitted")
        if actor.username == rs.submitted_by:
            raise ConflictError("the submitter may not approve their own submission",
                                code="approver_is_submitter")
        if actor.username == rs.drafted_by or actor.username in rs.revised_by:
            raise ConflictError("an author of this version may not approve it",
                                code="approver_is_author")
        acknowledged = _acknowledged_edges(rs, acknowledge_negative_house_edge)
        record(rs, [NewEvent("RulesSubmissionApproved",
                             {"effective_at": when.isoformat(), **acknowledged})], actor, role)
        rs.refresh_from_db()
        if when <= now:
            _take_effect(rs, now, actor)
        else:
            from tables import timers

            timers.schedule_rules_effect(rs.pk, when)
    return RulesSubmission.objects.get(pk=rs.pk)


def _take_effect(rs: RulesSubmission, at: datetime, actor: Actor) -> None:
    """Put ``rs`` in effect, superseding the version in effect; a version overtaken by a
    later one already in effect is superseded instead of taking effect."""
    # One version takes effect at a time per property: the property row is the lock.
    Property.objects.select_for_update().get(pk=rs.property_id)
    current = (RulesSubmission.objects.select_for_update()
               .filter(property_id=rs.property_id, game=rs.game, state=RulesState.IN_EFFECT)
               .first())
    if current is not None and current.version_number > rs.version_number:
        record(rs, [NewEvent("RulesSubmissionSuperseded",
                             {"at": at.isoformat(), "superseded_by": str(current.pk),
                              "before_taking_effect": True})], actor, None)
        return
    if current is not None:
        # A withdrawal asked of the version superseded simply ends with it.
        ended = {"withdrawal_request_ended": True} if current.withdrawal_pending else {}
        record(current, [NewEvent("RulesSubmissionSuperseded",
                                  {"at": at.isoformat(), "superseded_by": str(rs.pk),
                                   **ended})],
               actor, None)
    record(rs, [NewEvent("RulesSubmissionTookEffect", {"at": at.isoformat()})], actor, None)


def rules_activate_due(*, property: Property, game: str | None = None,
                       now: datetime | None = None) -> list[str]:
    """Put in effect every approved version whose effective time has come (oldest first).
    Safe to run any number of times; called only by the timer and the beat sweep
    (:mod:`tables.services.timers`). A read or a command that needs the rules in force
    never calls it (reads never write): it reads :func:`rules_in_force` as of now, which
    already counts a due version the timer has not recorded yet."""
    now = now or timezone.now()
    due = RulesSubmission.objects.filter(property=property, state=RulesState.APPROVED,
                                         effective_at__lte=now)
    if game:
        due = due.filter(game=game)
    done = []
    for pk in due.order_by("effective_at", "version_number").values_list("pk", flat=True):
        with transaction.atomic():
            rs = RulesSubmission.objects.select_for_update().get(pk=pk)
            if rs.state != RulesState.APPROVED:
                continue  # another process got there first
            _take_effect(rs, now, system_actor(property, "rules-effective"))
            done.append(str(pk))
    return done


def rules_withdraw(*, actor: Actor, rules_id: Any, reason: str) -> RulesSubmission:
    """Withdraw a version, with a reason.

    A version no table depends on (draft, submitted, approved but not yet in effect) is
    withdrawn at once. A version **in effect** is not: tables of its game would be left
    without rules, so like its approval (601a.2) it takes two compliance officers. This
    records the request (``RulesSubmissionWithdrawalRequested``) and the version stays in
    effect until another officer confirms (:func:`rules_withdraw_confirm`) or anyone
    cancels (:func:`rules_withdraw_cancel`). One request at a time.
    """
    role = actor.require(Role.COMPLIANCE)
    reason = _text(reason, "reason", required=True)
    with transaction.atomic():
        rs = locked(RulesSubmission, rules_id, actor, what="rules_submission")
        if rs.state != RulesState.IN_EFFECT:
            allowed(rs, rs.withdraw, code="rules_wrong_state",
                    message=f"version {rs.version_number} is {rs.state} and cannot be withdrawn")
            record(rs, [NewEvent("RulesSubmissionWithdrawn", {"reason": reason})], actor, role)
        else:
            if rs.withdrawal_pending:
                raise ConflictError(
                    f"{rs.withdrawal_requested_by} has already asked to withdraw version "
                    f"{rs.version_number}; a second compliance officer confirms or anyone "
                    "cancels it", code="withdrawal_already_requested")
            allowed(rs, rs.request_withdrawal, code="rules_wrong_state",
                    message=f"version {rs.version_number} is {rs.state}")
            record(rs, [NewEvent("RulesSubmissionWithdrawalRequested", {"reason": reason})],
                   actor, role)
    return RulesSubmission.objects.get(pk=rs.pk)


def _pending_withdrawal(actor: Actor, rules_id: Any) -> RulesSubmission:
    """The locked version, refused with 409 ``withdrawal_not_requested`` unless a
    withdrawal of it (in effect) is waiting for a second officer."""
    rs = locked(RulesSubmission, rules_id, actor, what="rules_submission")
    if not rs.withdrawal_pending:
        raise ConflictError(f"no withdrawal of version {rs.version_number} ({rs.state}) is "
                            "waiting for confirmation", code="withdrawal_not_requested")
    return rs


def rules_withdraw_confirm(*, actor: Actor, rules_id: Any) -> RulesSubmission:
    """A second compliance officer confirms the requested withdrawal of a version in
    effect: it leaves effect now, and rounds of its game are refused until another
    version takes effect.

    Four eyes (601a.2): only the officer who asked is barred from confirming. The officer
    who approved the version may confirm (approving it and ending it are not one
    person's say: someone else asked). The event carries the request (reason, who, when)
    so that it reads alone.
    """
    role = actor.require(Role.COMPLIANCE)
    with transaction.atomic():
        rs = _pending_withdrawal(actor, rules_id)
        if actor.username == rs.withdrawal_requested_by:
            raise ConflictError("the officer who asked for the withdrawal may not confirm it; "
                                "another compliance officer must",
                                code="withdrawal_by_requester")
        allowed(rs, rs.confirm_withdrawal, code="rules_wrong_state",
                message=f"version {rs.version_number} is {rs.state}")
        asked_at = rs.withdrawal_requested_at
        record(rs, [NewEvent("RulesSubmissionWithdrawn", {
            "reason": rs.withdrawal_reason, "requested_by": rs.withdrawal_requested_by,
            "requested_at": asked_at.isoformat() if asked_at else None})], actor, role)
    return RulesSubmission.objects.get(pk=rs.pk)


def rules_withdraw_cancel(*, actor: Actor, rules_id: Any, reason: str) -> RulesSubmission:
    """Cancel a requested withdrawal, with a reason; the version stays in effect. Any
    compliance officer may, the one who asked included: keeping rules in effect needs no
    second pair of eyes."""
    role = actor.require(Role.COMPLIANCE)
    reason = _text(reason, "reason", required=True)
    with transaction.atomic():
        rs = _pending_withdrawal(actor, rules_id)
        allowed(rs, rs.cancel_withdrawal, code="rules_wrong_state",
                message=f"version {rs.version_number} is {rs.state}")
        record(rs, [NewEvent("RulesSubmissionWithdrawalCancelled", {"reason": reason})],
               actor, role)
    return RulesSubmission.objects.get(pk=rs.pk)


def rules_in_effect(property: Property, game: str) -> RulesSubmission | None:
    """The version in force now for ``game`` (:func:`tables.selectors.rules_in_force`):
    read as of now, never activating anything."""
    return rules_in_force(property, game)
