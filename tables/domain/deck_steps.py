"""Which step a deck may take from the state it is in, and what each deck command decides,
as pure rules: the deck service (:mod:`tables.services.decks`) reads the deck and its
table in one locked statement and lets these functions decide the events.

The graph of steps is the one the ``Deck`` read model's state machine applies when the
events are projected (``tables.models.Deck``; a test checks the two agree):

received → inspected (dealer) → verified (floorperson; a defect rejects it) → spread for
the first player(s) → washed → shuffled → (cut) ready → in play → … → removed →
destroyed or cancelled (589.4, 589.5, 637a.4, 637a.5, 603a.16). A deck ready or in play
is spread again after a quiet spell (589.5(f), 637a.5(d)); any deck not yet removed may
be removed.

Each decision returns the events as ``{"type": ..., "data": ...}``, the form the banked
domain uses; the service turns them into the store's events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from casino.domain.errors import ConflictError
from tables.domain.decks import (
    DeckConflict,
    RemovalReason,
    ShuffleMethod,
    TableSetup,
    check_cut,
    check_jam,
    check_shuffle,
    check_spread,
    cut_required,
    deadline,
    time_limit,
)

Event = dict[str, Any]


class DeckState(StrEnum):
    """The states of a deck (the values the read model stores)."""

    RECEIVED = "received"
    INSPECTED = "inspected"
    VERIFIED = "verified"
    SPREAD = "spread"
    WASHED = "washed"
    SHUFFLED = "shuffled"
    READY = "ready"
    IN_PLAY = "in_play"
    REMOVED = "removed"
    DESTROYED = "destroyed"
    CANCELLED = "cancelled"


S = DeckState

#: every state a deck is in before it is removed
LIVE = frozenset({S.RECEIVED, S.INSPECTED, S.VERIFIED, S.SPREAD, S.WASHED, S.SHUFFLED,
                  S.READY, S.IN_PLAY})


@dataclass(frozen=True)
class Step:
    """A step of the deck's life: the states it is taken from, the state it leads to, and
    how a refusal names it ("it cannot be <done> now")."""

    sources: frozenset[DeckState]
    target: DeckState
    done: str


#: the steps by the name of the read model's transition that applies them
STEPS: Mapping[str, Step] = {
    "inspect": Step(frozenset({S.RECEIVED}), S.INSPECTED, "inspected"),          # 589.4(a)
    "verify": Step(frozenset({S.INSPECTED}), S.VERIFIED, "verified"),            # 589.4(a)
    # From VERIFIED at opening (589.4(b)); from READY or IN_PLAY when a table open for
    # gaming has had no activity and the cards are spread again (589.5(f), 637a.5(d)).
    "spread": Step(frozenset({S.VERIFIED, S.READY, S.IN_PLAY}), S.SPREAD, "spread"),
    "wash": Step(frozenset({S.SPREAD}), S.WASHED, "washed"),                     # 589.4(c)
    "shuffle": Step(frozenset({S.WASHED, S.READY}), S.SHUFFLED, "shuffled"),     # 589.5(a)
    # A shuffler that jams mid-shuffle leaves a stack to be shuffled again (637a.18(q),
    # 589.13(e)): the deck goes back to where a shuffle starts, never ready.
    "jam": Step(frozenset({S.WASHED, S.READY}), S.WASHED, "shuffled"),
    "make_ready": Step(frozenset({S.SHUFFLED}), S.READY, "cut"),                 # 589.5(d)
    "order_recut": Step(frozenset({S.READY}), S.SHUFFLED, "recut"),              # 589.5(e)
    "put_in_play": Step(frozenset({S.READY}), S.IN_PLAY, "put in play"),
    "remove": Step(LIVE, S.REMOVED, "removed"),
    "destroy": Step(frozenset({S.REMOVED}), S.DESTROYED, "destroyed"),           # 603a.16
    "cancel": Step(frozenset({S.REMOVED}), S.CANCELLED, "cancelled"),            # 603a.16
}


def step_allowed(state: str, step: str) -> DeckState:
    """The state ``step`` leads to from ``state``, or 409 ``deck_wrong_state`` (a
    :class:`DeckConflict`, as every refusal of a step from the wrong state)."""
    rule = STEPS[step]
    if state not in rule.sources:
        raise DeckConflict(f"the deck is {state.replace('_', ' ')}; it cannot be "
                           f"{rule.done} now")
    return rule.target


@dataclass(frozen=True)
class LastCount:
    """The deck's last count or count verification in its card inventory log."""

    step: str            # "counted" or "count-verified"
    actor: str
    stream_version: int
    cards: Any


@dataclass(frozen=True)
class DeckSeen:
    """A deck as a command decides on it: its row, and from its log who inspected it and
    its last count."""

    id: str
    state: str
    cut_required: bool
    defects: list[str]
    entered_play_at: datetime | None
    change_due: bool
    inspector: str | None = None
    last_count: LastCount | None = None
    #: its last shuffle jammed and none has completed since (637a.18(q), 589.13(e))
    jammed: bool = False


def _event(type_: str, **data: Any) -> Event:
    return {"type": type_, "data": data}


def _not_dealing(dealing: bool) -> None:
    """A deck dealing the round in progress is counted, spread or removed after it."""
    if dealing:
        raise ConflictError("the deck is dealing the round in progress; close the round first",
                            code="round_in_progress")


def inspect(deck: DeckSeen, defects: list[str]) -> list[Event]:
    """589.4(a), 637a.4(a): the dealer inspects the cards for defects."""
    step_allowed(deck.state, "inspect")
    return [_event("DeckInspected", defects=list(defects))]


def inspection_verify(deck: DeckSeen, *, accepted: bool, note: str, verifier: str
                      ) -> list[Event]:
    """589.4(a), 637a.4(a): a floorperson other than the dealer who inspected verifies the
    inspection; a defect, found by either, rejects the deck (it is removed)."""
    if deck.state != S.INSPECTED:
        raise DeckConflict(f"the deck is {deck.state}; only an inspected deck is verified")
    if deck.inspector is not None and deck.inspector == verifier:
        raise ConflictError("the inspection is verified by someone other than the dealer "
                            "who made it", code="verifier_is_inspector")
    if accepted and deck.defects:
        raise ConflictError("the dealer found defects: the deck cannot be accepted",
                            code="deck_defective")
    events = [_event("DeckInspectionVerified", accepted=accepted, note=note)]
    if not accepted:
        events.append(_event("DeckRemoved", reason=RemovalReason.DEFECT.value,
                             note=note or "; ".join(deck.defects)))
    return events


def spread(deck: DeckSeen, setup: TableSetup, players: object, *, dealing: bool
           ) -> list[Event]:
    """589.4(b): spread face up for the first player; 637a.4(b): the first two players;
    again after a quiet spell (589.5(f), 637a.5(d)), never while the deck deals a round."""
    step_allowed(deck.state, "spread")
    _not_dealing(dealing)
    return [_event("DeckSpread", players=check_spread(setup, players))]


def wash(deck: DeckSeen) -> list[Event]:
    """589.4(c), 637a.4(c): turned face down, washed and stacked."""
    step_allowed(deck.state, "wash")
    return [_event("DeckWashed")]


def shuffle(deck: DeckSeen, setup: TableSetup, how: ShuffleMethod) -> list[Event]:
    """589.5(a), 637a.5(a): by hand or by a working automated shuffler; only a manual
    shuffle needs a cut afterwards."""
    step_allowed(deck.state, "shuffle")
    check_shuffle(setup, how)
    return [_event("DeckShuffled", method=how.value, cut_required=cut_required(setup, how))]


def _not_jammed(deck: DeckSeen) -> None:
    """637a.18(q), 589.13(e), 671a.13(e), 579.13(d): after a jam the cards are shuffled
    again before anything else is done with them."""
    if deck.jammed:
        raise ConflictError("the shuffler jammed on this deck: shuffle it again first",
                            code="reshuffle_required")


def shuffle_jammed(deck: DeckSeen, setup: TableSetup, note: str) -> list[Event]:
    """637a.18(q), 589.13(e), 671a.13(e), 579.13(d): the automated shuffler jammed,
    stopped or did not complete its cycle; the deck waits to be shuffled again."""
    step_allowed(deck.state, "jam")
    check_jam(setup)
    return [_event("DeckShuffleJammed", note=note)]


def cut(deck: DeckSeen, depth: object) -> list[Event]:
    """589.5(d), 671a.5(d), 579.5(d), 637a.5(b)(2): a shuffled stack that needs a cut, the
    cover card at least 10 deep."""
    _not_jammed(deck)
    if deck.state != S.SHUFFLED or not deck.cut_required:
        raise DeckConflict(f"the deck is {deck.state}; only a shuffled stack that needs a "
                           "cut is cut")
    return [_event("DeckCut", depth=check_cut(depth))]


def recut(deck: DeckSeen, reason: str) -> list[Event]:
    """589.5(e), 671a.5(e), 579.5(e), 637a.5(c): a cut deck not yet dealt from."""
    if deck.state != S.READY or not deck.cut_required:
        raise DeckConflict("only a cut deck not yet dealt from can be recut")
    return [_event("DeckRecutOrdered", reason=reason)]


def put_in_play(deck: DeckSeen, setup: TableSetup, *, table_id: str, in_play: Sequence[str],
                colour: str, limits: Mapping[str, int], now: datetime) -> list[Event]:
    """The deck (its backs ``colour``) enters play (or stands by as the second of the pair)
    if the table may have one more deck in play (589.3, 637a.3) and its backs differ from
    the deck already in play (``in_play``: their back colours; 637a.3(a), 579.3(b)(1),
    589.3(b)(1), 671a.3(b)(1)); its time limit runs from when it first entered play: 4 h
    by hand, 8 h from a shoe (589.3(c)), 12 h at poker (637a.3(c))."""
    _not_jammed(deck)
    step_allowed(deck.state, "put_in_play")
    if len(in_play) >= setup.decks_in_play_allowed:
        raise ConflictError(
            f"this table already has {len(in_play)} deck(s) in play; it may have "
            f"{setup.decks_in_play_allowed} (589.3, 637a.3)", code="too_many_decks_in_play")
    if _colour(colour) in {_colour(c) for c in in_play}:
        raise ConflictError(
            f"the deck in play at this table has {colour} backs too; the two decks have "
            "backs of different colours (637a.3(a), 579.3(b)(1), 589.3(b)(1), "
            "671a.3(b)(1))", code="same_back_colour")
    basis, seconds = time_limit(setup, dict(limits))
    started = deck.entered_play_at or now
    return [_event("DeckPutInPlay", table_id=table_id, entered_play_at=started.isoformat(),
                   deadline_at=deadline(started, seconds).isoformat(), limit_basis=basis,
                   limit_seconds=seconds, returning=deck.entered_play_at is not None)]


def _colour(name: str) -> str:
    """A back colour as written by people ("Red", "red "): compared without case or
    surrounding spaces."""
    return name.strip().casefold()


def count(deck: DeckSeen, cards: int, correct: bool, *, dealing: bool) -> list[Event]:
    """637a.7(e)(4)-(5): the dealer counts a deck in play between rounds; anything but 52
    removes it."""
    if deck.state != S.IN_PLAY:
        raise ConflictError(f"the deck is {deck.state}; only a deck in play is counted",
                            code="deck_not_in_play")
    _not_dealing(dealing)
    events = [_event("DeckCounted", cards=cards, correct=correct)]
    if not correct:
        events.append(_event("DeckRemoved", reason=RemovalReason.COUNT_WRONG.value,
                             note=f"counted {cards} cards"))
    return events


def count_verify(deck: DeckSeen, verifier: str) -> list[Event]:
    """A floorperson other than who counted signs the dealer's last count."""
    last = deck.last_count
    if last is None or last.step != "counted":
        raise ConflictError("there is no count awaiting verification",
                            code="no_count_to_verify")
    if last.actor == verifier:
        raise ConflictError("a count is verified by someone other than who counted",
                            code="verifier_is_counter")
    return [_event("DeckCountVerified", count_version=last.stream_version, cards=last.cards)]


def shuffler_count(deck: DeckSeen, setup: TableSetup, cards: int, correct: bool
                   ) -> list[Event]:
    """589.5(b), 671a.5(b), 579.5(b): a counting shuffler reports the cards of a deck in
    play; a wrong number removes it."""
    if not setup.counting_shuffler:
        raise ConflictError("this table has no working counting shuffler",
                            code="no_counting_shuffler")
    if deck.state != S.IN_PLAY:
        raise ConflictError(f"the deck is {deck.state}, not in play", code="deck_not_in_play")
    events = [_event("DeckShufflerCounted", cards=cards, correct=correct)]
    if not correct:
        events.append(_event("DeckRemoved", reason=RemovalReason.SHUFFLER_COUNT.value,
                             note=f"shuffler counted {cards} cards"))
    return events


def remove(deck: DeckSeen, why: RemovalReason, note: str, *, dealing: bool) -> list[Event]:
    """Any deck not yet removed leaves the table (589.3(c), 637a.3(c), 637a.7(e)(5)...),
    never while it deals a round."""
    step_allowed(deck.state, "remove")
    _not_dealing(dealing)
    return [_event("DeckRemoved", reason=why.value, note=note)]


#: the event that disposes of a removed deck, by its step (603a.16)
DISPOSALS = {"destroy": "DeckDestroyed", "cancel": "DeckCancelled"}


def dispose(state: str, step: str, note: str) -> list[Event]:
    """603a.16: a removed deck destroyed, or cancelled so it is never used again."""
    step_allowed(state, step)
    return [_event(DISPOSALS[step], note=note)]
