"""Irregularities (637a.18(g)-(p)): misdeals, voided rounds, cards discarded unused,
exposed hole cards replaced, stud cards turned face up in the deal (637a.18(m)-(n))."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from poker_room.domain.errors import CardNotInDeck, InvalidAction
from poker_room.domain.games import BOARD, STUD
from poker_room.domain.hand.constants import (
    DISCARD_REASONS,
    EXPOSURE_CHOICES,
    MISDEAL_REASONS,
    POT_SO_FAR,
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
        there, the rake taken so far included (it had not left the table). That rake is
        whatever ``RakeTaken`` took as play progressed (637a.17(b)(1)(i), (2)(i)), of
        the one pot-rake kind of the hand's rules, named as ``RakeTaken`` names it so the
        rake ledger can take it back from the right column; a rake taken at the end of
        the round (637a.17(b)(1)(ii), (2)(ii)) is never taken before a void."""
        mark = len(self.events)
        returned = [[s, c] for s, c in zip(self._seats, self._contrib) if c]
        rake = self.rules.rake
        self._emit(type_, reason=reason, returned=returned,
                       rake_returned=self._rake_taken,
                       rake_kind=rake.kind if rake is not None else None)
        self._emit("HandCompleted", pot=0, rake=0, contributions=[],
                       stacks=[[s, v] for s, v in zip(self._seats, self._stacks)],
                       winners=[], kill_next=self.kill_active, voided=True)
        return self.events[mark:]

    def _exposures(self, exposed: Any, kind: str, kinds: list[str], per: list[list]
                   ) -> list[list]:
        """The hole cards the dealer turned face up in the first stud deal, checked:
        637a.18(m) (Seven-card Stud: one of the first two — the third card is then dealt
        face down; both — the player's hand is void and the Ante returned) and 637a.18(n)
        (Five-card Stud: the hole card — the second card is dealt face down)."""
        if not exposed:
            return []
        if self.spec.family != STUD or kind != "hole" or "up" not in kinds:
            raise InvalidAction("hole cards are exposed in the first stud deal only "
                                "(637a.18(m)-(n))", field="exposed")
        if not isinstance(exposed, Mapping):
            raise InvalidAction("exposed maps a seat to its hole cards turned face up",
                                field="exposed")
        holes = {seat: cs[:kinds.index("up")] for seat, cs in per}
        out = []
        for key, cards in exposed.items():
            try:
                seat = int(key)
            except (TypeError, ValueError):
                raise InvalidAction("exposed maps seat numbers to cards",
                                    field="exposed") from None
            if (seat not in holes or not isinstance(cards, (list, tuple)) or not cards
                    or len(set(cards)) != len(cards)
                    or any(c not in holes[seat] for c in cards)):
                raise InvalidAction(f"seat {key}: name hole cards dealt to it this deal",
                                    code="card_not_held", field="exposed")
            out.append([seat, list(cards)])
        return sorted(out)

    def _last_card_exposures(self, exposed: Any, choices: Any, kinds: list[str],
                             per: list[list]) -> list[tuple[int, int, str]]:
        """637a.18(m): in Seven-card Stud the third hole card (the last card, dealt face
        down) turned face up in the deal; each such player chooses to stop betting and
        contend only for the pot as it stands (``pot_so_far``, (m)(1)) or to play on for
        the entire pot (``entire_pot``, (m)(2))."""
        if self.spec.family != STUD or kinds != ["down"] or not self._last_street_due():
            raise InvalidAction("only the first stud deal and the last Seven-card Stud "
                                "card are dealt with cards exposed (637a.18(m)-(n))",
                                field="exposed")
        if not isinstance(exposed, Mapping) or not isinstance(choices, Mapping):
            raise InvalidAction("exposed maps a seat to its last card turned face up, and "
                                "exposure_choice each such seat to pot_so_far or "
                                "entire_pot (637a.18(m)(1)-(2))", code="exposure_choice_required",
                                field="exposure_choice")
        dealt = {seat: cs[0] for seat, cs in per}
        try:
            shown = {int(k): v for k, v in exposed.items()}
            chosen = {int(k): v for k, v in choices.items()}
        except (TypeError, ValueError):
            raise InvalidAction("exposed and exposure_choice map seat numbers",
                                field="exposed") from None
        out = []
        for seat, cards in sorted(shown.items()):
            if (seat not in dealt or not isinstance(cards, (list, tuple))
                    or list(cards) != [dealt[seat]]):
                raise InvalidAction(f"seat {seat}: name the card dealt to it now",
                                    code="card_not_held", field="exposed")
            if chosen.get(seat) not in EXPOSURE_CHOICES:
                raise InvalidAction(f"seat {seat} chooses pot_so_far or entire_pot "
                                    "(637a.18(m)(1)-(2))", code="exposure_choice_required",
                                    field="exposure_choice")
            out.append((seat, dealt[seat], chosen[seat]))
        if set(chosen) - set(shown):
            raise InvalidAction("a choice for a seat whose card was not exposed",
                                field="exposure_choice")
        return out

    def _last_street_due(self) -> bool:
        """The deal due is the last stud street (the seventh card)."""
        streets = self.spec.stud_streets
        return bool(streets) and self._bet_round_of_step() == len(streets)

    def _on_ThirdHoleCardExposed(self, d) -> None:
        """637a.18(m): the card is face up now; with (m)(1) the player makes no more bets
        and contends for the pots formed before any more betting (as if all in)."""
        i = self._idx[d["seat"]]
        self._down[i].remove(d["card"])
        self._up[i].append(d["card"])
        if d["choice"] == POT_SO_FAR:
            self._stopped[i] = True
            self._pending[i] = False
