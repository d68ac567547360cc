"""The Rules Submissions page (``/console/rules/``): every version of the property's filed
rules by game (601a.2), who drafted, submitted, approved or asked to withdraw it, and the
next steps as links to the declared commands' forms: write a draft, edit or submit it,
approve or send back a submitted one (a second officer: never offered to the one who
submitted it), ask to withdraw the version in effect and confirm or cancel that request
(a second officer confirms: never offered to the one who asked). Each version shows the
paytables it selects with their exact house edges, a negative one flagged: its approval
needs the approver's acknowledgement (tables.services.rules.rules_approve).

Without it a compliance officer had no page from which to draft, submit or ask for a
withdrawal: "Waiting for me" lists only the second steps. One query of the read model."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from casino.actors import Actor
from casino.roles import Role
from casino.scoping import property_rows
from console.registry import offer
from tables.console_access import console_page
from tables.domain.catalogue import get_table_game
from tables.domain.paytable_edges import submission_edges
from tables.models import RulesState, RulesSubmission

#: who writes drafts (tables.commands.RULES_WRITERS); the other steps are compliance's
RULES_PAGE_ROLES = (Role.COMPLIANCE, Role.ADMIN)
PAGE = "/console/rules/"


def _actions(actor: Actor, rs: RulesSubmission) -> list[dict[str, str]]:
    """The next steps the viewer may take on ``rs`` (the services refuse the rest), each
    only when the declaration's roles admit the viewer (:func:`console.registry.offer`)."""
    def _link(name: str, rs: Any, label: str) -> dict[str, str] | None:
        return offer(actor, label, name, rs.pk, next=PAGE)

    return [a for a in _steps(actor, rs, _link) if a is not None]


def _steps(actor: Actor, rs: RulesSubmission, _link: Any) -> list[dict[str, str] | None]:
    compliance = actor.has(Role.COMPLIANCE)
    if rs.state == RulesState.DRAFT:
        return [_link("rules_revise", rs, "Edit the draft"),
                _link("rules_submit", rs, "Submit for approval"),
                *([_link("rules_withdraw", rs, "Withdraw")] if compliance else [])]
    if not compliance:
        return []
    if rs.state == RulesState.SUBMITTED:
        second = [] if rs.submitted_by == actor.username else [
            _link("rules_approve", rs, "Approve")]
        return second + [_link("rules_return", rs, "Send back to draft")]
    if rs.state == RulesState.APPROVED:
        return [_link("rules_withdraw", rs, "Withdraw")]
    if rs.state == RulesState.IN_EFFECT and rs.withdrawal_requested_by:
        confirm = [] if rs.withdrawal_requested_by == actor.username else [
            _link("rules_withdraw_confirm", rs, "Confirm the withdrawal")]
        return confirm + [_link("rules_withdraw_cancel", rs, "Keep it in effect")]
    if rs.state == RulesState.IN_EFFECT:
        return [_link("rules_withdraw", rs, "Ask to withdraw this version")]
    return []


@console_page(*RULES_PAGE_ROLES)
def rules_page(request: HttpRequest, actor: Actor) -> HttpResponse:
    rows = property_rows(RulesSubmission.objects.all(), actor).order_by("game",
                                                                       "-version_number")
    games = [{"game": get_table_game(game).name, "versions": [
        {"rs": rs, "state": rs.get_state_display(), "actions": _actions(actor, rs),
         "paytables": [e.as_dict() for e in submission_edges(rs.game, rs.options)]}
        for rs in versions]} for game, versions in groupby(rows, key=lambda r: r.game)]
    return render(request, "tables/console/rules.html", {
        "games": games, "draft": offer(actor, "Write a draft", "rules_draft", next=PAGE)})
