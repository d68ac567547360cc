"""The showdown and the pots (637a.18(e), 637a.10(i)-(j), 637a.11(k), 637a.12(k)-(l),
637a.19(k)-(l), 637a.20(k)-(l), 637a.21(k)): the order of showing, the values, the
side pots, split pots and odd chips, the awards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from casino.domain.hands import stud as _stud
from poker_room.domain import evaluate as ev
from poker_room.domain.contributions import contributions as _contributions
from poker_room.domain.games import STUD
from poker_room.domain.kill import next_kill_active
from poker_room.domain.pots import halves, side_pots, split_evenly
from poker_room.domain.rake import rake_by_pot, take_in_order
from poker_room.domain.rules import ODD_CHIP_SUIT


class ShowdownMixin:
    """Part of :class:`poker_room.domain.hand.Hand`."""

    def _on_ShowdownStarted(self, d) -> None:
        self.phase = "showdown"

    def _on_HandShown(self, d) -> None:
        pass

    def _on_HandMucked(self, d) -> None:
        pass

    def _on_PotAwarded(self, d) -> None:
        i = self._idx[d["seat"]]
        self._stacks[i] += d["amount"]

    def _finish(self) -> None:
        """Rake, jackpot contributions and the pots (637a.7(e)(6), 637a.17, 637a.18(e))."""
        rules = self.rules
        live = self._live
        rake = rules.rake
        if rake is not None:
            self._take_rake()
        pots = side_pots(self._contrib, live, self.dead_ante())
        amounts = [a for a, _ in pots]
        raked = rake_by_pot(rake, self._rake_taken, amounts) if pots and self._rake_taken \
            else [0] * len(amounts)
        after_rake = sum(amounts) - self._rake_taken
        jp = _contributions(rules.jackpots, after_rake) if rules.jackpots else []
        net = [a - r for a, r in zip(amounts, raked)]
        names = {j.fund: j.fund_name for j in rules.jackpots}
        for fund, a in jp:
            if not a:
                continue
            # 637a.15(c), 637a.16(c): out of the pots after the rake, main pot first, one
            # event per fund per pot, so the players of a pot pay only into it
            taken = take_in_order(a, net)
            for k, part in enumerate(taken):
                if part:
                    self._emit("JackpotContributionTaken", fund=fund,
                                   fund_name=names.get(fund, fund), pot=k, amount=part)
            net = [x - t for x, t in zip(net, taken)]
        scooped_by: set[int] = set()
        split_hl = False
        if self._live_count == 1:
            w = live.index(True)
            for k, a in enumerate(net):
                if a:
                    self._emit("PotAwarded", pot=k, seat=self._seats[w], amount=a,
                                   share="whole", odd_chips=0)
            scooped_by.add(w)
        else:
            values = self._values()
            order = self._showdown_order()
            winners_all: set[int] = set()
            awards: list[dict[str, Any]] = []
            for k, ((_, elig), a) in enumerate(zip(pots, net)):
                got, hl = self._split_pot(k, a, elig, values)
                split_hl = split_hl or hl
                awards += got
                winners_all.update(self._idx[g["seat"]] for g in got if g["amount"])
            self._emit("ShowdownStarted", order=[self._seats[i] for i in order])
            first = True
            for i in order:
                if first or i in winners_all or rules.disclose_mucked_hands:
                    self._emit("HandShown", seat=self._seats[i],
                                   cards=self._down[i] + self._up[i],
                                   values=list(values[i]))
                else:
                    self._emit("HandMucked", seat=self._seats[i])
                first = False
            for g in awards:
                if g["amount"]:
                    self._emit("PotAwarded", **g)
            scooped_by = winners_all
        pot = self._pot_total
        scooped = len(scooped_by) == 1
        # the kill's qualifying pot is the Pot of 637a.1: what is awarded, after the rake
        # and the jackpot contributions
        kill_next = next_kill_active(rules, self.kill_active, pot_cents=sum(net),
                                     scooped=scooped, split_high_low=split_hl)
        self._emit("HandCompleted", pot=pot, rake=self._rake_taken,
                       rake_by_pot=list(raked),  # 637a.17(b)(1): from each pot, in chips
                       contributions=[[f, a] for f, a in jp if a],
                       stacks=[[s, v] for s, v in zip(self._seats, self._stacks)],
                       winners=sorted(self._seats[i] for i in scooped_by),
                       kill_next=kill_next, voided=False)

    def _showdown_order(self) -> list[int]:
        """637a.18(e): the player who made the final bet shows first, then the others
        clockwise; with no bet in the last round, the first player clockwise from the
        button (in stud, the player who was first to act)."""
        n = self._n
        if self._aggressor >= 0:
            start = self._aggressor
        elif self.spec.family == STUD:
            start = self._opener(self._bet_round)
        else:
            start = (self._button + 1) % n
        return [(start + k) % n for k in range(n) if self._live[(start + k) % n]]

    def _values(self) -> list[tuple[int, ...]]:
        """Each live player's showdown values, one per share of the pot."""
        sd = self.spec.showdown
        board = self._board
        out: list[tuple[int, ...]] = []
        for i in range(self._n):
            if not self._live[i]:
                out.append(())
                continue
            own = self._down[i] + self._up[i]
            cards = own + board
            if sd in ("holdem", "stud_high", "high5"):
                out.append((ev.high(cards),))
            elif sd == "omaha":
                out.append((ev.omaha(own, board)[0],))
            elif sd == "omaha8":
                out.append(ev.omaha(own, board, low=True))
            elif sd == "stud_low" or sd == "a5":
                out.append((ev.a5(cards),))
            elif sd == "stud_hilo":
                out.append((ev.high(cards), ev.a5(cards)))
            elif sd == "stud_hilo8":
                out.append((ev.high(cards), ev.a5_eight(cards)))
            elif sd == "d27":
                out.append((ev.d27(cards),))
            elif sd == "badugi":
                out.append((ev.badugi(cards),))
            elif sd == "badeucey":
                out.append((ev.d27(cards), ev.badugi(cards, ace_low=False)))
            elif sd == "badacey":
                out.append((ev.a5(cards), ev.badugi(cards)))
            else:  # pragma: no cover
                raise AssertionError(sd)
        return out

    _SHARE_NAMES: ClassVar[dict[str, tuple[str, str]]] = {"stud_hilo": ("high", "low"), "stud_hilo8": ("high", "low"),
                    "omaha8": ("high", "low"), "badeucey": ("2-7", "badugi"),
                    "badacey": ("a-5", "badugi")}

    def _split_pot(self, k: int, amount: int, elig: Sequence[int],
                   values: list[tuple[int, ...]]) -> tuple[list[dict[str, Any]], bool]:
        """Pot ``k``'s awards: the whole to the best hand, or halved between the two
        shares of a split-pot game; and whether different players took the halves."""
        names = self._SHARE_NAMES.get(self.spec.showdown)
        high_w = _best(elig, values, 0)
        if names is None:
            return self._pay(k, amount, high_w, 0, "whole"), False
        low_w = _best(elig, values, 1)
        if not low_w:  # no qualifying low: the high hand takes the pot (637a.10(j))
            return self._pay(k, amount, high_w, 0, "whole"), False
        first, second = halves(amount, self.rules.chip_unit_cents)
        out = self._pay(k, first, high_w, 0, names[0])
        out += self._pay(k, second, low_w, 1, names[1])
        return out, set(high_w) != set(low_w)

    def _pay(self, k: int, amount: int, winners: list[int], part: int, share: str
             ) -> list[dict[str, Any]]:
        """One share of pot ``k`` divided among its ``winners`` in whole chips, the excess
        (the odd chips) to the player the Rules Submission names (:meth:`_odd_chip`)."""
        seats = self._seats
        if len(winners) == 1:
            return [{"pot": k, "seat": seats[winners[0]], "amount": amount, "share": share,
                     "odd_chips": 0}]
        got = split_evenly(amount, winners, self.rules.chip_unit_cents,
                           lambda ws: self._odd_chip(ws, part))
        least = min(got.values())
        return [{"pot": k, "seat": seats[w], "amount": got[w], "share": share,
                 "odd_chips": got[w] - least} for w in winners]

    def _odd_chip(self, winners: Sequence[int], part: int) -> int:
        """Who gets the excess of a share divided among tied players."""
        rules = self.rules
        n = self._n
        start = 0 if self.spec.family == STUD else (self._button + 1) % n
        by_position = min(winners, key=lambda i: (i - start) % n)
        if (rules.odd_chip if part == 0 else rules.odd_chip_low) != ODD_CHIP_SUIT:
            return by_position
        kind = self._share_kind(part)
        omaha = self.spec.showdown in ("omaha", "omaha8")
        hands = {}
        for i in winners:
            own = self._down[i] + self._up[i]
            if omaha:
                five = ev.best_five("omaha_high" if kind == "high" else "omaha_low", own,
                                    self._board)
            else:
                five = ev.best_five(kind, own, self._board)
            hands[self._seats[i]] = list(five)
        try:
            if kind == "high":
                seat = _stud.odd_chip_high(hands)
            elif kind in ("a5", "badugi"):
                seat = _stud.odd_chip_low(hands)
            else:  # 2-7 and the ace-high Badugi: lowest card, the ace high
                seat = _lowest_card_ace_high(hands)
        except _stud.StudError:
            return by_position  # identical cards: the Rules Submission's player
        return self._idx[seat]

    def _share_kind(self, part: int) -> str:
        sd = self.spec.showdown
        if sd in ("holdem", "stud_high", "high5", "omaha"):
            return "high"
        if sd in ("stud_low", "a5"):
            return "a5"
        if sd in ("stud_hilo", "stud_hilo8", "omaha8"):
            return "high" if part == 0 else "a5"
        if sd == "d27":
            return "d27"
        if sd == "badugi":
            return "badugi"
        if sd == "badeucey":
            return "d27" if part == 0 else "badugi_ace_high"
        return "a5" if part == 0 else "badugi"  # badacey


def _best(elig: Sequence[int], values: list[tuple[int, ...]], part: int) -> list[int]:
    """The eligible players holding the best value of the share ``part``; none when no
    hand qualifies for it (a low share without a qualifying low)."""
    top = max(values[i][part] for i in elig)
    if top == ev.NO_LOW:
        return []
    return [i for i in elig if values[i][part] == top]


def _lowest_card_ace_high(hands: Mapping[int, Sequence[int]]) -> int:
    """Odd chip of a tied 2-7 (or ace-high Badugi) share: the lowest card by suit, the ace
    counting high; a shared card passes the decision to the next lowest. The tie-walk of
    :func:`casino.domain.hands.stud.odd_chip_low` with an ace-high key: a card's number
    orders it by rank (ace high) then suit, so the lowest card has the largest ``-c``."""
    return _stud._odd_chip(hands, lambda c, _hand: -c, "low")
