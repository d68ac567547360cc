"""A deck's life at a table, each step an event on the deck's own stream:

received → inspected (dealer) → verified (floorperson; a defect rejects it) → spread for
the first player(s) → washed → shuffled → cut → in play → counted … → removed →
destroyed or cancelled. A deck received preinspected and preshuffled starts at
"shuffled" (589.4(e), 637a.4(e)).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction
from django.utils import timezone

from casino.actors import Actor
from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.eventstore.store import NewEvent
from casino.roles import Role
from casino.scoping import property_row
from tables import timers
from tables.domain.decks import (
    RemovalReason,
    ShuffleMethod,
    check_cut,
    check_shuffle,
    check_spread,
    count_is_right,
    cut_required,
    deadline,
    time_limit,
)
from tables.models import Deck, DeckState, DeckStep, GameTable
from tables.services.common import (
    act_at_table,
    allowed,
    deck_limits,
    found,
    locked,
    record,
    record_new,
    setup_of,
)


def _text(value: Any, field: str, *, limit: int = 60, required: bool = True) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str) or len(value.strip()) > limit or (
            required and not value.strip()):
        raise DomainError(f"{field} must be text of 1 to {limit} characters",
                          code="invalid_input", field=field)
    return value.strip()


def _deck_and_table(deck_id: Any, actor: Actor) -> tuple[Deck, GameTable]:
    """Lock the deck's table, then the deck: the same order as opening a round, so the
    two never wait on each other."""
    try:  # the deck's table, found through the deck at the actor's property, locked
        table = property_row(GameTable.objects.select_for_update(of=("self",)), actor,
                             deck_id, what="deck", field="decks__pk")
    except NotFoundError:
        found(Deck, deck_id, actor, what="deck")  # 404 unless the deck is at no table
        raise ConflictError("the deck is not at a table", code="deck_not_at_table") from None
    deck = Deck.objects.select_for_update().get(pk=deck_id, table=table)
    return deck, table


def _step(deck: Deck, transition: Any, what: str) -> None:
    allowed(deck, transition, code="deck_wrong_state",
            message=f"the deck is {deck.state.replace('_', ' ')}; it cannot be {what} now")


def _not_dealing(table: GameTable, deck: Deck) -> None:
    """A deck dealing the round in progress is counted, spread or removed after it."""
    if table.current_round_id and table.current_round.deck_id == deck.pk:
        raise ConflictError("the deck is dealing the round in progress; close the round first",
                            code="round_in_progress")


def _done(deck: Deck) -> Deck:
    return Deck.objects.get(pk=deck.pk)


def deck_receive(*, actor: Actor, table_id: Any, back_colour: str, batch: str,
                 preinspected_preshuffled: bool = False) -> Deck:
    """A deck received at a table (589.4(a), 637a.4(a)), or received preinspected and
    preshuffled under 603a.16(u)/(v) (589.4(e), 637a.4(e))."""
    back_colour = _text(back_colour, "back_colour", limit=30)
    batch = _text(batch, "batch")
    if not isinstance(preinspected_preshuffled, bool):
        raise DomainError("preinspected_preshuffled must be true or false", code="invalid_input",
                          field="preinspected_preshuffled")
    with transaction.atomic():
        table = locked(GameTable, table_id, actor, what="table")
        role = act_at_table(actor, table, Role.FLOORPERSON, Role.SECURITY, Role.DEALER)
        needs_cut = cut_required(setup_of(table), ShuffleMethod.PRESHUFFLED)
        deck_id = uuid.uuid4()
        record_new("deck", f"deck-{deck_id}", [NewEvent("DeckReceived", {
            "property": actor.property.licence_number, "table_id": str(table.pk),
            "back_colour": back_colour, "batch": batch,
            "preinspected_preshuffled": preinspected_preshuffled,
            "cut_required": needs_cut if preinspected_preshuffled else True})],
            actor, role, table=table.pk)
    return Deck.objects.get(pk=deck_id)


def deck_inspect(*, actor: Actor, deck_id: Any, defects: list[str] | None = None) -> Deck:
    """589.4(a), 637a.4(a): the dealer inspects the cards for defects."""
    defects = defects or []
    if not isinstance(defects, list) or not all(
            isinstance(d, str) and 0 < len(d.strip()) <= 200 for d in defects):
        raise DomainError("defects must be a list of short descriptions", code="invalid_input",
                          field="defects")
    with transaction.atomic():
        deck, table = _deck_and_table(deck_id, actor)
        role = act_at_table(actor, table, Role.DEALER)
        _step(deck, deck.inspect, "inspected")
        record(deck, [NewEvent("DeckInspected", {"defects": [d.strip() for d in defects]})],
               actor, role, table=table.pk)
    return _done(deck)


def deck_inspection_verify(*, actor: Actor, deck_id: Any, accepted: bool,
                           note: str = "") -> Deck:
    """The floorperson verifies the dealer's inspection (589.4(a), 637a.4(a)). A defect,
    found by either, rejects the deck: it is removed."""
    if not isinstance(accepted, bool):
        raise DomainError("accepted must be true or false", code="invalid_input",
                          field="accepted")
    note = _text(note, "note", limit=500, required=False)
    with transaction.atomic():
        deck, table = _deck_and_table(deck_id, actor)
        role = act_at_table(actor, table, Role.FLOORPERSON)
        if deck.state != DeckState.INSPECTED:
            raise ConflictError(f"the deck is {deck.state}; only an inspected deck is verified",
                                code="deck_wrong_state")
        inspector = DeckStep.objects.filter(deck=deck, step="inspected").order_by("-at").first()
        if inspector is not None and inspector.actor == actor.username:
            raise ConflictError("the inspection is verified by someone other than the dealer "
                                "who made it", code="verifier_is_inspector")
        if accepted and deck.defects:
            raise ConflictError("the dealer found defects: the deck cannot be accepted",
                                code="deck_defective")
        events = [NewEvent("DeckInspectionVerified", {"accepted": accepted, "note": note})]
        if not accepted:
            events.append(NewEvent("DeckRemoved", {"reason": RemovalReason.DEFECT.value,
                                                   "note": note or "; ".join(deck.defects)}))
        record(deck, events, actor, role, table=table.pk)
    return _done(deck)


def deck_spread(*, actor: Actor, deck_id: Any, players: int) -> Deck:
    """589.4(b): spread face up for the first player; 637a.4(b): the first two players.

    A deck already prepared or in play is spread again when the table had no gaming
    activity (589.5(f), 637a.5(d)); it is then washed, shuffled and cut again before it
    deals, and keeps the time limit it started when it first entered play."""
    with transaction.atomic():
        deck, table = _deck_and_table(deck_id, actor)
        role = act_at_table(actor, table, Role.DEALER)
        _step(deck, deck.spread, "spread")
        _not_dealing(table, deck)
        count = check_spread(setup_of(table), players)
        record(deck, [NewEvent("DeckSpread", {"players": count})], actor, role, table=table.pk)
    return _done(deck)


def deck_wash(*, actor: Actor, deck_id: Any) -> Deck:
    """589.4(c), 637a.4(c): turned face down, washed and stacked."""
    with transaction.atomic():
        deck, table = _deck_and_table(deck_id, actor)
        role = act_at_table(actor, table, Role.DEALER)
        _step(deck, deck.wash, "washed")
        record(deck, [NewEvent("DeckWashed", {})], actor, role, table=table.pk)
    return _done(deck)


def deck_shuffle(*, actor: Actor, deck_id: Any, method: str) -> Deck:
    """589.5(a), 637a.5(a): shuffled by hand or by an automated shuffler; only a manual
    shuffle needs a cut afterwards."""
    try:
        how = ShuffleMethod(method)
    except ValueError:
        raise DomainError("method must be manual or automated", code="invalid_shuffle_method",
                          field="method") from None
    with transaction.atomic():
        deck, table = _deck_and_table(deck_id, actor)
        role = act_at_table(actor, table, Role.DEALER)
        _step(deck, deck.shuffle, "shuffled")
        setup = setup_of(table)
        check_shuffle(setup, how)
        record(deck, [NewEvent("DeckShuffled", {"method": how.value,
                                                "cut_required": cut_required(setup, how)})],
               actor, role, table=table.pk)
    return _done(deck)


def deck_cut(*, actor: Actor, deck_id: Any, depth: int) -> Deck:
    """589.5(d), 671a.5(d), 579.5(d), 637a.5(b)(2): the cover card at least 10 deep."""
    with transaction.atomic():
        deck, table = _deck_and_table(deck_id, actor)
        role = act_at_table(actor, table, Role.DEALER)
        if deck.state != DeckState.SHUFFLED or not deck.cut_required:
            raise ConflictError(f"the deck is {deck.state}; only a shuffled stack that needs a "
                                "cut is cut", code="deck_wrong_state")
        record(deck, [NewEvent("DeckCut", {"depth": check_cut(depth)})], actor, role,
               table=table.pk)
    return _done(deck)


def deck_recut(*, actor: Actor, deck_id: Any, reason: str) -> Deck:
    """589.5(e), 671a.5(e), 579.5(e), 637a.5(c): after the cut and before any card is
    dealt, a floorperson may have the cards cut again."""
    reason = _text(reason, "reason", limit=500)
    with transaction.atomic():
        deck, table = _deck_and_table(deck_id, actor)
        role = act_at_table(actor, table, Role.FLOORPERSON)
        if deck.state != DeckState.READY or not deck.cut_required:
            raise ConflictError("only a cut deck not yet dealt from can be recut",
                                code="deck_wrong_state")
        record(deck, [NewEvent("DeckRecutOrdered", {"reason": reason})], actor, role,
               table=table.pk)
    return _done(deck)


def deck_put_in_play(*, actor: Actor, deck_id: Any) -> Deck:
    """The deck enters play (or stands by as the second deck of the pair); its
    change-due timer starts: 4 h by hand, 8 h from a shoe, 12 h at poker. A deck that
    was in play before (spread again after a quiet spell) keeps its original deadline."""
    with transaction.atomic():
        deck, table = _deck_and_table(deck_id, actor)
        role = act_at_table(actor, table, Role.FLOORPERSON, Role.DEALER)
        _step(deck, deck.put_in_play, "put in play")
        setup = setup_of(table)
        in_play = Deck.objects.filter(table=table, state=DeckState.IN_PLAY).count()
        if in_play >= setup.decks_in_play_allowed:
            raise ConflictError(
                f"this table already has {in_play} deck(s) in play; it may have "
                f"{setup.decks_in_play_allowed} (589.3, 637a.3)", code="too_many_decks_in_play")
        basis, seconds = time_limit(setup, deck_limits())
        started = deck.entered_play_at or timezone.now()
        due = deadline(started, seconds)
        record(deck, [NewEvent("DeckPutInPlay", {
            "table_id": str(table.pk), "entered_play_at": started.isoformat(),
            "deadline_at": due.isoformat(), "limit_basis": basis, "limit_seconds": seconds,
            "returning": deck.entered_play_at is not None})],
            actor, role, table=table.pk)
        if not deck.change_due:
            timers.schedule_deck_timers(deck.pk, due)
    return _done(deck)


def deck_count(*, actor: Actor, deck_id: Any, cards: int) -> Deck:
    """637a.7(e)(4)-(5): the dealer counts the deck; anything but 52 removes it."""
    correct = count_is_right(cards)
    with transaction.atomic():
        deck, table = _deck_and_table(deck_id, actor)
        role = act_at_table(actor, table, Role.DEALER, Role.FLOORPERSON)
        if deck.state != DeckState.IN_PLAY:
            raise ConflictError(f"the deck is {deck.state}; only a deck in play is counted",
                                code="deck_not_in_play")
        _not_dealing(table, deck)
        events = [NewEvent("DeckCounted", {"cards": cards, "correct": correct})]
        if not correct:
            events.append(NewEvent("DeckRemoved", {"reason": RemovalReason.COUNT_WRONG.value,
                                                   "note": f"counted {cards} cards"}))
        record(deck, events, actor, role, table=table.pk)
    return _done(deck)


def deck_count_verify(*, actor: Actor, deck_id: Any) -> Deck:
    """A floorperson signs the dealer's last count."""
    with transaction.atomic():
        deck, table = _deck_and_table(deck_id, actor)
        role = act_at_table(actor, table, Role.FLOORPERSON)
        last = DeckStep.objects.filter(deck=deck, step__in=("counted", "count-verified")
                                       ).order_by("-stream_version").first()
        if last is None or last.step != "counted":
            raise ConflictError("there is no count awaiting verification",
                                code="no_count_to_verify")
        if last.actor == actor.username:
            raise ConflictError("a count is verified by someone other than who counted",
                                code="verifier_is_counter")
        record(deck, [NewEvent("DeckCountVerified", {"count_version": last.stream_version,
                                                     "cards": last.details.get("cards")})],
               actor, role, table=table.pk)
    return _done(deck)


def deck_shuffler_count(*, actor: Actor, deck_id: Any, cards: int) -> Deck:
    """589.5(b), 671a.5(b), 579.5(b): a counting shuffler reports a wrong number of cards →
    the deck is removed."""
    correct = count_is_right(cards)
    with transaction.atomic():
        deck, table = _deck_and_table(deck_id, actor)
        role = act_at_table(actor, table, Role.DEALER, Role.FLOORPERSON)
        if not setup_of(table).counting_shuffler:
            raise ConflictError("this table has no working counting shuffler",
                                code="no_counting_shuffler")
        if deck.state != DeckState.IN_PLAY:
            raise ConflictError(f"the deck is {deck.state}, not in play", code="deck_not_in_play")
        events = [NewEvent("DeckShufflerCounted", {"cards": cards, "correct": correct})]
        if not correct:
            events.append(NewEvent("DeckRemoved", {"reason": RemovalReason.SHUFFLER_COUNT.value,
                                                   "note": f"shuffler counted {cards} cards"}))
        record(deck, events, actor, role, table=table.pk)
    return _done(deck)


def deck_remove(*, actor: Actor, deck_id: Any, reason: str, note: str = "") -> Deck:
    try:
        why = RemovalReason(reason)
    except ValueError:
        raise DomainError(f"reason must be one of {', '.join(r.value for r in RemovalReason)}",
                          code="invalid_removal_reason", field="reason") from None
    note = _text(note, "note", limit=500, required=why is RemovalReason.OTHER)
    with transaction.atomic():
        deck, table = _deck_and_table(deck_id, actor)
        role = act_at_table(actor, table, Role.FLOORPERSON, Role.DEALER)
        _step(deck, deck.remove, "removed")
        _not_dealing(table, deck)
        record(deck, [NewEvent("DeckRemoved", {"reason": why.value, "note": note})], actor, role,
               table=table.pk)
    return _done(deck)


def _dispose(actor: Actor, deck_id: Any, event: str, note: str) -> Deck:
    note = _text(note, "note", limit=500, required=False)
    with transaction.atomic():
        deck = locked(Deck, deck_id, actor, what="deck")
        role = actor.require(Role.SECURITY, Role.FLOORPERSON)
        _step(deck, deck.destroy if event == "DeckDestroyed" else deck.cancel,
              "destroyed" if event == "DeckDestroyed" else "cancelled")
        record(deck, [NewEvent(event, {"note": note})], actor, role, table=deck.table_id)
    return _done(deck)


def deck_destroy(*, actor: Actor, deck_id: Any, note: str = "") -> Deck:
    """A removed deck destroyed (603a.16)."""
    return _dispose(actor, deck_id, "DeckDestroyed", note)


def deck_cancel(*, actor: Actor, deck_id: Any, note: str = "") -> Deck:
    """A removed deck cancelled (marked so it can never be used again, 603a.16)."""
    return _dispose(actor, deck_id, "DeckCancelled", note)
