"""Withdrawing the Rules Submission in effect takes two compliance officers (security
audit: one officer alone withdrew the rules of every demo game and left open tables
without rules). One asks, the version stays in effect; another confirms, and it leaves
effect. A version no table depends on is still withdrawn in one step.

The regulation cited is the one that makes a round impossible without a Rules Submission
in effect: at Lunar Poker (2013) the instant payout is paid from "one of the following
paytables, selected by the certificate holder in its Rules Submission" (§ 589.12(a)).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from casino.domain.errors import ConflictError
from casino.eventstore import projections
from casino.eventstore.store import NewEvent, head, read_stream, stream_version
from casino.roles import RoleRequired
from tables.domain.rules_options import example_options
from tables.models import RulesState, RulesSubmission
from tables.services import rounds, rules
from tables.services.common import record
from tests.tables._api import ok, problem

pytestmark = pytest.mark.django_db
#: the 589 example selects a Super Wager paytable with a negative house edge (589.6(d)(7)
#: read by the letter): its approval takes the approver's acknowledgement
ACK = {"acknowledge_negative_house_edge": True}
GAME = "lunar-poker-589"
V1 = "/api/v1"


def _in_effect(game: str = GAME) -> RulesSubmission:
    return RulesSubmission.objects.get(game=game, state=RulesState.IN_EFFECT)


def _submitted(crew: dict[str, Any], game: str = GAME, **changes: Any) -> RulesSubmission:
    rs = rules.rules_draft(actor=crew["compliance"], game=game,
                           options={**example_options(game), **changes})
    return rules.rules_submit(actor=crew["compliance"], rules_id=rs.pk)


def _refused(code: str, call: Callable[[], Any], stream_id: str | None = None) -> None:
    """``call`` is refused with 409 ``code`` and appends nothing, to the stream or at all."""
    before, version = head(), stream_version(stream_id) if stream_id else None
    with pytest.raises(ConflictError) as err:
        call()
    assert err.value.code == code
    assert head() == before
    if stream_id:
        assert stream_version(stream_id) == version


def _play_round(crew: dict[str, Any], table: Any, deck: Any) -> Any:
    rnd = rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    rounds.round_close(actor=crew["dealer"], round_id=rnd.pk)
    return rnd


@pytest.fixture
def playing(crew: dict[str, Any], open_table: Callable, deck_in_play: Callable
            ) -> tuple[Any, Any, RulesSubmission]:
    """An open Lunar Poker (589) table with a deck in play, and its rules in effect."""
    table = open_table(GAME)
    return table, deck_in_play(table), _in_effect()


# --- services ------------------------------------------------------------------------

def test_one_officers_withdrawal_leaves_the_rules_in_effect_and_rounds_open(
        crew, playing) -> None:  # noqa: ANN001
    """§ 589.12(a): the paytable a round pays from is the Rules Submission's, so one
    compliance officer alone cannot take it away from the tables: the request leaves the
    version in effect, and the officer who asked cannot confirm."""
    table, deck, rs = playing
    asked = rules.rules_withdraw(actor=crew["compliance"], rules_id=rs.pk,
                                 reason="paytable misprinted")
    assert asked.state == RulesState.IN_EFFECT and asked.withdrawal_pending
    assert (asked.withdrawal_requested_by, asked.withdrawal_reason) == (
        crew["compliance"].username, "paytable misprinted")
    assert asked.withdrawal_requested_at is not None and asked.withdrawn_by == ""
    assert read_stream(rs.stream_id)[-1].type == "RulesSubmissionWithdrawalRequested"
    assert _play_round(crew, table, deck).rules_id == rs.pk  # rounds still open

    _refused("withdrawal_by_requester",
             lambda: rules.rules_withdraw_confirm(actor=crew["compliance"], rules_id=rs.pk),
             rs.stream_id)
    assert _in_effect().pk == rs.pk


def test_a_second_officer_confirms_and_the_next_round_is_refused(
        crew, playing, staff) -> None:  # noqa: ANN001
    """§ 589.12(a): with the Rules Submission withdrawn there is no selected paytable, so
    the next round at an open table of the game is refused (409 no_rules_in_effect)."""
    table, deck, rs = playing
    second = staff("compliance")
    rules.rules_withdraw(actor=crew["compliance"], rules_id=rs.pk, reason="game discontinued")
    gone = rules.rules_withdraw_confirm(actor=second, rules_id=rs.pk)
    assert gone.state == RulesState.WITHDRAWN and not gone.withdrawal_pending
    assert (gone.withdrawal_requested_by, gone.withdrawn_by) == (
        crew["compliance"].username, second.username)
    assert gone.ended_at is not None
    withdrawn = read_stream(rs.stream_id)[-1]
    assert (withdrawn.type, withdrawn.metadata["actor"]) == ("RulesSubmissionWithdrawn",
                                                            second.username)
    assert withdrawn.data["requested_by"] == crew["compliance"].username
    assert withdrawn.data["reason"] == "game discontinued"
    assert rules.rules_in_effect(crew["admin"].property, GAME) is None
    _refused("no_rules_in_effect", lambda: rounds.round_open(
        actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk))


def test_the_officer_who_approved_may_confirm(crew, playing) -> None:  # noqa: ANN001
    """Issue 11, four eyes: only the officer who asked is barred; the approver of the version is
    another pair of eyes on its withdrawal."""
    _, _, rs = playing
    assert rs.approved_by == crew["approver"].username
    rules.rules_withdraw(actor=crew["compliance"], rules_id=rs.pk, reason="discontinued")
    rs = rules.rules_withdraw_confirm(actor=crew["approver"], rules_id=rs.pk)
    assert rs.state == RulesState.WITHDRAWN and rs.withdrawn_by == crew["approver"].username


def test_a_version_not_in_effect_is_withdrawn_in_one_step(crew, playing) -> None:  # noqa: ANN001
    """§ 589.12(a): no table pays from a version not in effect, so a submitted version,
    and an approved one not yet in effect, leave with one officer; the version in effect
    is untouched."""
    _, _, current = playing
    submitted = _submitted(crew, instant_paytable="B")
    later = (timezone.now() + timedelta(hours=2)).isoformat()
    approved = rules.rules_approve(actor=crew["approver"], **ACK, effective_at=later,
                                   rules_id=_submitted(crew, instant_paytable="C").pk)
    assert approved.state == RulesState.APPROVED
    for rs in (submitted, approved):
        rs = rules.rules_withdraw(actor=crew["approver"], rules_id=rs.pk, reason="replaced")
        assert rs.state == RulesState.WITHDRAWN
        assert (rs.withdrawal_requested_by, rs.withdrawn_by, rs.withdrawal_reason) == (
            crew["approver"].username, crew["approver"].username, "replaced")
        assert [e.type for e in read_stream(rs.stream_id)][-1] == "RulesSubmissionWithdrawn"
    assert _in_effect().pk == current.pk and not _in_effect().withdrawal_pending


def test_a_request_is_cancelled_by_anyone_and_may_be_made_again(crew, playing, staff
                                                                 ) -> None:  # noqa: ANN001
    """Issue 11, four eyes: cancelling keeps the paytable in effect, so it needs no second
    officer; the officer who asked may cancel, and a new request starts over."""
    _, _, rs = playing
    rules.rules_withdraw(actor=crew["compliance"], rules_id=rs.pk, reason="typo?")
    kept = rules.rules_withdraw_cancel(actor=crew["compliance"], rules_id=rs.pk,
                                       reason="no typo after all")
    assert kept.state == RulesState.IN_EFFECT and not kept.withdrawal_pending
    assert (kept.withdrawal_requested_by, kept.withdrawal_reason,
            kept.withdrawal_requested_at) == ("", "", None)
    cancelled = read_stream(rs.stream_id)[-1]
    assert (cancelled.type, cancelled.data) == ("RulesSubmissionWithdrawalCancelled",
                                                {"reason": "no typo after all"})
    # Cancelled: nothing to confirm. A new request by another officer, cancelled by a third.
    _refused("withdrawal_not_requested",
             lambda: rules.rules_withdraw_confirm(actor=crew["approver"], rules_id=rs.pk),
             rs.stream_id)
    rules.rules_withdraw(actor=crew["approver"], rules_id=rs.pk, reason="discontinued")
    assert _in_effect().withdrawal_requested_by == crew["approver"].username
    rules.rules_withdraw_cancel(actor=staff("compliance"), rules_id=rs.pk, reason="kept")
    assert not _in_effect().withdrawal_pending


def test_a_second_request_while_one_is_pending_is_refused(crew, playing) -> None:  # noqa: ANN001
    """Issue 11, four eyes: one request at a time; a second officer's answer is to confirm or
    cancel, not to ask again."""
    _, _, rs = playing
    rules.rules_withdraw(actor=crew["compliance"], rules_id=rs.pk, reason="discontinued")
    for officer in (crew["compliance"], crew["approver"]):
        _refused("withdrawal_already_requested", lambda o=officer: rules.rules_withdraw(
            actor=o, rules_id=rs.pk, reason="again"), rs.stream_id)
    assert _in_effect().withdrawal_requested_by == crew["compliance"].username


def test_confirming_or_cancelling_without_a_request_is_refused(crew, playing) -> None:  # noqa: ANN001
    """Issue 11, four eyes: a confirmation takes the paytable away only when someone asked."""
    _, _, rs = playing
    draft = rules.rules_draft(actor=crew["compliance"], game=GAME,
                              options=example_options(GAME))
    for version in (rs, draft):
        _refused("withdrawal_not_requested", lambda v=version: rules.rules_withdraw_confirm(
            actor=crew["approver"], rules_id=v.pk), version.stream_id)
        _refused("withdrawal_not_requested", lambda v=version: rules.rules_withdraw_cancel(
            actor=crew["approver"], rules_id=v.pk, reason="x"), version.stream_id)
    assert _in_effect().pk == rs.pk


def test_only_compliance_asks_confirms_or_cancels(crew, playing) -> None:  # noqa: ANN001
    """Issue 11, four eyes: dealers, floorpersons and admins do not take rules out of effect."""
    _, _, rs = playing
    before = head()
    for who in ("dealer", "floor", "admin"):
        with pytest.raises(RoleRequired):
            rules.rules_withdraw(actor=crew[who], rules_id=rs.pk, reason="x")
        with pytest.raises(RoleRequired):
            rules.rules_withdraw_confirm(actor=crew[who], rules_id=rs.pk)
        with pytest.raises(RoleRequired):
            rules.rules_withdraw_cancel(actor=crew[who], rules_id=rs.pk, reason="x")
    assert head() == before


def test_superseding_a_version_ends_the_request(crew, playing) -> None:  # noqa: ANN001
    """§ 589.12(a): the next version's paytable takes over; the request on the old one
    simply ends, and no notice is left at the tables."""
    table, _, rs = playing
    rules.rules_withdraw(actor=crew["compliance"], rules_id=rs.pk, reason="new paytable")
    new = rules.rules_approve(actor=crew["approver"], **ACK,
                              rules_id=_submitted(crew, instant_paytable="B").pk)
    rs.refresh_from_db()
    assert (rs.state, new.state) == (RulesState.SUPERSEDED, RulesState.IN_EFFECT)
    assert (rs.withdrawal_requested_by, rs.withdrawal_reason) == ("", "")
    superseded = read_stream(rs.stream_id)[-1]
    assert superseded.data["withdrawal_request_ended"] is True
    _refused("withdrawal_not_requested",
             lambda: rules.rules_withdraw_confirm(actor=crew["approver"], rules_id=rs.pk),
             rs.stream_id)
    from tables import selectors

    assert selectors.rules_notice(table) is None


def test_a_one_step_withdrawal_recorded_before_still_replays(crew, playing) -> None:  # noqa: ANN001
    """§ 589.12(a): events recorded by the one-step withdrawal (a version in effect
    withdrawn by one officer) stay history the read model rebuilds: that officer both
    asked and confirmed."""
    _, _, rs = playing
    record(rs, [NewEvent("RulesSubmissionWithdrawn", {"reason": "old style"})],
           crew["compliance"], "compliance")
    rs.refresh_from_db()
    assert rs.state == RulesState.WITHDRAWN
    assert rs.withdrawal_requested_by == rs.withdrawn_by == crew["compliance"].username
    projections.rebuild("tables")
    again = RulesSubmission.objects.get(pk=rs.pk)
    assert model_to_dict(again) == model_to_dict(rs)


def test_rebuild_reproduces_the_withdrawal_fields(crew, playing, staff) -> None:  # noqa: ANN001
    """§ 589.12(a): who asked, why, when and who confirmed are rebuilt from the events."""
    _, _, rs = playing
    rules.rules_withdraw(actor=crew["compliance"], rules_id=rs.pk, reason="one")
    rules.rules_withdraw_cancel(actor=crew["approver"], rules_id=rs.pk, reason="no")
    rules.rules_withdraw(actor=crew["approver"], rules_id=rs.pk, reason="two")
    rules.rules_withdraw_confirm(actor=staff("compliance"), rules_id=rs.pk)
    other = rules.rules_approve(actor=crew["approver"], **ACK,
                                rules_id=_submitted(crew, "five-card-hi-lo").pk)
    rules.rules_withdraw(actor=crew["compliance"], rules_id=other.pk, reason="pending")

    def rows() -> list[dict]:
        return sorted((model_to_dict(r) for r in RulesSubmission.objects.all()), key=repr)

    before = rows()
    assert sorted(r["withdrawal_reason"] for r in before) == ["pending", "two"]
    projections.rebuild("tables")
    assert rows() == before


# --- the API -------------------------------------------------------------------------

@pytest.fixture
def team(api_as: Any) -> dict[str, Any]:
    return {"compliance": api_as("compliance"), "second": api_as("compliance"),
            "floor": api_as("floorperson"), "dealer": api_as("dealer")}


def _url(rs: RulesSubmission, step: str = "") -> str:
    return f"{V1}/rules-submissions/{rs.pk}/withdraw/{step}"


def test_the_two_person_withdrawal_through_the_api(crew, playing, team) -> None:  # noqa: ANN001
    """§ 589.12(a): asked by one officer, refused to the same officer, confirmed by
    another; the table's page and its signage then say why there are no rules."""
    table, deck, rs = playing
    a, b = team["compliance"], team["second"]
    asked = ok(a.post(_url(rs), {"reason": "discontinued"}, format="json"))
    assert (asked["state"], asked["withdrawal_requested_by"], asked["withdrawal_reason"]) == (
        "in_effect", a.user.username, "discontinued")
    assert asked["withdrawal_requested_at"] and asked["withdrawn_by"] == ""
    problem(a.post(_url(rs), {"reason": "again"}, format="json"), 409,
            "withdrawal_already_requested")
    version = stream_version(rs.stream_id)
    problem(a.post(_url(rs, "confirm/")), 409, "withdrawal_by_requester")
    assert stream_version(rs.stream_id) == version

    page = ok(team["floor"].get(f"{V1}/tables/{table.pk}/"))
    assert page["rules_notice"]["code"] == "rules_withdrawal_pending"
    assert page["rules_notice"]["confirmed_by"] is None
    ok(team["dealer"].get(f"{V1}/tables/{table.pk}/signage"))  # still in effect

    gone = ok(b.post(_url(rs, "confirm/")))
    assert (gone["state"], gone["withdrawn_by"]) == ("withdrawn", b.user.username)
    problem(team["floor"].post(f"{V1}/rounds/", {"table": str(table.pk),
                                                  "deck": str(deck.pk)}, format="json"),
            409, "no_rules_in_effect")
    notice = ok(team["floor"].get(f"{V1}/tables/{table.pk}/"))["rules_notice"]
    assert {k: notice[k] for k in ("code", "rules_submission", "version_number", "reason",
                                   "requested_by", "confirmed_by")} == {
        "code": "rules_withdrawn", "rules_submission": str(rs.pk), "version_number": 1,
        "reason": "discontinued", "requested_by": a.user.username,
        "confirmed_by": b.user.username}
    assert notice["withdrawn_at"] and notice["requested_at"]
    sign = problem(team["dealer"].get(f"{V1}/tables/{table.pk}/signage"), 409,
                   "no_rules_in_effect")
    assert sign["rules_notice"] == notice


def test_cancel_and_refusals_through_the_api(crew, playing, team) -> None:  # noqa: ANN001
    """§ 589.12(a): cancel keeps the version in effect; confirming without a request is a
    409; the dealer is refused every step (403)."""
    table, _, rs = playing
    a, b = team["compliance"], team["second"]
    problem(b.post(_url(rs, "confirm/")), 409, "withdrawal_not_requested")
    problem(b.post(_url(rs, "cancel/"), {"reason": "x"}, format="json"), 409,
            "withdrawal_not_requested")
    ok(a.post(_url(rs), {"reason": "discontinued"}, format="json"))
    problem(a.post(_url(rs, "cancel/"), {}, format="json"), 400, "invalid_input")
    kept = ok(a.post(_url(rs, "cancel/"), {"reason": "changed my mind"}, format="json"))
    assert (kept["state"], kept["withdrawal_requested_by"]) == ("in_effect", "")
    assert ok(team["floor"].get(f"{V1}/tables/{table.pk}/"))["rules_notice"] is None
    before = head()
    for step, body in (("", {"reason": "x"}), ("confirm/", {}), ("cancel/", {"reason": "x"})):
        problem(team["dealer"].post(_url(rs, step), body, format="json"), 403,
                "role_required")
    assert head() == before


def test_table_list_shows_notices_in_one_query_and_appends_nothing(
        crew, open_table, team) -> None:  # noqa: ANN001
    """§ 589.12(a): every table of the game is told; the page reads the notices with one
    query whatever the number of tables, and reading appends nothing."""
    tables = [open_table(GAME)]
    rs = _in_effect()
    rules.rules_withdraw(actor=crew["compliance"], rules_id=rs.pk, reason="discontinued")

    def listed() -> tuple[dict[str, Any], int]:
        with CaptureQueriesContext(connection) as queries:
            body = ok(team["floor"].get(f"{V1}/tables/?limit=100"))
        return {t["id"]: t["rules_notice"] for t in body["results"]}, len(queries)

    _, one_table = listed()
    tables += [open_table("five-card-hi-lo"), open_table("holdem")]
    from tables.services import tables as table_services

    for n in range(2):
        t = table_services.table_configure(
            actor=crew["admin"], name=f"L-{n}", game=GAME, positions=5,
            dealing_method="automated-shoe", shuffler="automated")
        tables.append(t)
    before = head()
    notices, many_tables = listed()
    assert head() == before
    assert many_tables == one_table
    lunar = [str(t.pk) for t in tables if t.game == GAME]
    assert {notices[t]["code"] for t in lunar} == {"rules_withdrawal_pending"}
    assert [v for k, v in notices.items() if k not in lunar] == [None, None]
