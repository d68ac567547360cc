"""Reads never write (DESIGN §2): a Rules Submission version whose effective time has come
is in force as of now for every read and command that needs the rules, but only the timer,
the beat sweep (or an approval effective at once) records it taking effect."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from casino.eventstore.models import Event
from tables import selectors
from tables.domain.rules_options import example_options
from tables.models import RulesState, RulesSubmission
from tables.services import round_start, rounds, rules, tables
from tables.services.timers import timers_sweep
from tests.tables._api import ok

pytestmark = pytest.mark.django_db
#: the 589 example selects a Super Wager paytable with a negative house edge (589.6(d)(7)
#: read by the letter): its approval takes the approver's acknowledgement
ACK = {"acknowledge_negative_house_edge": True}
V1 = "/api/v1"
GAME = "lunar-poker-589"


@pytest.fixture
def due(crew, open_table, deck_in_play, monkeypatch) -> dict[str, Any]:  # noqa: ANN001
    """An open table under version 1 with a deck in play, and version 2 approved to take
    effect in an hour; then the clock the reads use moves past that hour, as if its timer
    had not run (the beat sweep is the safety net)."""
    table = open_table(GAME)
    deck = deck_in_play(table)
    v1 = RulesSubmission.objects.get(game=GAME, state=RulesState.IN_EFFECT)
    when = timezone.now() + timedelta(hours=1)
    rs = rules.rules_draft(actor=crew["compliance"], game=GAME,
                           options={**example_options(GAME)})
    rules.rules_submit(actor=crew["compliance"], rules_id=rs.pk)
    v2 = rules.rules_approve(actor=crew["approver"], **ACK, rules_id=rs.pk,
                             effective_at=when.isoformat())
    assert v2.state == RulesState.APPROVED
    later = when + timedelta(seconds=1)

    class Clock:
        @staticmethod
        def now() -> Any:
            return later

    monkeypatch.setattr(selectors, "timezone", Clock)
    monkeypatch.setattr(round_start, "timezone", Clock)  # a round's gate decides as of now
    return {"table": table, "deck": deck, "v1": v1, "v2": v2, "later": later}


def _state(rs: RulesSubmission) -> str:
    return RulesSubmission.objects.get(pk=rs.pk).state


def test_signage_shows_the_due_version_and_appends_nothing(due, api_as) -> None:  # noqa: ANN001
    client = api_as("floorperson")  # the login's own events before counting
    before = Event.objects.count()
    sign = ok(client.get(f"{V1}/tables/{due['table'].pk}/signage"))
    assert sign["rules_version_number"] == due["v2"].version_number
    assert sign["rules_submission"] == str(due["v2"].pk)
    assert Event.objects.count() == before
    assert _state(due["v2"]) == RulesState.APPROVED
    assert _state(due["v1"]) == RulesState.IN_EFFECT


def test_table_reads_append_nothing(due, api_as) -> None:  # noqa: ANN001
    client = api_as("floorperson")
    before = Event.objects.count()
    ok(client.get(f"{V1}/tables/"))
    assert ok(client.get(f"{V1}/tables/{due['table'].pk}/"))["rules_notice"] is None
    ok(client.get(f"{V1}/rules-submissions/"))
    assert Event.objects.count() == before
    assert _state(due["v2"]) == RulesState.APPROVED


def test_round_opens_under_the_due_version_then_the_sweep_puts_it_in_effect_once(
        due, crew) -> None:  # noqa: ANN001
    before = Event.objects.order_by("-position").values_list("position", flat=True).first()
    rnd = rounds.round_open(actor=crew["dealer"], table_id=due["table"].pk,
                            deck_id=due["deck"].pk)
    assert (rnd.rules_id, rnd.rules_version_number) == (due["v2"].pk,
                                                        due["v2"].version_number)
    appended = list(Event.objects.filter(position__gt=before).values_list("type", flat=True))
    assert sorted(appended) == ["DeckDealtRound", "RoundOpened"]
    assert _state(due["v2"]) == RulesState.APPROVED

    assert timers_sweep(now=due["later"])["rules"] == 1
    assert (_state(due["v1"]), _state(due["v2"])) == (RulesState.SUPERSEDED,
                                                      RulesState.IN_EFFECT)
    assert timers_sweep(now=due["later"])["rules"] == 0
    assert Event.objects.filter(type="RulesSubmissionTookEffect",
                                stream_id=due["v2"].stream_id).count() == 1


def test_a_table_opens_under_the_due_version_without_activating_it(due, crew) -> None:  # noqa: ANN001
    t = tables.table_configure(actor=crew["admin"], name="L-due", game=GAME, positions=5,
                               dealing_method="automated-shoe", shuffler="automated")
    before = Event.objects.count()
    tables.table_open(actor=crew["floor"], table_id=t.pk)
    opened = Event.objects.filter(stream_id=t.stream_id, type="TableOpened").get()
    assert opened.data["rules_version_number"] == due["v2"].version_number
    assert Event.objects.count() == before + 1
    assert _state(due["v2"]) == RulesState.APPROVED


def test_withdrawn_or_superseded_versions_are_never_in_force(due, crew) -> None:  # noqa: ANN001
    prop = crew["admin"].property
    assert selectors.rules_in_force(prop, GAME).pk == due["v2"].pk
    rules.rules_withdraw(actor=crew["compliance"], rules_id=due["v2"].pk, reason="mistake")
    assert _state(due["v2"]) == RulesState.WITHDRAWN
    assert selectors.rules_in_force(prop, GAME).pk == due["v1"].pk


def test_an_older_due_version_does_not_displace_a_newer_one_in_effect(
        crew, open_table, monkeypatch) -> None:  # noqa: ANN001
    """An approved version older than the one in effect would be superseded, not take
    effect: it is not in force."""
    open_table(GAME)
    when = timezone.now() + timedelta(hours=1)
    old = rules.rules_draft(actor=crew["compliance"], game=GAME, options=example_options(GAME))
    rules.rules_submit(actor=crew["compliance"], rules_id=old.pk)
    rules.rules_approve(actor=crew["approver"], **ACK, rules_id=old.pk,
                        effective_at=when.isoformat())
    new = rules.rules_draft(actor=crew["compliance"], game=GAME, options=example_options(GAME))
    rules.rules_submit(actor=crew["compliance"], rules_id=new.pk)
    new = rules.rules_approve(actor=crew["approver"], **ACK, rules_id=new.pk)
    assert new.state == RulesState.IN_EFFECT
    later = when + timedelta(seconds=1)
    assert selectors.rules_in_force(crew["admin"].property, GAME, later).pk == new.pk


def test_a_due_version_silences_the_withdrawn_notice(due, crew) -> None:  # noqa: ANN001
    """The version in effect withdrawn, the due one takes its place as of now: the table
    is told nothing and rounds are not refused."""
    v1 = due["v1"]
    rules.rules_withdraw(actor=crew["compliance"], rules_id=v1.pk, reason="discontinued")
    rules.rules_withdraw_confirm(actor=crew["approver"], rules_id=v1.pk)
    table = due["table"]
    assert selectors.rules_notice(type(table).objects.get(pk=table.pk)) is None
    assert selectors.rules_in_force(crew["admin"].property, GAME).pk == due["v2"].pk
