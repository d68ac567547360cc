"""Five Card Hi-Lo: the stub after the deal, and what its count does to the round's deck
(579.8(e)-(h), 579.9(c)-(f), 579.10(c)-(f)).

The round's events are decided by the domain (:mod:`tables.domain.banked.stub`, and
:mod:`tables.domain.banked.irregularities` for ``stub_count_wrong``); the deck's follow
from them and are appended to the deck's stream in the same command, through the command
runner's ``others`` (:func:`tables.services.banked._run`), with the deck's own steps
(:mod:`tables.domain.deck_steps`, the ones ``deck_count`` and ``deck_remove`` decide):

* a right count is the deck's count: ``DeckCounted`` (its rounds since the count start
  again, as the dealer's deck count does); so is a misdeal whose stub and cards held make
  52 (the deck stays, 579.8(h));
* a wrong count that is not a misdeal with 52 remaining removes the entire deck from the
  table:
  ``DeckCounted`` (not right) and ``DeckRemoved`` (``count-wrong``), as a wrong deck count
  does; a wrong stub count reported by the floor as an irregularity, without the count,
  removes it (``DeckRemoved``).
"""

from __future__ import annotations

import uuid
from typing import Any

from casino.command_runner import Also
from casino.domain.cards import DECK_SIZE
from casino.domain.errors import DomainError
from casino.eventstore.store import NewEvent, Stream
from tables.domain import deck_steps
from tables.domain.banked.commands import RoundCommand, StubCount, StubDiscard
from tables.domain.banked.events import Event
from tables.domain.banked.state import RoundState
from tables.domain.decks import RemovalReason


def stub_command(cards: int | None, misdealt: bool | None, held: int | None = None
                 ) -> RoundCommand:
    """The stub to the discard rack (no ``cards``) or counted; ``misdealt`` (with ``held``,
    the cards the players and the dealer hold) only answers a count (579.8(h), 579.9(f),
    579.10(f)): sent without one it is refused, never dropped."""
    if cards is None:
        if misdealt is not None or held is not None:
            raise DomainError("misdealt answers a wrong stub count (579.8(h), 579.9(f), "
                              "579.10(f)): give the cards counted in the stub",
                              code="misdealt_needs_count", field="cards")
        return StubDiscard()
    return StubCount(cards, misdealt, held)


def round_stub(*, actor: Any, round_id: Any, cards: int | None = None,
               misdealt: bool | None = None, held: int | None = None,
               expected_version: int | None = None) -> Any:
    """Five Card Hi-Lo, after the deal: the stub to the discard rack (``cards`` None,
    579.8(e), 579.9(c), 579.10(c)), or counted face down first (579.8(f)-(h),
    579.9(d)-(f), 579.10(d)-(f); allowed, not required, where a counting shuffler is
    used): 52 in the deck puts it in the discard rack and counts the round's deck; another
    number voids the round and removes the deck, unless the cards were misdealt and the
    stub and the cards ``held`` make 52 (:func:`deck_events`)."""
    from tables.services.banked import round_command

    return round_command(actor=actor, round_id=round_id, expected_version=expected_version,
                         command=stub_command(cards, misdealt, held))


def _deck_seen(deck_id: str, state: str) -> deck_steps.DeckSeen:
    """The round's deck as the round's locked read saw it: the deck steps used here read
    only its state."""
    return deck_steps.DeckSeen(deck_id, state, False, [], None, False)


def _stub_events(seen: deck_steps.DeckSeen, counted: Event | None, voided: Event | None,
                 round_id: str | None) -> list[Event]:
    """The deck's events for the stub count ``counted`` and the void ``voided`` of one
    command (only a wrong stub count that is not a misdeal voids with ``deck_removed``).
    The round is voided by then, so the deck no longer deals it (``dealing=False``)."""
    removed = voided is not None and voided["data"]["deck_removed"]
    if counted is not None:
        # the deck holds what the stub and the cards out (or, for a misdeal, the cards
        # held) make: 52 keeps it (a right count, or the misdeal with 52 remaining)
        c = counted["data"]
        events = deck_steps.count(seen, c["deck_cards"], c["deck_cards"] == DECK_SIZE,
                                  dealing=False)
        events[0]["data"].update(stub=c["cards"], round_id=round_id, cite=c["cite"])
        if "held" in c:
            events[0]["data"]["held"] = c["held"]
    elif removed:  # reported by the floor as an irregularity: no count given
        events = deck_steps.remove(seen, RemovalReason.COUNT_WRONG, "stub count wrong",
                                   dealing=False)
    else:
        return []
    for e in events:
        if e["type"] == "DeckRemoved":
            e["data"].update(round_id=round_id, cite=voided["data"]["cite"])  # type: ignore[index]
    return events


def deck_events(deck: tuple[str | None, int, str | None], state: RoundState,
                events: list[Event]) -> list[Also]:
    """What the round's stub count does to its deck (``deck``: its id, stream version and
    state as the round's read saw them), to append with the round's ``events``: nothing
    when the command counted no stub and voided nothing for a wrong one."""
    deck_id, version, deck_state = deck
    counted = next((e for e in events if e["type"] == "StubCounted"), None)
    voided = next((e for e in events if e["type"] == "RoundVoided"), None)
    if deck_id is None or (counted is None and voided is None):
        return []
    out = _stub_events(_deck_seen(deck_id, deck_state or ""), counted, voided, state.round_id)
    if not out:
        return []
    return [Also(Stream("deck", f"deck-{deck_id}"), version,
                 [NewEvent(e["type"], e["data"]) for e in out])]


def deck_of(row: tuple[Any, ...]) -> tuple[str | None, int, str | None]:
    """The round's deck id, its stream's version and its state, as the round's locked read
    saw them (:data:`tables.services.banked.ROUND`'s last three columns)."""
    deck_id, version, state = row[8], row[9], row[10]
    return (str(uuid.UUID(str(deck_id))) if deck_id else None), version or 0, state
