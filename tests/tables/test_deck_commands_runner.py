"""The deck commands on the command runner (issue 25 item 2): one locked read of the deck
with its table, the decision in the pure domain (tables.domain.deck_steps), the deck's
events appended in the same transaction; the same answers, refusals and events as the
ORM gate they replace."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from celery import current_app
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django_fsm import FSMField

from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.eventstore.store import read_stream
from tables.domain import deck_steps
from tables.models import Deck, DeckState
from tables.services import decks, rounds
from tests.poker_room._committed import poker_room


def _count(fn: Callable[[], Any]) -> tuple[int, Any, list[str]]:
    with CaptureQueriesContext(connection) as q:
        out = fn()
    return len(q), out, [x["sql"] for x in q.captured_queries]


# --- the pure transition table is the read model's state machine ---------------------

def test_the_deck_steps_are_the_read_models_state_machine() -> None:
    """§ 589.4, § 589.5, § 637a.4, § 637a.5, § 603a.16: the steps the commands allow
    (tables.domain.deck_steps) are the transitions the projection applies (the Deck
    model's django-fsm graph), state for state, so the two cannot drift apart."""
    field = Deck._meta.get_field("state")
    assert isinstance(field, FSMField)
    fsm = {}
    for t in field.get_all_transitions(Deck):
        fsm.setdefault(t.name, (set(), t.target))[0].add(t.source)
    ours = {name: ({str(s) for s in step.sources}, str(step.target))
            for name, step in deck_steps.STEPS.items()}
    assert ours == {name: ({str(s) for s in sources}, str(target))
                    for name, (sources, target) in fsm.items()}
    assert {s.value for s in deck_steps.DeckState} == {s.value for s in DeckState}


def test_a_step_from_the_wrong_state_names_the_state_and_the_step() -> None:
    """§ 589.4(c): only a spread deck is washed; the refusal reads as before."""
    with pytest.raises(ConflictError) as err:
        deck_steps.step_allowed("in_play", "wash")
    assert (err.value.code, err.value.message) == (
        "deck_wrong_state", "the deck is in play; it cannot be washed now")


# --- one locked read: the statements of each command ----------------------------------

#: statements per deck command inside a caller's transaction (a test's), worked out from
#: the commands as built: the runner's savepoint, the one locked read of the deck with its
#: table (its round in progress, its inspector and last count inside it), the projection's
#: three (the deck read, its row written, the inventory step inserted), the release, and
#: the deck read back for the answer. The event store's append goes on its own cursor and
#: is not counted. Before (the ORM gate): the table locked, then the deck locked, the
#: round in progress or the inventory log read by the checks that need them — 8 or 9.
#: one more than when the runner first ran them: the read again, unlocked, after the
#: lock (casino.command_runner._fresh_read_sql), in the same round trip; put_in_play one
#: more again: its two timers written to the outbox in one INSERT in the command's
#: transaction (casino.outbox, issue 26 item 4; before, sent to the broker after commit)
EXPECTED = {"deck_receive": 8, "deck_inspect": 8, "deck_inspection_verify": 8,
            "deck_spread": 8, "deck_wash": 8, "deck_shuffle": 8, "deck_cut": 8,
            "deck_recut": 8, "deck_put_in_play": 10, "deck_count": 8, "deck_count_verify": 8,
            "deck_remove": 8, "deck_destroy": 8}
BEFORE = {"deck_receive": 7, "deck_inspect": 8, "deck_inspection_verify": 9,
          "deck_spread": 8, "deck_wash": 8, "deck_shuffle": 8, "deck_cut": 8,
          "deck_recut": 8, "deck_put_in_play": 9, "deck_count": 8, "deck_count_verify": 9,
          "deck_remove": 8, "deck_destroy": 7}


@pytest.mark.postgres
@pytest.mark.django_db
def test_each_deck_command_is_one_locked_read_and_its_projection(crew, open_table) -> None:
    """§ 589.4(a)-(c), § 589.5(a)-(e), § 637a.7(e)(4), § 603a.16: a deck's whole life, each
    command counted. put_in_play reads the table's decks in play once more after the lock
    (589.3, 637a.3: a statement that waited for the lock sees the other decks as they were
    before it)."""
    d, f, s = crew["dealer"], crew["floor"], crew["security"]
    # no automated shuffler: shuffled by hand, then cut (637a.18(r))
    table = open_table("holdem", shuffler="none")
    counted: dict[str, int] = {}
    sql: dict[str, list[str]] = {}

    def run(name: str, fn: Callable[[], Any]) -> Any:
        counted[name], out, sql[name] = _count(fn)
        return out

    deck = run("deck_receive", lambda: decks.deck_receive(actor=f, table_id=table.pk,
                                                          back_colour="red", batch="B-1"))
    run("deck_inspect", lambda: decks.deck_inspect(actor=d, deck_id=deck.pk, defects=[]))
    run("deck_inspection_verify", lambda: decks.deck_inspection_verify(
        actor=f, deck_id=deck.pk, accepted=True))
    run("deck_spread", lambda: decks.deck_spread(actor=d, deck_id=deck.pk, players=2))
    run("deck_wash", lambda: decks.deck_wash(actor=d, deck_id=deck.pk))
    run("deck_shuffle", lambda: decks.deck_shuffle(actor=d, deck_id=deck.pk, method="manual"))
    run("deck_cut", lambda: decks.deck_cut(actor=d, deck_id=deck.pk, depth=20))
    run("deck_recut", lambda: decks.deck_recut(actor=f, deck_id=deck.pk, reason="asked"))
    decks.deck_cut(actor=d, deck_id=deck.pk, depth=21)
    run("deck_put_in_play", lambda: decks.deck_put_in_play(actor=d, deck_id=deck.pk))
    run("deck_count", lambda: decks.deck_count(actor=d, deck_id=deck.pk, cards=52))
    run("deck_count_verify", lambda: decks.deck_count_verify(actor=f, deck_id=deck.pk))
    run("deck_remove", lambda: decks.deck_remove(actor=f, deck_id=deck.pk,
                                                 reason="end-of-day"))
    done = run("deck_destroy", lambda: decks.deck_destroy(actor=s, deck_id=deck.pk,
                                                          note="shredded"))
    assert done.state == DeckState.DESTROYED
    assert counted == EXPECTED
    # (no fewer than the ORM path's now, BEFORE, inside a caller's transaction: the read
    # again after the lock costs a statement; outside one it rides in the same round trip)
    for name, statements in sql.items():
        locked = [x for x in statements if "FOR UPDATE" in x]
        assert len(locked) == 1, name  # the one locked read, nothing locked after it
        # the round is read with the deck, in the locked read and in the same read again
        # after the lock (casino.command_runner._fresh_read_sql), never on its own
        fresh = locked[0].replace(" FOR UPDATE OF r", "")
        assert [x for x in statements if x.startswith("SELECT") and "tables_round" in x
                and "FOR UPDATE" not in x and x != fresh] == [], name


# --- the same refusals ----------------------------------------------------------------

@pytest.mark.django_db
def test_a_deck_at_no_table_is_refused_and_another_propertys_is_not_found(
        crew, open_table, ready_deck, make_staff) -> None:
    """A deck recorded without a table (DeckReceived before it named one) cannot take a
    step at a table (409 deck_not_at_table) but may still be removed from the inventory
    (§ 603a.16); a malformed id or a deck of another property is 404 deck_not_found."""
    from casino.actors import actor_of
    from casino.services import property_register

    table = open_table("holdem")
    deck = ready_deck(table)
    Deck.objects.filter(pk=deck.pk).update(table=None)
    with pytest.raises(ConflictError) as err:
        decks.deck_put_in_play(actor=crew["dealer"], deck_id=deck.pk)
    assert err.value.code == "deck_not_at_table"
    for bad in ("not-a-uuid", None, "0" * 33):
        with pytest.raises(NotFoundError) as missing:
            decks.deck_wash(actor=crew["dealer"], deck_id=bad)
        assert missing.value.code == "deck_not_found"
    other = property_register(licence_number="PA-TEST-2", name="Other", system="test")
    stranger = actor_of(make_staff("floorperson", property=other))
    for command in (lambda: decks.deck_remove(actor=stranger, deck_id=deck.pk,
                                              reason="end-of-day"),
                    lambda: decks.deck_destroy(actor=stranger, deck_id=deck.pk),
                    lambda: decks.deck_receive(actor=stranger, table_id=table.pk,
                                               back_colour="red", batch="B")):
        with pytest.raises(NotFoundError) as missing:
            command()
        assert missing.value.code in ("deck_not_found", "table_not_found")


@pytest.mark.django_db
def test_input_is_refused_before_the_deck_is_read(crew, open_table, ready_deck) -> None:
    """Bad input is 400 with its code whatever the deck's state (the checks' order kept):
    a count that is no number of cards, an unknown shuffle, removal reason or a note too
    long."""
    deck = ready_deck(open_table("holdem"))
    before = read_stream(deck.stream_id)
    cases = [
        (lambda: decks.deck_count(actor=crew["dealer"], deck_id="nope", cards="52"),
         "invalid_input"),
        (lambda: decks.deck_shuffle(actor=crew["dealer"], deck_id=deck.pk, method="riffle"),
         "invalid_shuffle_method"),
        (lambda: decks.deck_remove(actor=crew["floor"], deck_id=deck.pk, reason="bored"),
         "invalid_removal_reason"),
        (lambda: decks.deck_remove(actor=crew["floor"], deck_id=deck.pk, reason="other"),
         "invalid_input"),
        (lambda: decks.deck_destroy(actor=crew["security"], deck_id=deck.pk,
                                    note="x" * 501), "invalid_input"),
    ]
    for command, code in cases:
        with pytest.raises(DomainError) as err:
            command()
        assert err.value.code == code
    assert read_stream(deck.stream_id) == before


# --- committed: the runner's own transaction -------------------------------------------

def _ready(people: dict, table: Any, colour: str) -> Deck:
    """A preinspected, preshuffled deck (§ 637a.4(e)) cut (§ 637a.5(b)(2)): ready."""
    deck = decks.deck_receive(actor=people["floor"], table_id=table.pk, back_colour=colour,
                              batch="B-1", preinspected_preshuffled=True)
    return decks.deck_cut(actor=people["dealer"], deck_id=deck.pk, depth=20)


@pytest.mark.postgres
@pytest.mark.usefixtures("committed_db")
def test_outside_a_transaction_each_command_commits_its_events_once() -> None:
    """§ 637a.4(e), § 637a.5(b)(2), § 637a.3(a), § 637a.7(e)(4): outside any transaction the
    runner begins, reads under lock, appends and commits on its own (two round trips plus
    the projection's read); the deck's stream holds each step once and the answers are the
    read model after it."""
    try:
        people, table = poker_room("PA-DECK-RUN", "dkr")
        deck = _ready(people, table, "red")
        assert deck.state == DeckState.READY
        deck = decks.deck_put_in_play(actor=people["dealer"], deck_id=deck.pk)
        assert (deck.state, deck.limit_basis) == (DeckState.IN_PLAY, "poker")
        second = decks.deck_put_in_play(actor=people["floor"],
                                        deck_id=_ready(people, table, "blue").pk)
        rnd = rounds.round_open(actor=people["dealer"], table_id=table.pk, deck_id=deck.pk)
        with pytest.raises(ConflictError) as err:
            decks.deck_count(actor=people["dealer"], deck_id=deck.pk, cards=52)
        assert err.value.code == "round_in_progress"
        rounds.round_close(actor=people["dealer"], round_id=rnd.pk)
        deck = decks.deck_count(actor=people["dealer"], deck_id=deck.pk, cards=51)
        assert (deck.state, deck.removal_reason) == (DeckState.REMOVED, "count-wrong")
        assert [e.type for e in read_stream(deck.stream_id)] == [
            "DeckReceived", "DeckCut", "DeckPutInPlay", "DeckDealtRound", "DeckCounted",
            "DeckRemoved"]
        assert Deck.objects.get(pk=second.pk).state == DeckState.IN_PLAY
        assert not connection.in_atomic_block
    finally:
        current_app.control.purge()  # the decks' change timers went to the broker


@pytest.mark.postgres
@pytest.mark.usefixtures("committed_db")
def test_two_decks_put_in_play_at_once_never_exceed_the_tables_pair() -> None:
    """§ 637a.3(a): a poker table keeps two decks in play, no more. With one in play, two
    more put in play at the same moment (two terminals, committed data): the table's lock
    makes them take turns, and the second counts the decks in play after the first is in,
    so one goes in and the other is refused (409 too_many_decks_in_play)."""
    try:
        people, table = poker_room("PA-DECK-RACE", "dkx")
        decks.deck_put_in_play(actor=people["dealer"],
                               deck_id=_ready(people, table, "red").pk)
        racing = [_ready(people, table, c) for c in ("blue", "green")]
        start = threading.Barrier(2)
        outcomes: list[str] = []

        def put(deck: Deck) -> None:
            try:
                start.wait(timeout=10)
                decks.deck_put_in_play(actor=people["dealer"], deck_id=deck.pk)
                outcomes.append("in_play")
            except ConflictError as refused:
                outcomes.append(refused.code)
            finally:
                connection.close()

        threads = [threading.Thread(target=put, args=(d,)) for d in racing]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert sorted(outcomes) == ["in_play", "too_many_decks_in_play"]
        assert Deck.objects.filter(table=table, state=DeckState.IN_PLAY).count() == 2
    finally:
        current_app.control.purge()
