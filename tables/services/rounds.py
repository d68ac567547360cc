"""Opening and closing a round: the gate where deck control is enforced.

A round records the Rules Submission version in force when it opened (as of now,
:func:`tables.selectors.rules_in_force`: opening a round never puts a version in effect),
the deck that deals it and the dealing method. It is refused at a closed table, without rules in
effect, with a deck that is due for change or a count, or with the wrong deck of the pair.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction
from django.utils import timezone

from casino.actors import Actor
from casino.domain.errors import ConflictError
from casino.eventstore.store import NewEvent
from casino.roles import Role
from tables.domain.banked import decide
from tables.domain.decks import TableSetup, count_due, expected_deck
from tables.models import Deck, DeckState, GameTable, Round, RoundState, TableStatus
from tables.projections import round_row
from tables.services import banked
from tables.services.common import act_at_table, locked, record, record_new, setup_of
from tables.selectors import rules_in_force


def round_open(*, actor: Actor, table_id: Any, deck_id: Any = None) -> Round:
    """Open the table's next round with ``deck_id``, or without one with the deck due (the
    decks alternate, 589.3(b)(3), 637a.3(a)). The round comes back with its Rules
    Submission version attached (``rnd.rules``), read once."""
    with transaction.atomic():
        table = locked(GameTable, table_id, actor, what="table")
        role = act_at_table(actor, table, Role.DEALER, Role.FLOORPERSON)
        if table.status != TableStatus.OPEN:
            raise ConflictError(f"table {table.name} is closed", code="table_closed")
        if table.current_round_id:
            raise ConflictError("the round in progress must be closed first",
                                code="round_in_progress")
        rules = rules_in_force(actor.property, table.game)
        if rules is None:
            raise ConflictError(f"no Rules Submission for {table.game} is in effect",
                                code="no_rules_in_effect")
        # The table's decks in play, locked in one query; the deck asked for is among
        # them, or it is looked up to say why not.
        pair = list(Deck.objects.select_for_update().filter(
            table=table, state=DeckState.IN_PLAY).order_by("entered_play_at"))
        if deck_id is None:
            deck = _deck_due(table, pair)
        else:
            deck = next((d for d in pair if str(d.pk) == str(deck_id)), None) \
                or locked(Deck, deck_id, actor, what="deck")
        setup = setup_of(table)
        _check_deck(table, setup, deck, [d.pk for d in pair])
        number = table.rounds_played + 1
        round_id = uuid.uuid4()
        data: dict[str, Any] = {}
        if banked.is_banked(table.game):
            # The banked domain opens on this same event: its canonical options of the
            # version in effect, the round id and the table's positions.
            opened = decide(None, {"type": "open_round", "game": table.game,
                                   "options": rules.options, "round_id": str(round_id)})[0]
            data = {**opened["data"], "max_positions": table.positions}
        opened_events = record_new("round", f"round-{round_id}", [NewEvent("RoundOpened", {
            **data,
            "table_id": str(table.pk), "number": number, "deck_id": str(deck.pk),
            "rules_submission_id": str(rules.pk), "rules_version_number": rules.version_number,
            "game": table.game, "dealing_method": setup.effective_dealing.value,
            "shuffler": table.shuffler if setup.shuffler_working else "none"})],
            actor, role, table=table.pk)
        # (a banked round's row starts with its snapshot: tables.projections.round_row)
        record(deck, [NewEvent("DeckDealtRound", {"round_id": str(round_id), "number": number})],
               actor, role, table=table.pk)
    rnd = round_row(opened_events[0])  # the row as the projection inserted it,
    rnd._state.adding, rnd._state.db = False, "default"  # without reading it back
    rnd.rules = rules
    return rnd


def _deck_due(table: GameTable, pair: list[Deck]) -> Deck:
    """The deck in play that deals next when the dealer names none: the one not used
    last (589.3(b)(3), 637a.3(a)), else the first put in play."""
    if not pair:
        raise ConflictError(f"table {table.name} has no deck in play", code="no_deck_in_play")
    expected = expected_deck([str(d.pk) for d in pair],
                             str(table.last_deck_id) if table.last_deck_id else None)
    return next((d for d in pair if str(d.pk) == expected), pair[0])


def _check_deck(table: GameTable, setup: TableSetup, deck: Deck, pair: list[Any]) -> None:
    """``pair``: the ids of the table's decks in play, oldest first."""
    if deck.table_id != table.pk or deck.state != DeckState.IN_PLAY:
        raise ConflictError("that deck is not in play at this table", code="deck_not_in_play")
    if deck.change_due or (deck.deadline_at and timezone.now() >= deck.deadline_at):
        # The timer may not have fired yet; the deadline itself is what counts.
        raise ConflictError("the deck has reached its time limit and must be changed "
                            "(589.3(c), 637a.3(c))", code="deck_change_due")
    if (not setup.game.is_poker and setup.effective_dealing.value == "hand"
            and not setup.shuffler_working):
        raise ConflictError("a banked game dealt by hand needs a working automated shuffler "
                            "(589.9(a)(1), 671a.9(a)(1), 579.9(a)(1))",
                            code="hand_dealing_needs_shuffler")
    if count_due(setup, deck.rounds_since_count):
        raise ConflictError("the deck must be counted before it deals again (637a.7(e)(4))",
                            code="deck_count_due")
    if len(pair) > setup.decks_in_play_allowed:
        # e.g. the shuffler failed at a banked game: one deck only (589.3(a)).
        raise ConflictError(f"{len(pair)} decks are in play where {setup.decks_in_play_allowed} "
                            "is allowed now; remove one", code="too_many_decks_in_play")
    if setup.game.is_poker and len(pair) < 2:
        raise ConflictError("a poker table keeps two decks in play (637a.3(a))",
                            code="second_deck_missing")
    expected = expected_deck([str(p) for p in pair],
                             str(table.last_deck_id) if table.last_deck_id else None)
    if expected is not None and expected != str(deck.pk):
        raise ConflictError("the decks alternate: this round is dealt with the other deck "
                            "(589.3(b)(3), 637a.3(a))", code="wrong_deck")


def round_close(*, actor: Actor, round_id: Any) -> Round:
    """Close the round. A house-banked round closes on the command runner
    (:func:`tables.services.banked.round_close_banked`); any other round (poker, or a
    banked round opened before banked play was recorded) records an empty ``RoundClosed``.
    """
    try:
        closed = banked.round_close_banked(actor=actor, round_id=round_id)
        return Round.objects.get(pk=closed.round.pk)
    except ConflictError as exc:
        if exc.code != "not_a_banked_round":
            raise
    with transaction.atomic():
        table, rnd, role = banked.lock_round(actor, round_id, (Role.DEALER, Role.FLOORPERSON))
        if rnd.state != RoundState.OPEN:
            raise ConflictError("the round is already closed", code="round_closed")
        record(rnd, [NewEvent("RoundClosed", {})], actor, role, table=table.pk)
    return Round.objects.get(pk=rnd.pk)
