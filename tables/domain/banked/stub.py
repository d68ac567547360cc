"""Five Card Hi-Lo: the stub after the deal (579.8(e)-(h), 579.9(c)-(f), 579.10(c)-(f)).

After five cards to each player and the dealer, the dealer takes the stub out of the shoe
(or the hand) and puts it in the discard rack without exposing it (``stub_discard``), or
counts it face down (``stub_count``): at least once every 5 rounds where no counting
shuffler is used, whenever the dealer chooses where one is: the stub and the cards out
this round make 52 → the stub goes to the discard rack; any other number is the wrong stub
count (void, and the deck removed unless the cards were misdealt and the stub and the
cards held make 52), as :mod:`.irregularities` ``stub_count_wrong``.

Which section applies is the table's dealing method (``RoundOpened.dealing_method``): a
manual shoe 579.8, by hand 579.9, an automated shoe 579.10; a round opened without it
(the dispute calculator) is read by how it was dealt: stacks 579.10, else 579.8.

The count every 5 rounds is enforced on the deck, not here: the round gate refuses a deck
whose count is due (``deck_count_due``), and the service that records a right stub count
records the deck's count in the deck's stream with it (tables.services.banked).

Lunar Poker has no stub step: its deck serves the draws until the round ends and its
cards are counted after every 5 rounds (671a.11(h), the deck's count).
"""

from __future__ import annotations

from typing import Any

from casino.domain.cards import DECK_SIZE
from tables.domain.banked.errors import bad, conflict
from tables.domain.banked.events import Recorder
from tables.domain.banked.irregularities import stub_cites as cites
from tables.domain.banked.irregularities import void
from tables.domain.banked.state import Phase, RoundState

def _check(state: RoundState) -> None:
    if state.phase is Phase.NEW:
        raise conflict("round_not_open", "the round has not been opened")
    if state.phase is Phase.CLOSED:
        raise conflict("round_closed", "the round is closed")
    if state.lunar:
        raise bad("no_stub_in_game", "Lunar Poker deals from the deck until the round ends; "
                  "its cards are counted after every 5 rounds (671a.11(h)): count the deck")
    if state.phase in (Phase.BETTING, Phase.DEALING):
        raise conflict("stub_before_deal", "the stub is removed after five cards have been "
                       "dealt to each player and the dealer")
    if state.stub == "discarded":
        raise conflict("stub_already_discarded", "the stub is in the discard rack")


def stub_discard(rec: Recorder, cmd: dict[str, Any]) -> None:
    """579.8(e), 579.9(c), 579.10(c): the stub to the discard rack, cards not exposed."""
    _check(rec.state)
    rec.emit("StubDiscarded", cite=cites(rec.state)[0])


def stub_count(rec: Recorder, cmd: dict[str, Any]) -> None:
    """579.8(f)-(h), 579.9(d)-(f), 579.10(d)-(f): the stub counted face down. Where a
    counting shuffler is used the count is not required, but the dealer may still make it
    (579.8(f) says when the count is due, not that it is barred).

    A wrong count is a misdeal (``misdealt``) only with the cards the players and the
    dealer hold counted on the layout (``held``): the deck is kept only if the stub and
    the cards held make 52 (579.8(h), 579.9(f), 579.10(f): "but 52 cards remain in the
    deck"); any other total, like a wrong count that is no misdeal, removes it."""
    state = rec.state
    _check(state)
    _, count_cite, right_cite, wrong_cite = cites(state)
    cards = _counted(cmd.get("cards"), "cards")
    misdealt = cmd.get("misdealt") or False
    if not isinstance(misdealt, bool):
        raise bad("invalid_irregularity", "misdealt is true or false", field="misdealt")
    held = cmd.get("held")
    if misdealt and held is None:
        raise bad("misdealt_needs_count", f"{wrong_cite}: a misdeal keeps the deck only "
                  "if 52 cards remain: give the cards the players and the dealer hold, "
                  "counted on the layout", field="held")
    if held is not None and not misdealt:
        raise bad("held_without_misdeal", "the cards held are counted for a misdeal only",
                  field="held")
    out = len(state.cards_out())  # every hand, the dealer's and any card found face up
    correct = cards + out == DECK_SIZE
    if correct and misdealt:
        raise bad("stub_count_right", f"{right_cite}: the stub and the {out} cards out "
                  "make 52; a misdeal with a right count is x.13(c) (wrong_card_count)",
                  field="misdealt")
    if misdealt:
        held = _counted(held, "held")
        rec.emit("StubCounted", cards=cards, held=held, deck_cards=cards + held,
                 correct=False, misdealt=True, cite=count_cite)
        void(rec, "stub_count_wrong", wrong_cite, deck_removed=cards + held != DECK_SIZE)
        return
    rec.emit("StubCounted", cards=cards, deck_cards=cards + out, correct=correct,
             cite=count_cite)
    if correct:
        rec.emit("StubDiscarded", cite=right_cite)
    else:
        void(rec, "stub_count_wrong", wrong_cite, deck_removed=True)


def _counted(value: Any, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= DECK_SIZE:
        what = "counted in the stub" if field == "cards" else "the players and the dealer hold"
        raise bad("invalid_stub_count", f"{field} is the number of cards {what}, 0 to "
                  f"{DECK_SIZE}", field=field)
    return value
