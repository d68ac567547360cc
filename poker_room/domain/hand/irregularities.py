"""Irregularities (637a.18(g)-(p)): misdeals, voided rounds, cards discarded unused,
exposed hole cards replaced."""

from __future__ import annotations

from typing import Any

from poker_room.domain.errors import CardNotInDeck, InvalidAction
from poker_room.domain.games import BOARD
from poker_room.domain.hand.constants import (
    DISCARD_REASONS,
    MISDEAL_REASONS,
)


class IrregularitiesMixin:
    """Part of :class:`poker_room.domain.hand.Hand`."""

    def card_discard(self, card: int, reason: str) -> list[dict[str, Any]]:
        """A card that may not be used this round goes to the discards: a card found face
        up in the deck (637a.18(j)) or dealt off the table (637a.18(o)). A second card
        found face up in the deck is a misdeal instead (637a.18(g)(3))."""
        mark = len(self.events)
        self._check_open()
        if reason not in DISCARD_REASONS:
            raise InvalidAction(f"say why the card is discarded: {', '.join(DISCARD_REASONS)}",
                                field="reason")
        if reason == "face_up_in_deck" and self._face_up_found:
            raise InvalidAction("more than one card found face up in the deck is a misdeal "
                                "(637a.18(g)(3))", code="misdeal_required")
        if self._deck is not None:
            if not isinstance(card, int) or isinstance(card, bool) or card not in self._deck:
                raise CardNotInDeck(f"{card!r} is not in the stub", field="card")
        else:
            self._card_ok(card, [])
        self._emit("CardDiscarded", card=card, reason=reason)
        return self.events[mark:]

    def hole_card_exposed(self, seat: int, card: int, replacement: int | None = None
                          ) -> list[dict[str, Any]]:
        """Hold'em and Omaha: a hole card dealt face up is exchanged for the top card of the
        deck and goes face down to the discards (637a.18(p)). Without an engine deck the
        dealer gives the ``replacement``."""
        mark = len(self.events)
        self._check_open()
        if self.spec.family != BOARD:
            raise InvalidAction("the exchange of an exposed hole card is for Hold'em and "
                                "Omaha (637a.18(p))", code="not_a_board_game")
        i = self._index(seat)
        if self._board or not any(self._down):
            raise InvalidAction("an exposed hole card is exchanged while the hole cards are "
                                "dealt, before the flop", code="too_late_to_exchange")
        if card not in self._down[i]:
            raise InvalidAction(f"seat {seat} does not hold {card!r}", code="card_not_held",
                                field="card")
        if self._deck is not None:
            if replacement is not None:
                raise InvalidAction("cards come from the deck at this table",
                                    field="replacement")
            replacement = self._deck[-1]
        else:
            replacement = self._card_ok(replacement, [])
        self._emit("ExposedCardReplaced", seat=seat, card=card, replacement=replacement)
        return self.events[mark:]

    def misdeal(self, reason: str) -> list[dict[str, Any]]:
        """Declare a misdeal (637a.18(g)): every chip goes back and the cards are
        reshuffled for a new deal."""
        self._check_open()
        if not isinstance(reason, str) or reason not in MISDEAL_REASONS:
            raise InvalidAction(f"a misdeal needs one of the causes of 637a.18(g): "
                                f"{', '.join(MISDEAL_REASONS)}", field="reason")
        if MISDEAL_REASONS[reason] and len(self._voluntary) >= 2:
            raise InvalidAction("too late for a misdeal: two players have voluntarily "
                                "bet (637a.18(g)(2), (4))", code="misdeal_too_late")
        return self._return_all("MisdealDeclared", reason)

    def void(self, reason: str = "missing_or_extra_cards") -> list[dict[str, Any]]:
        """Void the round (637a.18(i)): every chip in the pot goes back to its player."""
        self._check_open()
        return self._return_all("HandVoided", reason)

    def _on_CardDiscarded(self, d) -> None:
        c = d["card"]
        if self._deck is not None and c in self._deck:
            self._deck.remove(c)
        self._out.add(c)
        self._muck.append(c)
        if d["reason"] == "face_up_in_deck":
            self._face_up_found += 1

    def _on_ExposedCardReplaced(self, d) -> None:
        i = self._idx[d["seat"]]
        down = self._down[i]
        down[down.index(d["card"])] = d["replacement"]
        self._take(d["replacement"])
        self._muck.append(d["card"])

    def _on_MisdealDeclared(self, d) -> None:
        self._return_chips(d)

    _on_HandVoided = _on_MisdealDeclared

    def _return_chips(self, d) -> None:
        for s, a in d["returned"]:
            self._stacks[self._idx[s]] += a

    def _return_all(self, type_: str, reason: str) -> list[dict[str, Any]]:
        """637a.18(g), (i): every chip put in the pot goes back to the player who put it
        there, the rake taken so far included (it had not left the table)."""
        mark = len(self.events)
        returned = [[s, c] for s, c in zip(self._seats, self._contrib) if c]
        self._emit(type_, reason=reason, returned=returned,
                       rake_returned=self._rake_taken)
        self._emit("HandCompleted", pot=0, rake=0, contributions=[],
                       stacks=[[s, v] for s, v in zip(self._seats, self._stacks)],
                       winners=[], kill_next=self.kill_active, voided=True)
        return self.events[mark:]
