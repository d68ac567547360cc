"""Rules Submission lifecycle through the services: four eyes, immutability, effect."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import head, read_stream
from casino.roles import RoleRequired
from tables.domain.rules_options import example_options
from tables.models import RulesState
from tables.services import rules

pytestmark = pytest.mark.django_db
#: the 589 example selects a Super Wager paytable with a negative house edge (589.6(d)(7)
#: read by the letter): its approval takes the approver's acknowledgement
ACK = {"acknowledge_negative_house_edge": True}


def _submitted(crew: dict[str, Any], game: str = "lunar-poker-589", **changes: Any) -> Any:
    rs = rules.rules_draft(actor=crew["compliance"], game=game,
                           options={**example_options(game), **changes})
    return rules.rules_submit(actor=crew["compliance"], rules_id=rs.pk)


def test_draft_submit_approve_puts_the_version_in_effect_with_an_event_per_step(crew) -> None:
    rs = _submitted(crew)
    rs = rules.rules_approve(actor=crew["approver"], **ACK, rules_id=rs.pk)
    assert rs.state == RulesState.IN_EFFECT and rs.version_number == 1
    assert [e.type for e in read_stream(rs.stream_id)] == [
        "RulesSubmissionDrafted", "RulesSubmissionSubmitted", "RulesSubmissionApproved",
        "RulesSubmissionTookEffect"]
    approved = read_stream(rs.stream_id)[2]
    assert approved.metadata["actor"] == crew["approver"].username
    assert approved.metadata["credential_number"] == crew["approver"].credential_number


def test_the_submitter_cannot_approve(crew) -> None:
    rs = _submitted(crew)
    before = head()
    with pytest.raises(ConflictError) as err:
        rules.rules_approve(actor=crew["compliance"], rules_id=rs.pk)
    assert err.value.code == "approver_is_submitter"
    assert head() == before


def test_an_author_of_the_draft_cannot_approve(crew, staff) -> None:
    other = staff("compliance")
    rs = rules.rules_draft(actor=crew["approver"], game="holdem",
                           options=example_options("holdem"))
    rules.rules_submit(actor=other, rules_id=rs.pk)
    with pytest.raises(ConflictError) as err:
        rules.rules_approve(actor=crew["approver"], **ACK, rules_id=rs.pk)
    assert err.value.code == "approver_is_author"


def test_only_compliance_approves(crew) -> None:
    rs = _submitted(crew)
    with pytest.raises(RoleRequired):
        rules.rules_approve(actor=crew["admin"], rules_id=rs.pk)


def test_a_version_in_effect_is_never_edited(crew) -> None:
    rs = rules.rules_approve(actor=crew["approver"], **ACK, rules_id=_submitted(crew).pk)
    before = head()
    with pytest.raises(ConflictError) as err:
        rules.rules_revise(actor=crew["compliance"], rules_id=rs.pk,
                           options=example_options("lunar-poker-589"))
    assert err.value.code == "rules_version_in_effect"
    assert head() == before


def test_a_submitted_version_is_not_edited_but_can_be_returned_to_draft(crew) -> None:
    rs = _submitted(crew)
    with pytest.raises(ConflictError) as err:
        rules.rules_revise(actor=crew["compliance"], rules_id=rs.pk, notes="x")
    assert err.value.code == "rules_version_not_draft"
    rs = rules.rules_return(actor=crew["approver"], rules_id=rs.pk, reason="paytable typo")
    assert rs.state == RulesState.DRAFT
    rs = rules.rules_revise(actor=crew["compliance"], rules_id=rs.pk,
                            options={**example_options("lunar-poker-589"),
                                     "instant_paytable": "C"})
    assert rs.options["instant_paytable"] == "C"


def test_illegal_paytable_is_refused_and_nothing_is_recorded(crew) -> None:
    """§ 589.12(a): paytables A-H only."""
    before = head()
    with pytest.raises(DomainError) as err:
        rules.rules_draft(actor=crew["compliance"], game="lunar-poker-589",
                          options={**example_options("lunar-poker-589"), "instant_paytable": "Z"})
    assert (err.value.code, err.value.field) == ("unknown_paytable", "options.instant_paytable")
    assert head() == before


def test_next_version_supersedes_the_one_in_effect(crew) -> None:
    v1 = rules.rules_approve(actor=crew["approver"], **ACK, rules_id=_submitted(crew).pk)
    v2 = rules.rules_approve(actor=crew["approver"], **ACK,
                             rules_id=_submitted(crew, instant_paytable="B").pk)
    v1.refresh_from_db()
    assert (v1.state, v2.state) == (RulesState.SUPERSEDED, RulesState.IN_EFFECT)
    assert v1.superseded_by_id == v2.pk and v2.version_number == 2


def test_future_effective_time_waits_until_due(crew) -> None:
    v1 = rules.rules_approve(actor=crew["approver"], **ACK, rules_id=_submitted(crew).pk)
    later = timezone.now() + timedelta(hours=2)
    v2 = rules.rules_approve(actor=crew["approver"], **ACK, rules_id=_submitted(crew).pk,
                             effective_at=later.isoformat())
    assert v2.state == RulesState.APPROVED
    assert rules.rules_in_effect(crew["admin"].property, "lunar-poker-589").pk == v1.pk
    done = rules.rules_activate_due(property=crew["admin"].property,
                                    now=later + timedelta(seconds=1))
    assert done == [str(v2.pk)]
    v2.refresh_from_db()
    assert v2.state == RulesState.IN_EFFECT
    assert rules.rules_activate_due(property=crew["admin"].property,
                                    now=later + timedelta(seconds=2)) == []


def test_effective_time_in_the_past_is_refused(crew) -> None:
    rs = _submitted(crew)
    with pytest.raises(DomainError) as err:
        rules.rules_approve(actor=crew["approver"], **ACK, rules_id=rs.pk,
                            effective_at=(timezone.now() - timedelta(days=1)).isoformat())
    assert err.value.code == "effective_time_in_past"


def test_effective_time_without_offset_is_refused(crew) -> None:
    rs = _submitted(crew)
    with pytest.raises(DomainError) as err:
        rules.rules_approve(actor=crew["approver"], **ACK, rules_id=rs.pk,
                            effective_at="2030-01-01T10:00:00")
    assert err.value.field == "effective_at"


def test_an_older_version_due_after_a_newer_one_never_takes_effect(crew) -> None:
    later = timezone.now() + timedelta(hours=1)
    old = rules.rules_approve(actor=crew["approver"], **ACK, rules_id=_submitted(crew).pk,
                              effective_at=later.isoformat())
    new = rules.rules_approve(actor=crew["approver"], **ACK, rules_id=_submitted(crew).pk)
    rules.rules_activate_due(property=crew["admin"].property, now=later + timedelta(seconds=1))
    old.refresh_from_db()
    new.refresh_from_db()
    assert (old.state, new.state) == (RulesState.SUPERSEDED, RulesState.IN_EFFECT)


def test_withdrawn_version_leaves_no_rules_in_effect(crew) -> None:
    """A version in effect leaves on a second officer's confirmation
    (tests/tables/test_rules_withdrawal.py has the rest)."""
    rs = rules.rules_approve(actor=crew["approver"], **ACK, rules_id=_submitted(crew).pk)
    rules.rules_withdraw(actor=crew["approver"], rules_id=rs.pk, reason="game discontinued")
    rules.rules_withdraw_confirm(actor=crew["compliance"], rules_id=rs.pk)
    assert rules.rules_in_effect(crew["admin"].property, "lunar-poker-589") is None
    with pytest.raises(ConflictError):
        rules.rules_submit(actor=crew["compliance"], rules_id=rs.pk)


def test_versions_are_numbered_per_game(crew) -> None:
    a = rules.rules_draft(actor=crew["compliance"], game="holdem",
                          options=example_options("holdem"))
    b = rules.rules_draft(actor=crew["compliance"], game="badugi",
                          options=example_options("badugi"))
    c = rules.rules_draft(actor=crew["compliance"], game="holdem",
                          options=example_options("holdem"))
    assert (a.version_number, b.version_number, c.version_number) == (1, 1, 2)
