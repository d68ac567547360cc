"""Compliance's main task end to end in Chromium, through the console's pages only (issue
23, "Done when"): one officer drafts a Rules Submission (its options in the JSON box) and
submits it; a second officer approves it from "Waiting for me" (both log in through the
real login form with a TOTP code, the second factor compliance needs); then the version
in effect is withdrawn: asked by one officer, confirmed by the other.

The approval is done with the keyboard alone (Tab and Enter, no click) on a 768 px
tablet. The events the pages appended are compared with the same steps taken through the
API by two other officers on the next version of the same game, and with a list worked
by hand.

Rules: § 601a.2 (the filed rules of each game), the two-person approval and withdrawal of
tables.services.rules (nobody approves their own submission or confirms their own
withdrawal request)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from casino.services import property_register
from tables.domain.rules_options import example_options
from tables.models import RulesSubmission
from tests.console.conftest import console_page  # noqa: F401  (a Chromium page, logged in)
from tests.e2e._console import (
    VIEWPORT,
    Visited,
    events_since,
    mark,
    messages,
    open_waiting_item,
    shot,
    submit,
)

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

GAME = "holdem"


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(pk=user.pk))
    return client


def _press_until_focused(page: Any, selector: str, *, limit: int = 80) -> None:
    """Tab until the element ``selector`` has the focus (the keyboard alone)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
    raise AssertionError(f"{selector} never took the focus after {limit} Tabs")


def _shape(events: list[Any], people: dict[str, str]) -> list[tuple]:
    """Each event's type, its data without ids, times and version numbers (the options,
    the reason, the people by their part), and the role and person recording it."""
    volatile = {"rules_id", "id", "version_number", "effective_at", "took_effect_at",
                "at", "requested_at", "superseded_by", "previous_rules_id", "supersedes"}

    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: clean(v) for k, v in sorted(value.items()) if k not in volatile}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return people.get(value, value) if isinstance(value, str) else value

    return [(e.stream_type, e.type, clean(e.data), e.metadata.get("role"),
             people.get(e.metadata.get("actor", ""), "?")) for e in events]


def test_compliance_approves_a_rules_submission_and_confirms_a_withdrawal(
        console_page) -> None:  # noqa: F811
    property_register(licence_number="PA-TEST-1", name="Test Casino", system="test")
    options = example_options(GAME)
    visited = Visited()

    # --- the first officer drafts the rules from the Rules Submissions page and submits
    cleo = console_page("compliance", username="cleo-compliance")
    cleo.set_viewport_size(VIEWPORT)
    visited.check(cleo, "home (compliance)")
    cleo.get_by_role("link", name="Rules Submissions").click()
    cleo.wait_for_url("**/console/rules/")
    visited.check(cleo, "rules page (empty)")
    with cleo.expect_navigation():
        cleo.get_by_role("button", name="Write a new draft").click()
    cleo.select_option("#f-game", GAME)
    cleo.fill("#f-options", json.dumps(options, indent=1))
    cleo.fill("#f-notes", "Hold'em as the example submission: $4/$8 fixed limit.")
    visited.check(cleo, "draft form")
    shot(cleo, "floor-rules-draft")
    before = mark()
    submit(cleo)
    assert "Recorded: Write the draft" in messages(cleo)
    cleo.wait_for_url("**/console/rules/")
    with cleo.expect_navigation():
        cleo.get_by_role("link", name="Submit for approval: Hold'em version 1").click()
    visited.check(cleo, "submit form")
    submit(cleo)
    assert "Recorded: Submit for approval" in messages(cleo)
    visited.check(cleo, "rules page (submitted)")
    shot(cleo, "floor-rules-submitted")
    # the submitter is not offered the approval: § 601a.2 as tables.services.rules.rules_approve
    # applies it (a second compliance officer, approver_is_submitter)
    assert cleo.get_by_role("link", name="Approve: Hold'em version 1").count() == 0
    drafted = events_since(before)

    # --- the second officer, on a 768 px tablet and with the keyboard alone, approves it
    # from "Waiting for me"
    dana = console_page("compliance", username="dana-compliance")
    dana.set_viewport_size({"width": 768, "height": 1024})
    dana.locator("section#rules_to_approve .waiting-item").first.wait_for()
    visited.check(dana, "home with a Rules Submission to approve")
    shot(dana, "floor-rules-to-approve")
    assert dana.evaluate("document.documentElement.scrollWidth"
                         " - document.documentElement.clientWidth") <= 0
    before = mark()
    _press_until_focused(dana, "section#rules_to_approve a.waiting-action")
    with dana.expect_navigation():
        dana.keyboard.press("Enter")
    dana.wait_for_selector("form.command-form")
    visited.check(dana, "approve form")
    shot(dana, "floor-rules-approve")
    _press_until_focused(dana, "form.command-form .command-actions button[type=submit]")
    with dana.expect_navigation():
        dana.keyboard.press("Enter")
    assert "Recorded: Approve the Rules Submission" in messages(dana)
    assert dana.locator("section#rules_to_approve .waiting-item").count() == 0
    approved = events_since(before)
    rs = RulesSubmission.objects.get(game=GAME, version_number=1)
    assert (rs.state, rs.approved_by) == ("in_effect", "dana-compliance")

    # --- dana asks to withdraw the version in effect from the Rules Submissions page
    dana.set_viewport_size(VIEWPORT)
    dana.goto(dana.server + "/console/rules/")
    before = mark()
    with dana.expect_navigation():
        dana.get_by_role("link", name="Ask to withdraw this version: Hold'em "
                                       "version 1").click()
    dana.fill("#f-reason", "The game leaves the floor at the end of the month.")
    visited.check(dana, "withdraw form")
    shot(dana, "floor-rules-withdraw")
    submit(dana)
    assert "Recorded: Withdraw this version" in messages(dana)
    visited.check(dana, "rules page (withdrawal asked)")
    # she asked: the confirmation is the other officer's
    assert dana.get_by_role("link", name="Confirm the withdrawal: Hold'em "
                                         "version 1").count() == 0
    asked = events_since(before)

    # --- cleo confirms it from "Waiting for me"
    cleo.goto(cleo.server + "/console/")
    cleo.locator("section#rules_withdrawals_to_confirm .waiting-item").first.wait_for()
    visited.check(cleo, "home with a withdrawal to confirm")
    shot(cleo, "floor-rules-withdrawal-to-confirm")
    before = mark()
    open_waiting_item(cleo, "rules_withdrawals_to_confirm", "Confirm the withdrawal")
    visited.check(cleo, "confirm form")
    submit(cleo)
    assert "Recorded: Confirm the withdrawal" in messages(cleo)
    confirmed = events_since(before)
    rs.refresh_from_db()
    assert (rs.state, rs.withdrawn_by) == ("withdrawn", "cleo-compliance")
    assert visited.problems == {}, visited.problems

    # --- the same steps through the API by two other officers: version 2 of the game
    eve = console_page.staff("compliance", username="eve-compliance")
    fay = console_page.staff("compliance", username="fay-compliance")
    base = "/api/v1/rules-submissions/"
    before = mark()
    r = _api(eve).post(base, {"game": GAME, "options": options,
                              "notes": "Hold'em as the example submission: $4/$8 fixed "
                                       "limit."}, format="json")
    assert r.status_code == 201, r.json()
    pk = r.json()["id"]
    assert _api(eve).post(f"{base}{pk}/submit/", {}, format="json").status_code == 200
    drafted_api = events_since(before)
    before = mark()
    r = _api(fay).post(f"{base}{pk}/approve/", {}, format="json")
    assert r.status_code == 200, r.json()
    approved_api = events_since(before)
    before = mark()
    r = _api(fay).post(f"{base}{pk}/withdraw/",
                       {"reason": "The game leaves the floor at the end of the month."},
                       format="json")
    assert r.status_code == 200, r.json()
    asked_api = events_since(before)
    before = mark()
    r = _api(eve).post(f"{base}{pk}/withdraw/confirm/", {}, format="json")
    assert r.status_code == 200, r.json()
    confirmed_api = events_since(before)

    pages = {"cleo-compliance": "first officer", "dana-compliance": "second officer"}
    api = {"eve-compliance": "first officer", "fay-compliance": "second officer"}
    for by_pages, by_api in ((drafted, drafted_api), (approved, approved_api),
                             (asked, asked_api), (confirmed, confirmed_api)):
        assert _shape(by_pages, pages) == _shape(by_api, api)
    # worked by hand: drafted and submitted by cleo; approved by dana, in effect at once
    # (no effective time given); the withdrawal asked by dana and confirmed by cleo, the
    # request's reason and asker carried into the withdrawal
    reason = "The game leaves the floor at the end of the month."
    assert [(e.type, e.metadata["actor"], e.metadata.get("role"))
            for e in drafted + approved + asked + confirmed] == [
        ("RulesSubmissionDrafted", "cleo-compliance", "compliance"),
        ("RulesSubmissionSubmitted", "cleo-compliance", "compliance"),
        ("RulesSubmissionApproved", "dana-compliance", "compliance"),
        ("RulesSubmissionTookEffect", "dana-compliance", None),
        ("RulesSubmissionWithdrawalRequested", "dana-compliance", "compliance"),
        ("RulesSubmissionWithdrawn", "cleo-compliance", "compliance")]
    assert (drafted[0].data["game"], drafted[0].data["options"],
            drafted[0].data["version_number"]) == (GAME, options, 1)
    assert asked[0].data == {"reason": reason}
    assert (confirmed[0].data["reason"], confirmed[0].data["requested_by"]) == (
        reason, "dana-compliance")
