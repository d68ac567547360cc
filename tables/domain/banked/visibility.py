"""What each audience may see of a house-banked round (DESIGN §2: what a person may see is
a domain rule, applied the same way by every interface).

Two audiences:

* ``TERMINAL`` — the table: the dealer's and floor's terminal, and anything shown at the
  table (command answers, ``GET rounds/{id}/play/``).
* ``AUDIT`` — surveillance, compliance, finance, the regulator: the round reconstruction,
  the admin's event history, the event log (``events/``, ``streams/{id}/events/``).

The rule:

* The dealer's face-down cards (``CardsDealt.dealer``; at Lunar the face-up card stays in
  ``dealer_up_card``) are seen by **nobody** until they are turned up — the dealer revealed
  (``DealerRevealed`` / ``DealerHandsSet``: phases showdown, forcing, dealer draw) — or the
  round is over (every wager settled, void, or closed). Audit roles are no exception: a
  reconstruction or an event page read while the round is in play would otherwise tell
  someone off the table what the dealer holds.
* The shuffled deck of a round dealt by the server (``deck``) — the dealer's cards and
  every card still to come — is never shown at the table; audit roles see it once the
  round is over (it proves the deal), never before.

Pure: no Django. The state is the one :func:`tables.domain.banked.rebuild` gives for the
events the audience is shown.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any

from tables.domain.banked.state import Phase, RoundState


class Audience(StrEnum):
    TERMINAL = "terminal"
    AUDIT = "audit"


#: phases reached only after the dealer's cards were turned up (x.11(e), 579.11(e))
_REVEALED = (Phase.SHOWDOWN, Phase.FORCING, Phase.DEALER_DRAW, Phase.CLOSED)
#: phases in which the domain settles wagers (after "all decisions are locked in")
_SETTLING = (Phase.DRAWING, Phase.FORCING, Phase.DEALER_DRAW, Phase.SHOWDOWN)


def settled(state: RoundState) -> bool:
    """Every wager settled, or the round void; the closing event not yet recorded."""
    if state.phase in (Phase.NEW, Phase.CLOSED):
        return False
    if state.void is not None:
        return True
    return (state.phase in _SETTLING and bool(state.positions)
            and not any(p.unsettled() for p in state.positions.values()))


#: the phase a round is reported in once every wager is settled (or the round void) and
#: the dealer is yet to close it (589.11(f), 579.11(l)). Never a :class:`Phase` the state
#: holds (the domain closes at once; the service holds the RoundClosed back), so a
#: snapshot's ``Phase(d["phase"])`` refuses it.
SETTLED = "settled"


def reported_phase(state: RoundState) -> str:
    """The phase a round is shown in: :data:`SETTLED` once every wager is settled and the
    close is all that is left (589.11(f), 579.11(l)) — a 589 round whose players all
    declined to force the dealer (589.11(e)(2)(i)) is no longer "forcing" — otherwise
    the state's own phase."""
    return SETTLED if settled(state) else state.phase.value


def round_over(state: RoundState) -> bool:
    """Settled, void or closed: nothing about the cards is secret any more."""
    return state.phase is Phase.CLOSED or state.void is not None or settled(state)


def dealer_revealed(state: RoundState) -> bool:
    """The dealer's cards have been turned up (or the round is over)."""
    return state.phase in _REVEALED or round_over(state)


def dealer_visible(state: RoundState, audience: Audience) -> bool:
    """Whether ``audience`` sees the dealer's face-down cards: the same moment for every
    audience (module docstring)."""
    Audience(audience)
    return dealer_revealed(state)


def deck_visible(state: RoundState, audience: Audience) -> bool:
    """Whether ``audience`` sees a dealt round's shuffled deck: audit, once it is over."""
    return Audience(audience) is Audience.AUDIT and round_over(state)


def dealer_cards(state: RoundState, audience: Audience) -> tuple[int, ...]:
    """The dealer's cards as ``audience`` may see them (empty while face down; the Lunar
    face-up card is ``state.dealer_up``)."""
    return state.dealer_cards if dealer_visible(state, audience) else ()


def event_data(ev_type: str, data: dict[str, Any], state: RoundState,
               audience: Audience) -> dict[str, Any]:
    """One event's data as ``audience`` may see it, ``state`` being the round now."""
    if ev_type != "CardsDealt":
        return data
    drop = set()
    if not dealer_visible(state, audience):
        drop.add("dealer")
    if not deck_visible(state, audience):
        drop.add("deck")
    if not drop & data.keys():
        return data
    return {k: v for k, v in data.items() if k not in drop}


def events_view(events: Iterable[dict[str, Any]], state: RoundState,
                audience: Audience) -> list[dict[str, Any]]:
    """Events ``{"type", "data", ...}`` with each one's data as ``audience`` may see it
    (other keys kept)."""
    return [{**e, "data": event_data(e["type"], e["data"], state, audience)} for e in events]
