"""The players' conduct the dealer records in a hand: cards not kept in full view of the
dealer (637a.18(d)) and a hand fouled by the discards, collected by the dealer or left
at the table (637a.18(k)(1)-(4))."""

from __future__ import annotations

from typing import Any

from poker_room.domain.errors import InvalidAction
from poker_room.domain.games import STUD
from poker_room.domain.hand.constants import (
    BETTING,
    DEALING,
    FOUL_HOW,
    FOULED,
    LEFT_TABLE,
    OUTCOME_DEAD,
    OUTCOME_RECONSTRUCTED,
    OUTCOME_REFUNDED,
)
from poker_room.domain.rake import rake_for_pot


def _flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidAction(f"{field} is true or false", field=field)
    return value


class ConductMixin:
    """Part of :class:`poker_room.domain.hand.Hand`."""

    def cards_not_in_view(self, seat: int) -> list[dict[str, Any]]:
        """The dealer records that a player in the hand did not keep the cards dealt to
        him in full view of the dealer (637a.18(d)). The chapter names no consequence, so
        the hand records it and nothing else changes; the Rules Submission may add one
        (637a.18(s)), applied by a floor ruling and the dealer's commands."""
        mark = len(self.events)
        self._check_open()
        i = self._holding(seat)
        self._emit("CardsNotInView", seat=self._seats[i], rule="637a.18(d)")
        return self.events[mark:]

    def hand_fouled(self, seat: int, how: str, protected: bool, reconstructed: bool = False,
                    contributor: bool = False) -> list[dict[str, Any]]:
        """A player's hand ``how``: ``fouled`` by the discards, ``collected`` by the
        dealer by accident, or left at the table by a player who went without comment
        (``left_table``), 637a.18(k).

        * unprotected (the player did not take reasonable means to protect it): no
          redress; the hand is dead and what the player put in stays in the pot
          (637a.18(k)); a player who left without comment is assumed to have no interest
          in the pot, his cards collected and discarded ((k)(4));
        * protected (a stud player's hole cards are when fouled by the discards, (k)(1);
          a collected stud hand only as the player protected it): ``reconstructed``,
          the round goes on with the hand ((k)(2)); not, the player, a victim of the
          error and not a ``contributor`` to it, is refunded from the pot everything he
          put in and is out of the hand ((k)(3)); a contributor is refunded nothing.

        The refund comes out of the pot before any rake still to be taken, and a rake
        already taken as play progressed (637a.17(b)(1)(i), (2)(i)) is cut to what the
        smaller pot bears, the excess back in the pot as ``rake_returned`` (as a misdeal
        gives it back), so the rake never exceeds its percentage or cap of the pot
        (637a.17(b)(1)); the betting goes on at the highest bet the others made (the
        chapter is silent on a raise refunded this way; the Rules Submission may say
        more, 637a.18(s))."""
        mark = len(self.events)
        self._check_open()
        if how not in FOUL_HOW:
            raise InvalidAction(f"say how the hand was lost: {', '.join(FOUL_HOW)}",
                                field="how")
        protected = _flag(protected, "protected")
        reconstructed = _flag(reconstructed, "reconstructed")
        contributor = _flag(contributor, "contributor")
        i = self._holding(seat)
        if self.phase not in (BETTING, DEALING) or (
                self.phase == DEALING and self._due[0] not in ("board", "common")):
            raise InvalidAction("finish the forced bet, the deal to the players, the draw "
                                "or the discards first", code="step_in_progress")
        if how == LEFT_TABLE:
            if protected:
                raise InvalidAction("a player who leaves without comment is folded only "
                                    "with an unprotected hand (637a.18(k)(4))",
                                    code="hand_protected", field="protected")
        elif how == FOULED and not protected and self.spec.family == STUD:
            # (k)(1) deems stud hole cards protected for fouling only: a collected stud
            # hand is protected as the player protected it, and follows (k) or (k)(3)
            raise InvalidAction("stud hole cards fouled by the discards are protected "
                                "(637a.18(k)(1))",
                                code="stud_hole_cards_protected", field="protected")
        if reconstructed and not protected:
            raise InvalidAction("an unprotected hand has no redress: it is not "
                                "reconstructed (637a.18(k))", code="no_redress",
                                field="reconstructed")
        refund = rake_back = 0
        if reconstructed:
            outcome = OUTCOME_RECONSTRUCTED
        elif protected and not contributor:
            outcome, refund = OUTCOME_REFUNDED, self._contrib[i]
            rake_back = self._rake_over(self._pot_total - refund)
            if refund > self._pot_total - self._rake_taken + rake_back:
                raise InvalidAction("the pot after the rake taken holds less than the "
                                    "refund: a floor ruling (637a.18(a))",
                                    code="refund_exceeds_pot")
        else:
            outcome = OUTCOME_DEAD
        # named as a misdeal names it, so the ledgers give it back to the right column
        money = {"rake_returned": rake_back, "rake_kind": self.rules.rake.kind} \
            if rake_back else {}
        self._emit("HandFouled", seat=self._seats[i], how=how, protected=protected,
                   reconstructed=reconstructed, contributor=contributor, outcome=outcome,
                   refunded=refund, rule=_rule(outcome, how, protected), **money)
        if self._actor < 0 or self.phase != BETTING:
            self._advance()
        return self.events[mark:]

    def _rake_over(self, pot: int) -> int:
        """How much of the rake taken so far exceeds what ``pot`` bears (637a.17(b)):
        what a refund out of the pot gives back to it."""
        return max(0, self._rake_taken - rake_for_pot(self.rules.rake, pot))

    def _holding(self, seat: Any) -> int:
        """The index of a seat dealt into the hand that still holds cards (not folded)."""
        i = self._index(seat)
        if not self._live[i]:
            raise InvalidAction(f"seat {seat} is no longer in the hand", code="seat_folded",
                                field="seat")
        if not self._down[i] and not self._up[i]:
            raise InvalidAction(f"seat {seat} has no cards yet", code="no_cards_dealt",
                                field="seat")
        return i

    def _on_CardsNotInView(self, d) -> None:
        pass  # the record only (637a.18(d))

    def _on_HandFouled(self, d) -> None:
        if d["outcome"] == OUTCOME_RECONSTRUCTED:
            return
        i = self._idx[d["seat"]]
        refund = d["refunded"]
        if refund:
            # 637a.18(k)(3): every chip the player put in goes back, this round's too
            self._stacks[i] += refund
            self._contrib[i] -= refund
            self._pot_total -= refund
            # 637a.17(b)(1): the rake taken as play progressed shrinks with the pot
            self._rake_taken -= d.get("rake_returned", 0)
            self._bets[i] = 0
            self._max_bet = max((b for j, b in enumerate(self._bets) if j != i), default=0)
            if self._aggressor == i:
                self._aggressor = -1
        self._live[i] = False
        self._live_count -= 1
        self._pending[i] = False
        self._muck.extend(self._down[i])
        self._muck.extend(self._up[i])
        if self._actor == i or self._live_count <= 1:
            self._next_actor(i)
        if self.phase == DEALING and self._live_count <= 1:
            self.phase = ""  # one player left: no more cards are dealt


def _rule(outcome: str, how: str, protected: bool) -> str:
    """The subsection the outcome applies."""
    if outcome == OUTCOME_RECONSTRUCTED:
        return "637a.18(k)(2)"
    if protected:
        return "637a.18(k)(3)"  # refunded, or a contributor to the error: nothing back
    return "637a.18(k)(4)" if how == LEFT_TABLE else "637a.18(k)"

