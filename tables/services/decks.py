"""A deck's life at a table, each step an event on the deck's own stream:

received → inspected (dealer) → verified (floorperson; a defect rejects it) → spread for
the first player(s) → washed → shuffled → cut → in play → counted … → removed →
destroyed or cancelled. A deck received preinspected and preshuffled starts at
"shuffled" (589.4(e), 637a.4(e)).

Every command runs on the command runner (:mod:`casino.command_runner`, issue 25): one
locked read of the deck with its table, the decision in the pure domain
(:mod:`tables.domain.deck_steps`), the deck's events appended at the version that read
saw, in one transaction (on PostgreSQL the runner's two round trips, and the deck
projection's read of the row it updates). The deck's answer is its row read back once
after the command.

Which row is locked: the deck's **table**, as opening a round and the equipment commands
lock it, so every step of every deck at one table and the table's round start take turns
(a second deck put in play counts the table's decks in play only once the first is in).
The deck row itself needs no lock: its stream's version, read with it, refuses an append
decided on a deck that changed since (the runner then reads and decides once more).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from casino import command_runner
from casino.actors import Actor
from casino.command_runner import Aggregate, Also, Decision, Loaded
from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.eventstore.store import NewEvent, Stream
from casino.roles import Role
from tables import timers
from tables.domain import deck_steps
from tables.domain.catalogue import get_table_game
from tables.domain.deck_steps import DeckSeen, Event, LastCount
from tables.domain.decks import (
    DealingMethod,
    RemovalReason,
    ShuffleMethod,
    Shuffler,
    TableSetup,
    count_is_right,
    cut_required,
)
from tables.models import Deck
from tables.services.common import act_at_table, deck_limits


def _text(value: Any, field: str, *, limit: int = 60, required: bool = True) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str) or len(value.strip()) > limit or (
            required and not value.strip()):
        raise DomainError(f"{field} must be text of 1 to {limit} characters",
                          code="invalid_input", field=field)
    return value.strip()


# --- what a command reads: one statement ------------------------------------------------

#: the table's columns every deck command reads (``r``: the table row, the one locked)
_TABLE_COLUMNS = ("r.id, r.name, r.dealer_id, r.game, r.dealing_method, r.shuffler, "
                  "r.shuffler_out_of_order, r.shoe_out_of_order")

#: A deck at its table (the command's key is the deck's id): the table row locked, the
#: deck's row, the deck dealing the table's round in progress, who inspected the deck,
#: whether its last shuffle jammed (637a.18(q)) and its last count or count verification
#: (from the card inventory log, for the four-eyes checks of 589.4(a) and 637a.7(e)(4)).
DECK: Aggregate[None] = Aggregate(
    name="deck", stream_type="deck", what="deck",
    select=(
        f"SELECT {_TABLE_COLUMNS}, "
        "d.id, d.state, d.cut_required, d.defects, d.entered_play_at, d.change_due, "
        "d.stream_version, "
        "(SELECT cr.deck_id FROM tables_round cr WHERE cr.id = r.current_round_id), "
        "(SELECT s.actor FROM tables_deckstep s WHERE s.deck_id = d.id "
        " AND s.step = 'inspected' ORDER BY s.stream_version DESC LIMIT 1), "
        "(SELECT s.step FROM tables_deckstep s WHERE s.deck_id = d.id "
        " AND s.step IN ('shuffled', 'shuffle-jammed') ORDER BY s.stream_version DESC LIMIT 1), "
        "lc.step, lc.actor, lc.stream_version, lc.details "
        "FROM tables_gametable r JOIN tables_deck d ON d.table_id = r.id "
        "LEFT JOIN tables_deckstep lc ON lc.id = ("
        " SELECT s.id FROM tables_deckstep s WHERE s.deck_id = d.id"
        " AND s.step IN ('counted', 'count-verified') ORDER BY s.stream_version DESC LIMIT 1) "
        "WHERE d.id = %%s AND r.property_id = %%s%(lock)s"),
    update="", stream_id=lambda key: f"deck-{key}")

#: A deck on its own, locked (the command's key is the deck's id): destroyed or cancelled
#: after its removal, wherever it is kept (603a.16); it needs nothing of a table.
DECK_ALONE: Aggregate[None] = Aggregate(
    name="deck_alone", stream_type="deck", what="deck",
    select=("SELECT r.id, r.state, r.table_id, r.stream_version FROM tables_deck r "
            "WHERE r.id = %%s AND r.property_id = %%s%(lock)s"),
    update="", stream_id=lambda key: f"deck-{key}")

#: The table a deck is received at (the command's key is the table's id), locked.
RECEIVING_TABLE: Aggregate[None] = Aggregate(
    name="deck_receiving_table", stream_type="table", what="table",
    select=(f"SELECT {_TABLE_COLUMNS} FROM tables_gametable r "
            "WHERE r.id = %%s AND r.property_id = %%s%(lock)s"),
    update="", stream_id=lambda key: f"table-{key}")

# The three keep no snapshot, so they are not registered with the runner (its registry
# lists the aggregates whose snapshots ``rebuild_projections`` rebuilds).


@dataclass(frozen=True)
class DeckTable:
    """The deck's table as a deck command sees it: what :func:`act_at_table` needs (the
    dealer assigned, the name) and its equipment now."""

    pk: uuid.UUID
    name: str
    dealer_id: int | None
    game: str
    setup: TableSetup


def _uuid(value: Any) -> uuid.UUID | None:
    """A key as the row gives it (32 hex characters on SQLite), as one value."""
    return None if value is None else uuid.UUID(str(value))


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _when(value: Any) -> datetime | None:
    """A timestamp as the row gives it: aware on PostgreSQL; text or naive UTC on SQLite
    (Django stores UTC there)."""
    if value is None:
        return None
    when = parse_datetime(value) if isinstance(value, str) else value
    return when.replace(tzinfo=UTC) if timezone.is_naive(when) else when


def _table_of(row: tuple[Any, ...]) -> DeckTable:
    pk, name, dealer_id, game, dealing, shuffler, shuffler_off, shoe_off = row[:8]
    setup = TableSetup(game=get_table_game(game), dealing_method=DealingMethod(dealing),
                       shuffler=Shuffler(shuffler), shuffler_out_of_order=bool(shuffler_off),
                       shoe_out_of_order=bool(shoe_off))
    return DeckTable(_uuid(pk), name, dealer_id, game, setup)  # type: ignore[arg-type]


@dataclass(frozen=True)
class AtTable:
    """What :data:`DECK`'s read gives a command: the deck, its table, its stream's
    version and whether it deals the round in progress."""

    deck: DeckSeen
    table: DeckTable
    version: int
    dealing: bool


def _at_table(row: tuple[Any, ...]) -> AtTable:
    (deck_id, state, needs_cut, defects, entered, change_due, version, round_deck,
     inspector, last_shuffle, count_step, count_actor, count_version, count_details) = row[8:]
    deck_id = _uuid(deck_id)
    last = None if count_step is None else LastCount(
        count_step, count_actor, count_version, (_json(count_details) or {}).get("cards"))
    deck = DeckSeen(str(deck_id), state, bool(needs_cut), list(_json(defects) or []),
                    _when(entered), bool(change_due), inspector, last,
                    jammed=last_shuffle == "shuffle-jammed")
    return AtTable(deck, _table_of(row), version, _uuid(round_deck) == deck_id)


def _new_events(events: list[Event]) -> list[NewEvent]:
    return [NewEvent(e["type"], e["data"]) for e in events]


def _deck_run(actor: Actor, deck_id: Any, roles: tuple[Role, ...],
              decide: Callable[[AtTable], list[Event]]) -> AtTable:
    """Run one command on the deck at its table: the table and the deck read in the
    runner's one locked statement, the role checked at the table (a dealer only at the
    table assigned), ``decide`` (the domain) gives the deck's events. Returns what the
    command decided on."""
    holder: dict[str, AtTable] = {}

    def decision(loaded: Loaded[None]) -> Decision[None]:
        seen = holder["seen"] = _at_table(loaded.row)
        role = act_at_table(actor, seen.table, *roles)  # type: ignore[arg-type]
        events = decide(seen)
        return Decision(None, [], role, {"table": str(seen.table.pk)}, others=[
            Also(Stream("deck", f"deck-{seen.deck.id}"), seen.version, _new_events(events))])

    try:
        command_runner.command_run(DECK, key=deck_id, actor=actor, decide=decision)
    except NotFoundError as exc:
        if exc.code == "deck_not_found" and _at_no_table(deck_id, actor):
            raise ConflictError("the deck is not at a table",
                                code="deck_not_at_table") from None
        raise
    return holder["seen"]


def _at_no_table(deck_id: Any, actor: Actor) -> bool:
    """A deck of the actor's property that is at no table (read only when the locked read
    found none: the answer is then 409, not 404)."""
    try:
        key = uuid.UUID(str(deck_id))
    except (TypeError, ValueError):
        return False
    return Deck.objects.filter(pk=key, property=actor.property, table__isnull=True).exists()


def _done(deck_id: Any) -> Deck:
    return Deck.objects.get(pk=deck_id)


# --- the commands -----------------------------------------------------------------------

def deck_receive(*, actor: Actor, table_id: Any, back_colour: str, batch: str,
                 preinspected_preshuffled: bool = False) -> Deck:
    """A deck received at a table (589.4(a), 637a.4(a)), or received preinspected and
    preshuffled under 603a.16(u)/(v) (589.4(e), 637a.4(e)): a new deck stream, appended
    with the table locked."""
    back_colour = _text(back_colour, "back_colour", limit=30)
    batch = _text(batch, "batch")
    if not isinstance(preinspected_preshuffled, bool):
        raise DomainError("preinspected_preshuffled must be true or false", code="invalid_input",
                          field="preinspected_preshuffled")
    deck_id = uuid.uuid4()

    def decision(loaded: Loaded[None]) -> Decision[None]:
        table = _table_of(loaded.row)
        role = act_at_table(actor, table, Role.FLOORPERSON, Role.SECURITY,  # type: ignore[arg-type]
                            Role.DEALER)
        needs_cut = cut_required(table.setup, ShuffleMethod.PRESHUFFLED)
        received = NewEvent("DeckReceived", {
            "property": actor.property.licence_number, "table_id": str(table.pk),
            "back_colour": back_colour, "batch": batch,
            "preinspected_preshuffled": preinspected_preshuffled,
            "cut_required": needs_cut if preinspected_preshuffled else True})
        return Decision(None, [], role, {"table": str(table.pk)},
                        others=[Also(Stream("deck", f"deck-{deck_id}"), 0, [received])])

    command_runner.command_run(RECEIVING_TABLE, key=table_id, actor=actor, decide=decision)
    return _done(deck_id)


def deck_inspect(*, actor: Actor, deck_id: Any, defects: list[str] | None = None) -> Deck:
    """589.4(a), 637a.4(a): the dealer inspects the cards for defects."""
    defects = defects or []
    if not isinstance(defects, list) or not all(
            isinstance(d, str) and 0 < len(d.strip()) <= 200 for d in defects):
        raise DomainError("defects must be a list of short descriptions", code="invalid_input",
                          field="defects")
    found = [d.strip() for d in defects]
    _deck_run(actor, deck_id, (Role.DEALER,), lambda s: deck_steps.inspect(s.deck, found))
    return _done(deck_id)


def deck_inspection_verify(*, actor: Actor, deck_id: Any, accepted: bool,
                           note: str = "") -> Deck:
    """The floorperson verifies the dealer's inspection (589.4(a), 637a.4(a)). A defect,
    found by either, rejects the deck: it is removed."""
    if not isinstance(accepted, bool):
        raise DomainError("accepted must be true or false", code="invalid_input",
                          field="accepted")
    note = _text(note, "note", limit=500, required=False)
    _deck_run(actor, deck_id, (Role.FLOORPERSON,), lambda s: deck_steps.inspection_verify(
        s.deck, accepted=accepted, note=note, verifier=actor.username))
    return _done(deck_id)


def deck_spread(*, actor: Actor, deck_id: Any, players: int) -> Deck:
    """589.4(b): spread face up for the first player; 637a.4(b): the first two players.

    A deck already prepared or in play is spread again when the table had no gaming
    activity (589.5(f), 637a.5(d)); it is then washed, shuffled and cut again before it
    deals, and keeps the time limit it started when it first entered play."""
    _deck_run(actor, deck_id, (Role.DEALER,), lambda s: deck_steps.spread(
        s.deck, s.table.setup, players, dealing=s.dealing))
    return _done(deck_id)


def deck_wash(*, actor: Actor, deck_id: Any) -> Deck:
    """589.4(c), 637a.4(c): turned face down, washed and stacked."""
    _deck_run(actor, deck_id, (Role.DEALER,), lambda s: deck_steps.wash(s.deck))
    return _done(deck_id)


def deck_shuffle(*, actor: Actor, deck_id: Any, method: str) -> Deck:
    """589.5(a), 637a.5(a): shuffled by hand or by an automated shuffler; only a manual
    shuffle needs a cut afterwards. At a table with an automated shuffler, by hand only
    once the shuffler is recorded out of order (637a.18(r), 589.13(g))."""
    try:
        how = ShuffleMethod(method)
    except ValueError:
        raise DomainError("method must be manual or automated", code="invalid_shuffle_method",
                          field="method") from None
    _deck_run(actor, deck_id, (Role.DEALER,),
              lambda s: deck_steps.shuffle(s.deck, s.table.setup, how))
    return _done(deck_id)


def deck_shuffle_jam(*, actor: Actor, deck_id: Any, note: str = "") -> Deck:
    """637a.18(q), 589.13(e), 671a.13(e), 579.13(d): the automated shuffler jammed,
    stopped or did not finish its cycle on this deck; the cards are shuffled again before
    they are cut or put in play. A shuffler that cannot be used is then recorded out of
    order (``table_equipment``) before the cards are shuffled by hand."""
    note = _text(note, "note", limit=500, required=False)
    _deck_run(actor, deck_id, (Role.DEALER, Role.FLOORPERSON),
              lambda s: deck_steps.shuffle_jammed(s.deck, s.table.setup, note))
    return _done(deck_id)


def deck_cut(*, actor: Actor, deck_id: Any, depth: int) -> Deck:
    """589.5(d), 671a.5(d), 579.5(d), 637a.5(b)(2): the cover card at least 10 deep."""
    _deck_run(actor, deck_id, (Role.DEALER,), lambda s: deck_steps.cut(s.deck, depth))
    return _done(deck_id)


def deck_recut(*, actor: Actor, deck_id: Any, reason: str) -> Deck:
    """589.5(e), 671a.5(e), 579.5(e), 637a.5(c): after the cut and before any card is
    dealt, a floorperson may have the cards cut again."""
    reason = _text(reason, "reason", limit=500)
    _deck_run(actor, deck_id, (Role.FLOORPERSON,), lambda s: deck_steps.recut(s.deck, reason))
    return _done(deck_id)


def _back_colours(table_id: uuid.UUID, deck_id: str) -> tuple[str, list[str]]:
    """The deck's back colour and those of the table's decks in play, in one query once the
    table's lock is held. Not part of the locked read: a statement that waited for the lock
    sees the other rows as they were when it began, before the deck put in play by the
    command it waited for."""
    rows = Deck.objects.filter(Q(pk=deck_id) | Q(table_id=table_id,
                                                 state=deck_steps.DeckState.IN_PLAY))
    colour, in_play = "", []
    for pk, back, state in rows.values_list("pk", "back_colour", "state"):
        if str(pk) == deck_id:
            colour = back
        if state == deck_steps.DeckState.IN_PLAY:
            in_play.append(back)
    return colour, in_play


def deck_put_in_play(*, actor: Actor, deck_id: Any) -> Deck:
    """The deck enters play (or stands by as the second deck of the pair); its
    change-due timer starts: 4 h by hand, 8 h from a shoe, 12 h at poker. A deck that
    was in play before (spread again after a quiet spell) keeps its original deadline."""
    decided: list[Event] = []

    def decide(seen: AtTable) -> list[Event]:
        colour, in_play = _back_colours(seen.table.pk, seen.deck.id)
        decided[:] = deck_steps.put_in_play(
            seen.deck, seen.table.setup, table_id=str(seen.table.pk), in_play=in_play,
            colour=colour, limits=deck_limits(), now=timezone.now())
        if not seen.deck.change_due:
            # written to the outbox in the command's transaction (casino.outbox): a command
            # refused or retried leaves no timer, and none waits on the broker
            timers.schedule_deck_timers(seen.deck.id, datetime.fromisoformat(
                decided[0]["data"]["deadline_at"]))
        return decided

    _deck_run(actor, deck_id, (Role.FLOORPERSON, Role.DEALER), decide)
    return _done(deck_id)


def deck_count(*, actor: Actor, deck_id: Any, cards: int) -> Deck:
    """637a.7(e)(4)-(5): the dealer counts the deck; anything but 52 removes it."""
    correct = count_is_right(cards)
    _deck_run(actor, deck_id, (Role.DEALER, Role.FLOORPERSON), lambda s: deck_steps.count(
        s.deck, cards, correct, dealing=s.dealing))
    return _done(deck_id)


def deck_count_verify(*, actor: Actor, deck_id: Any) -> Deck:
    """A floorperson signs the dealer's last count."""
    _deck_run(actor, deck_id, (Role.FLOORPERSON,),
              lambda s: deck_steps.count_verify(s.deck, actor.username))
    return _done(deck_id)


def deck_shuffler_count(*, actor: Actor, deck_id: Any, cards: int) -> Deck:
    """589.5(b), 671a.5(b), 579.5(b): a counting shuffler reports a wrong number of cards →
    the deck is removed."""
    correct = count_is_right(cards)
    _deck_run(actor, deck_id, (Role.DEALER, Role.FLOORPERSON), lambda s: (
        deck_steps.shuffler_count(s.deck, s.table.setup, cards, correct)))
    return _done(deck_id)


def deck_remove(*, actor: Actor, deck_id: Any, reason: str, note: str = "") -> Deck:
    try:
        why = RemovalReason(reason)
    except ValueError:
        raise DomainError(f"reason must be one of {', '.join(r.value for r in RemovalReason)}",
                          code="invalid_removal_reason", field="reason") from None
    note = _text(note, "note", limit=500, required=why is RemovalReason.OTHER)
    _deck_run(actor, deck_id, (Role.FLOORPERSON, Role.DEALER), lambda s: deck_steps.remove(
        s.deck, why, note, dealing=s.dealing))
    return _done(deck_id)


def _dispose(actor: Actor, deck_id: Any, step: str, note: str) -> Deck:
    """603a.16: security or a floorperson disposes of a removed deck, at a table or not."""
    note = _text(note, "note", limit=500, required=False)

    def decision(loaded: Loaded[None]) -> Decision[None]:
        key, state, table_id, version = loaded.row
        role = actor.require(Role.SECURITY, Role.FLOORPERSON)
        events = deck_steps.dispose(state, step, note)
        table = _uuid(table_id)
        return Decision(None, [], role, {"table": str(table) if table else None}, others=[
            Also(Stream("deck", f"deck-{_uuid(key)}"), version, _new_events(events))])

    command_runner.command_run(DECK_ALONE, key=deck_id, actor=actor, decide=decision)
    return _done(deck_id)


def deck_destroy(*, actor: Actor, deck_id: Any, note: str = "") -> Deck:
    """A removed deck destroyed (603a.16)."""
    return _dispose(actor, deck_id, "destroy", note)


def deck_cancel(*, actor: Actor, deck_id: Any, note: str = "") -> Deck:
    """A removed deck cancelled (marked so it can never be used again, 603a.16)."""
    return _dispose(actor, deck_id, "cancel", note)
