"""The Rules Submissions page (tables.console_rules), which the compliance end-to-end test
needed (no page led to drafting, submitting or asking a withdrawal): who sees it, only
the property's own versions, and the second step of a two-person step never offered to
the person who took the first (§ 601a.2; tables.services.rules)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from casino.actors import actor_of
from casino.services import property_register
from tables.domain.rules_options import example_options
from tables.services import rules
from tests.console.conftest import console_client  # noqa: F401

pytestmark = pytest.mark.django_db

URL = "/console/rules/"


def _links(body: str) -> set[str]:
    import html
    import re

    return {html.unescape(m) for m in
            re.findall(r'aria-label="([^"]+: Hold&#x27;em version \d+)"', body)}


def test_who_sees_it_and_what_each_officer_is_offered(console_client: Callable,  # noqa: F811
                                                      make_staff: Callable) -> None:
    cleo = console_client("compliance")
    dana = console_client("compliance")
    rs = rules.rules_draft(actor=actor_of(cleo.user), game="holdem",
                           options=example_options("holdem"))
    r = cleo.get(URL)
    assert r.status_code == 200
    assert _links(r.content.decode()) == {"Edit the draft: Hold'em version 1",
                                          "Submit for approval: Hold'em version 1",
                                          "Withdraw: Hold'em version 1"}
    rules.rules_submit(actor=actor_of(cleo.user), rules_id=rs.pk)
    # the submitter may send it back, not approve it; the second officer may do both
    assert _links(cleo.get(URL).content.decode()) == {
        "Send back to draft: Hold'em version 1"}
    assert _links(dana.get(URL).content.decode()) == {
        "Approve: Hold'em version 1", "Send back to draft: Hold'em version 1"}
    rules.rules_approve(actor=actor_of(dana.user), rules_id=rs.pk)
    assert _links(dana.get(URL).content.decode()) == {
        "Ask to withdraw this version: Hold'em version 1"}
    rules.rules_withdraw(actor=actor_of(dana.user), rules_id=rs.pk, reason="leaving")
    # who asked may keep it in effect, not confirm; the other officer may confirm
    assert _links(dana.get(URL).content.decode()) == {
        "Keep it in effect: Hold'em version 1"}
    assert _links(cleo.get(URL).content.decode()) == {
        "Confirm the withdrawal: Hold'em version 1", "Keep it in effect: Hold'em version 1"}


def test_a_role_without_it_is_refused_and_another_propertys_rules_are_not_shown(
        console_client: Callable, make_staff: Callable) -> None:  # noqa: F811
    assert console_client("dealer").get(URL).status_code == 403
    other = property_register(licence_number="PA-TEST-2", name="Other", system="test")
    theirs = actor_of(make_staff("compliance", property=other))
    rules.rules_draft(actor=theirs, game="holdem", options=example_options("holdem"))
    body = console_client("compliance").get(URL).content.decode()
    assert "No Rules Submission has been filed yet." in body and _links(body) == set()
