"""Deck-change timers with a real Celery worker and beat, against Redis and PostgreSQL
(bin/test). § 637a.3(c): poker decks are changed at least every 12 hours; the tests
shorten the limit through the settings, as the product allows."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from celery.beat import EmbeddedService
from celery.contrib.testing.worker import start_worker

from casino.actors import actor_of
from casino.celery import app
from casino.domain.errors import ConflictError
from casino.eventstore.store import read_stream
from casino.roles import Role
from casino.services import property_register, staff_bootstrap
from tables.domain.rules_options import example_options
from tables.models import Deck
from tables.services import decks, rounds, rules, tables
from tables.tasks import deck_timer

pytestmark = [pytest.mark.celery, pytest.mark.postgres, pytest.mark.usefixtures("committed_db")]

LIMIT_SECONDS = 3


@pytest.fixture
def short_limits(settings: Any) -> None:
    settings.DECK_LIMIT_SECONDS = {"hand": LIMIT_SECONDS, "shoe": LIMIT_SECONDS,
                                   "poker": LIMIT_SECONDS}
    settings.DECK_CHANGE_WARNING_SECONDS = 1


@pytest.fixture
def worker() -> Iterator[Any]:
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as w:
        yield w


@pytest.fixture
def beat(tmp_path: Any) -> Iterator[EmbeddedService]:
    """Celery beat in a thread, with the product's sweep every second."""
    saved = app.conf.beat_schedule, app.conf.beat_schedule_filename
    app.conf.beat_schedule = {"tables-timer-sweep": {"task": "tables.timer_sweep",
                                                     "schedule": 1.0}}
    app.conf.beat_schedule_filename = str(tmp_path / "beat-schedule")
    service = EmbeddedService(app, max_interval=0.5, thread=True)
    service.start()
    try:
        yield service
    finally:
        service.stop()
        app.conf.beat_schedule, app.conf.beat_schedule_filename = saved


@pytest.fixture
def poker_table(short_limits: None) -> dict[str, Any]:
    """An open Hold'em table with rules in effect, its dealer, and two decks ready."""
    app.control.purge()
    prop = property_register(name="Timer Casino", licence_number="PA-TIMER", system="test")
    people = {}
    for n, (name, role) in enumerate([("admin", Role.ADMIN), ("comp", Role.COMPLIANCE),
                                      ("appr", Role.COMPLIANCE), ("floor", Role.FLOORPERSON),
                                      ("dealer", Role.DEALER)]):
        profile = staff_bootstrap(property=prop, username=f"t-{name}", password="x" * 12,
                                  credential_number=f"TM-{n}", roles=[role], system="test")
        people[name] = actor_of(profile.user)
    rs = rules.rules_draft(actor=people["comp"], game="holdem", options=example_options("holdem"))
    rules.rules_submit(actor=people["comp"], rules_id=rs.pk)
    rules.rules_approve(actor=people["appr"], rules_id=rs.pk)
    table = tables.table_configure(actor=people["admin"], name="H-1", game="holdem", positions=9,
                                   dealing_method="hand", shuffler="automated")
    tables.table_assign_dealer(actor=people["floor"], table_id=table.pk, dealer="t-dealer")
    tables.table_open(actor=people["floor"], table_id=table.pk)
    ready = []
    for colour in ("red", "blue"):
        deck = decks.deck_receive(actor=people["floor"], table_id=table.pk, back_colour=colour,
                                  batch="T")
        decks.deck_inspect(actor=people["dealer"], deck_id=deck.pk)
        decks.deck_inspection_verify(actor=people["floor"], deck_id=deck.pk, accepted=True)
        decks.deck_spread(actor=people["dealer"], deck_id=deck.pk, players=2)
        decks.deck_wash(actor=people["dealer"], deck_id=deck.pk)
        decks.deck_shuffle(actor=people["dealer"], deck_id=deck.pk, method="automated")
        ready.append(deck)
    return {"people": people, "table": table, "decks": ready}


def _wait_for(check: Callable[[], bool], seconds: float = 25) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.2)
    return False


def _change_due_events(deck: Any) -> list[Any]:
    return [e for e in read_stream(deck.stream_id) if e.type == "DeckChangeDue"]


def test_deck_becomes_change_due_and_a_round_is_refused(poker_table, worker, beat) -> None:
    p, table = poker_table["people"], poker_table["table"]
    a, b = (decks.deck_put_in_play(actor=p["dealer"], deck_id=d.pk)
            for d in poker_table["decks"])
    assert _wait_for(lambda: Deck.objects.get(pk=a.pk).change_due)
    assert [e.metadata["actor"] for e in _change_due_events(a)] == ["system:deck-timer"]
    assert any(e.type == "DeckChangeWarning" for e in read_stream(a.stream_id))
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=p["dealer"], table_id=table.pk, deck_id=a.pk)
    assert err.value.code == "deck_change_due"


def test_a_lost_timer_message_is_recovered_by_the_sweep(poker_table) -> None:
    p = poker_table["people"]
    deck = decks.deck_put_in_play(actor=p["dealer"], deck_id=poker_table["decks"][0].pk)
    app.control.purge()  # the broker loses the warning and change-due messages
    time.sleep(LIMIT_SECONDS + 0.5)
    assert not Deck.objects.get(pk=deck.pk).change_due  # nothing has fired
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        saved = app.conf.beat_schedule, app.conf.beat_schedule_filename
        app.conf.beat_schedule = {"tables-timer-sweep": {"task": "tables.timer_sweep",
                                                         "schedule": 1.0}}
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            app.conf.beat_schedule_filename = f"{tmp}/beat"
            service = EmbeddedService(app, max_interval=0.5, thread=True)
            service.start()
            try:
                assert _wait_for(lambda: Deck.objects.get(pk=deck.pk).change_due)
            finally:
                service.stop()
                app.conf.beat_schedule, app.conf.beat_schedule_filename = saved
    assert len(_change_due_events(deck)) == 1


def test_running_the_timer_task_twice_changes_nothing_the_second_time(poker_table,
                                                                      worker) -> None:
    p = poker_table["people"]
    deck = decks.deck_put_in_play(actor=p["dealer"], deck_id=poker_table["decks"][0].pk)
    app.control.purge()  # only the two deliveries below
    deadline = deck.deadline_at.isoformat()
    time.sleep(LIMIT_SECONDS + 0.2)
    deck_timer.delay(str(deck.pk), "due", deadline)
    deck_timer.delay(str(deck.pk), "due", deadline)
    assert _wait_for(lambda: Deck.objects.get(pk=deck.pk).change_due)
    version = Deck.objects.get(pk=deck.pk).stream_version
    time.sleep(2)  # the solo worker has run the second delivery by now
    assert len(_change_due_events(deck)) == 1
    assert Deck.objects.get(pk=deck.pk).stream_version == version
    assert deck_timer.apply(args=[str(deck.pk), "due", deadline]).get() == "already-done"
