"""The dealer: the hand's steps (antes, blinds, cards, streets, draws), the cards dealt
from the engine's deck or recorded as dealt, burns and reshuffles (637a.7(e), 637a.10(c),
637a.11(f)-(j), 637a.13(f)-(h), 637a.20(f)-(j))."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casino.domain.cards import DECK_SIZE
from poker_room.domain.errors import (
    CardAlreadyDealt,
    CardNotInDeck,
    InvalidAction,
    NotYourTurn,
)
from poker_room.domain.hand.constants import (
    BETTING,
    COMPLETE_PHASE,
    DEALING,
    DISCARDING,
    DRAWING,
    FORCED,
)
from poker_room.domain.hand.forced_bets import _ante_posters, is_table_ante



class DealingMixin:
    """Part of :class:`poker_room.domain.hand.Hand`."""

    def draw(self, seat: int, discard: Sequence[int] = (), cards: Sequence[int] | None = None
             ) -> list[dict[str, Any]]:
        """Discard and draw (637a.13(g), 637a.20(h), 637a.21(h)); standing pat is an
        empty ``discard``. Without a deck the dealer gives the new ``cards``."""
        mark = len(self.events)
        self._check_open()
        if self.phase != DRAWING:
            raise InvalidAction(f"no draw now (the hand is {self.phase})")
        i = self._turn(seat)
        discard = self._own_cards(i, discard)
        n = len(discard)
        if self._deck is None:
            if (cards is None or isinstance(cards, (str, bytes))
                    or not isinstance(cards, Sequence) or len(cards) != n):
                raise InvalidAction(f"give the {n} new card(s)", field="cards")
            # too few cards left: the discards so far (never this player's, which are not
            # yet on the pile) are reshuffled into the stub (637a.13(g)(2), 637a.20(h))
            back = list(self._muck) if self._stub_size() < n else []
            taken: list[int] = []
            new = [self._card_ok(c, taken, also_free=back) for c in cards]
            if back:
                self._emit("DiscardsReshuffled", cards=back, excluded_seat=seat)
            self._emit("PlayerDrew", seat=seat, discarded=discard, cards=new)
        else:
            if cards is not None:
                raise InvalidAction("cards come from the deck at this table", field="cards")
            if len(self._deck) < n:
                self._reshuffle_discards()
            new = self._deck[-1:-n - 1:-1] if n else []
            self._emit("PlayerDrew", seat=seat, discarded=discard, cards=new)
        self._advance()
        return self.events[mark:]

    def discard(self, seat: int, cards: Sequence[int]) -> list[dict[str, Any]]:
        """Super Seven-card Stud: each player discards two cards (637a.10(m))."""
        mark = len(self.events)
        self._check_open()
        if self.phase != DISCARDING:
            raise InvalidAction(f"no discarding now (the hand is {self.phase})")
        i = self._index(seat)
        if not self._live[i] or self._discarded[i]:
            raise NotYourTurn(f"seat {seat} has nothing to discard")
        cards = self._own_cards(i, cards, down_only=True)
        if len(cards) != self.spec.discard:
            raise InvalidAction(f"discard exactly {self.spec.discard} cards (637a.10(m))",
                                field="cards")
        self._emit("PlayerDiscarded", seat=seat, cards=cards)
        self._advance()
        return self.events[mark:]

    def deal(self, cards: Any, burn: int | None = None, exposed: Any = None,
             exposure_choice: Any = None) -> list[dict[str, Any]]:
        """Record the cards the dealer dealt (tables without an engine deck).

        For hole cards and stud streets ``cards`` maps each seat (in any order) to its
        cards (stud: down cards first, the up card last); for the board it is a list; a
        stud common card (637a.10(h)) is ``{"common": card}``. ``burn`` is the burn card,
        if the dealer records it. ``exposed`` maps a seat to the hole cards turned face up
        in the first stud deal (637a.18(m)-(n), :meth:`_exposures`), or in Seven-card
        Stud to its third hole card, the last card, turned face up: the player then chooses
        (``exposure_choice``, seat -> ``pot_so_far`` or ``entire_pot``, 637a.18(m)(1)-(2),
        :meth:`_last_card_exposures`).
        """
        mark = len(self.events)
        self._check_open()
        if self.phase != DEALING:
            raise InvalidAction(f"no cards are due (the hand is {self.phase})")
        kind = self._due[0]
        if exposed and kind in ("board", "common"):
            raise InvalidAction("hole cards are exposed in the first stud deal only "
                                "(637a.18(m)-(n))", field="exposed")
        if exposure_choice is not None and not (kind == "stud" and exposed):
            raise InvalidAction("a choice is made only for a third hole card turned face "
                                "up (637a.18(m))", field="exposure_choice")
        taken: list[int] = []
        if burn is not None:
            taken.append(self._card_ok(burn, taken))
        if kind == "board":
            if not isinstance(cards, (list, tuple)) or len(cards) != self._due[1]:
                raise InvalidAction(f"deal {self._due[1]} board card(s)", field="cards")
            board = [self._card_ok(c, taken) for c in cards]
            self._emit("BoardDealt", cards=board, burn=burn)
        elif kind == "common":
            if not isinstance(cards, Mapping) or set(cards) != {"common"}:
                raise InvalidAction("the deck is short: deal one common card "
                                    "(637a.10(h))", field="cards")
            self._emit("CommonCardDealt", card=self._card_ok(cards["common"], taken),
                           burn=burn, street=self._due[1])
        else:
            order, counts, kinds = self._due[1], self._due[2], self._due[3]
            if not isinstance(cards, Mapping):
                raise InvalidAction("cards must map each seat to its cards", field="cards")
            try:
                got = {int(k): v for k, v in cards.items()}
            except (TypeError, ValueError):
                raise InvalidAction("cards must map each seat number to its cards",
                                    field="cards") from None
            want = {self._seats[i] for i in order}
            if set(got) != want:
                raise InvalidAction(f"deal to seats {sorted(want)}, exactly", field="cards")
            per: list[list] = []
            for i in order:
                cs = got[self._seats[i]]
                if not isinstance(cs, (list, tuple)) or len(cs) != counts:
                    raise InvalidAction(f"seat {self._seats[i]} gets {counts} card(s)",
                                        field="cards")
                per.append([self._seats[i], [self._card_ok(c, taken) for c in cs]])
            if kind == "stud" and exposed:
                last, shown = self._last_card_exposures(exposed, exposure_choice, kinds,
                                                        per), []
            else:
                last, shown = [], self._exposures(exposed, kind, kinds, per)
            data = {"street": self._bet_round_of_step() if kind == "stud" else 0,
                    "kinds": kinds, "cards": per, "burn": burn}
            if shown:
                data["exposed"] = shown
            self._emit("CardsDealt", **data)
            for seat, card, choice in last:
                self._emit("ThirdHoleCardExposed", seat=seat, card=card, choice=choice,
                           rule="637a.18(m)")
            for seat, hole in shown:
                if len(hole) > 1:  # 637a.18(m): both hole cards face up: the hand is void
                    i = self._idx[seat]
                    self._emit("PlayerHandVoided", seat=seat,
                                   returned=self._contrib[i], rule="637a.18(m)")
        self._advance()
        return self.events[mark:]

    def _on_AntesPosted(self, d) -> None:
        dead = is_table_ante(self.rules, self._button)
        for s, a in d["amounts"]:
            i = self._idx[s]
            self._stacks[i] -= a
            self._contrib[i] += a
            self._pot_total += a
            if dead:
                self._dead_ante[i] += a
        self._step = 1

    def _on_CardsDealt(self, d) -> None:
        kinds = d["kinds"]
        if d["street"]:
            self._burn(d["burn"])  # no burn before the first deal (637a.10(c), 637a.11(f))
        idx = self._idx
        per = [(idx[s], cs) for s, cs in d["cards"]]
        # one card at a time around the table (637a.11(f)), so the deck is taken in order
        deck, out = self._deck, self._out
        for r, k in enumerate(kinds):
            target = self._up if k == "up" else self._down
            for i, cs in per:
                c = cs[r]
                target[i].append(c)
                if deck and deck[-1] == c:  # the engine's own deal: the top card
                    deck.pop()
                    out.add(c)
                else:
                    self._take(c)
        for seat, hole in d.get("exposed", ()):
            if len(hole) == 1:  # 637a.18(m)-(n): it is the up card; the up card went down
                i = idx[seat]
                dealt_up = self._up[i].pop()
                self._down[i].remove(hole[0])
                self._down[i].append(dealt_up)
                self._up[i].append(hole[0])
        street = d["street"]
        if street == 0:
            self._step = self._first_deal_step + 1
            if self.spec.discard:
                self.phase = DISCARDING  # 637a.10(m): each player discards two
                return
        else:
            self._step = self._bet_step[street]
        self._dealt()

    def _on_PlayerHandVoided(self, d) -> None:
        """637a.18(m): the player's cards are collected and the Ante returned; the player
        takes no further part in the hand."""
        i = self._idx[d["seat"]]
        self._stacks[i] += d["returned"]
        self._pot_total -= d["returned"]
        self._contrib[i] -= d["returned"]
        self._live[i] = False
        self._live_count -= 1
        self._pending[i] = False
        self._muck.extend(self._down[i] + self._up[i])

    def _on_BoardDealt(self, d) -> None:
        self._burn(d["burn"])
        for c in d["cards"]:
            self._board.append(c)
            self._take(c)
        self._step = self._bet_step[len(self._board) - 2]  # flop 1, turn 2, river 3
        self._dealt()

    def _on_CommonCardDealt(self, d) -> None:
        self._burn(d["burn"])
        self._board.append(d["card"])
        self._take(d["card"])
        self._step = self._bet_step[d["street"]]
        self._dealt()

    def _dealt(self) -> None:
        """The cards due are out: the dealer's wait (if any) ends."""
        if self.phase == DEALING:
            self.phase = ""
        self._due = None

    def _on_BurnCardsReshuffled(self, d) -> None:
        # 637a.10(h): one or no card left for a common card: the burn cards (and the last
        # card) are shuffled into a new stub
        if self._deck is not None:
            self._deck = list(reversed(d["cards"]))
        self._back_to_stub(d["cards"])

    def _on_DiscardsReshuffled(self, d) -> None:
        # 637a.13(g)(2), 637a.20(h): the discards, not the drawing player's, become the stub
        if self._deck is not None:
            self._deck = list(reversed(d["cards"])) + self._deck
        self._back_to_stub(d["cards"])

    def _back_to_stub(self, cards: Sequence[int]) -> None:
        back = set(cards)
        self._out -= back
        self._burns = [c for c in self._burns if c not in back]
        self._muck = [c for c in self._muck if c not in back]

    def _on_CardBurned(self, d) -> None:
        self._burn(d["card"])
        self._draw_round = d["round"]
        self._step = self._bet_step[d["round"]] - 1
        self._draw_round_started()

    def _on_PlayerDiscarded(self, d) -> None:
        i = self._idx[d["seat"]]
        for c in d["cards"]:
            self._down[i].remove(c)
            self._muck.append(c)
        self._discarded[i] = True
        if not any(self._live[j] and not self._discarded[j] for j in range(self._n)):
            self.phase = ""
            self._step = self._plan.index(("discard",)) + 1

    def _on_PlayerDrew(self, d) -> None:
        i = self._idx[d["seat"]]
        hand = self._down[i]
        for c in d["discarded"]:
            hand.remove(c)
        for c in d["cards"]:
            hand.append(c)
            self._take(c)
        self._muck.extend(d["discarded"])
        self._next_drawer(i)

    def _take(self, c: int) -> None:
        if self._deck is not None:
            # dealt from the engine's deck: the card is the top card
            top = self._deck.pop()
            if top != c:  # replaying events of another deck order: trust the record
                self._deck.append(top)
                self._deck.remove(c)
        self._out.add(c)

    def _burn(self, c: int | None) -> None:
        if c is None:
            if self._deck is None:
                self._unknown_burns += 1
            return
        self._take(c)
        self._burns.append(c)

    def _card_ok(self, c: Any, taken: list[int], also_free: Sequence[int] = ()) -> int:
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < DECK_SIZE:
            raise CardNotInDeck(f"{c!r} is not a card of the deck (0-51)", field="cards")
        if (c in self._out and c not in also_free) or c in taken:
            raise CardAlreadyDealt(f"card {c} is already out of the deck", field="cards")
        taken.append(c)
        return c

    def _stub_size(self) -> int:
        if self._deck is not None:
            return len(self._deck)
        return DECK_SIZE - len(self._out) - self._unknown_burns

    def _reshuffle_discards(self) -> None:
        pile = list(self._muck)
        self._rng.shuffle(pile)
        self._emit("DiscardsReshuffled", cards=pile, excluded_seat=self.to_act)

    def _draw_round_started(self) -> None:
        self.phase = DRAWING
        start = (self._button + 1) % self._n
        for k in range(self._n):
            j = (start + k) % self._n
            if self._live[j]:
                self._actor = j
                return
        self._actor = -1

    def _next_drawer(self, i: int) -> None:
        j = (i + 1) % self._n
        start = (self._button + 1) % self._n
        while j != start:
            if self._live[j]:
                self._actor = j
                return
            j = (j + 1) % self._n
        self._actor = -1
        self.phase = ""
        self._step = self._bet_step[self._draw_round]

    def _advance(self) -> None:
        """Make every decision that needs no player: forced bets, deals, the close of a
        betting round, the showdown. Stops when a player or the dealer must act."""
        while self.phase != COMPLETE_PHASE:
            if self.phase == BETTING:
                if self._actor >= 0:
                    return
                self._close_round()
                continue
            if self.phase in (DRAWING, DEALING, FORCED, DISCARDING):
                return  # a player or the dealer must act
            step = self._plan[self._step]
            kind = step[0]
            if kind == "antes":
                a = self.rules.ante_cents
                if a:
                    posters = _ante_posters(self.rules, self._n, self._button)
                    self._emit("AntesPosted", amounts=[
                        [self._seats[i], min(a, self._stacks[i])] for i in posters])
                else:
                    self._step += 1
            elif kind == "blinds":
                self._post_blinds()
            elif kind in ("hole", "stud_first", "stud", "board"):
                if self._live_count <= 1 and kind != "hole":
                    self._step += 1
                    continue
                self._deal_step(step)
            elif kind == "discard":  # pragma: no cover - set by the deal's event
                self.phase = DISCARDING
                return
            elif kind == "bring_in":
                self._bring_in()
            elif kind == "bet":
                r = step[1]
                if self._live_count <= 1:
                    self._step += 1
                    continue
                if r > 0 and sum(1 for j in range(self._n) if self._live[j]
                                 and self._stacks[j] > 0 and not self._stopped[j]) < 2:
                    self._step += 1  # all in: no betting, the cards run out
                    continue
                self._emit("BettingRoundStarted", round=r,
                               first=self._seats[self._opener(r)])
            elif kind == "draw":
                if self._live_count <= 1:
                    self._step += 1
                    continue
                self._start_draw(self._plan[self._step + 1][1])
                return
            elif kind == "showdown":
                self._finish()

    def _deal_step(self, step: tuple) -> None:
        kind = step[0]
        n = self._n
        if kind == "board":
            due: tuple = ("board", step[1])
        elif kind in ("hole", "stud_first"):
            if kind == "hole":
                start = (self._button + 1) % n  # button last (637a.11(f))
                order = [(start + k) % n for k in range(n)]
                kinds = ["down"] * step[1]
            else:
                order = list(range(n))  # from the dealer's left (637a.10(c))
                down, up = self.spec.stud_first
                kinds = ["down"] * down + ["up"] * up
            due = ("hole", order, len(kinds), kinds)
        else:  # a stud street: each remaining player, or one common card (637a.10(h))
            order = [i for i in range(n) if self._live[i]]
            if self._stub_size() - 1 < len(order):
                if self._stub_size() <= 1 and self._deck is not None:
                    pile = self._burns + list(reversed(self._deck))
                    if len(pile) < 2:
                        # too few burn cards to burn one and deal one: 637a.10(h) is
                        # silent; the discards (folded and Super Stud discards) join them
                        pile += self._muck
                    self._rng.shuffle(pile)
                    self._emit("BurnCardsReshuffled", cards=pile)
                elif self._stub_size() <= 1:
                    self._emit("BurnCardsReshuffled", cards=list(self._burns))
                due = ("common", self._bet_round_of_step())
            else:
                due = ("stud", order, 1, [step[1]])
        if self._deck is None:
            self._due = due
            self.phase = DEALING
            return
        deck = self._deck
        if due[0] == "board":
            burn = deck[-1]
            cards = deck[-2:-2 - due[1]:-1]
            self._emit("BoardDealt", cards=cards, burn=burn)
        elif due[0] == "common":
            self._emit("CommonCardDealt", card=deck[-2], burn=deck[-1], street=due[1])
        else:
            order, count, kinds = due[1], due[2], due[3]
            burn = None if due[0] == "hole" else deck[-1]
            pos = len(deck) - 1 - (burn is not None)
            per = [[self._seats[i], []] for i in order]
            m = len(order)
            # one card at a time around the table, ``count`` rounds
            for r in range(count):
                for k in range(m):
                    per[k][1].append(deck[pos])
                    pos -= 1
            self._emit("CardsDealt", street=0 if due[0] == "hole"
                           else self._bet_round_of_step(), kinds=kinds, cards=per, burn=burn)

    def _bet_round_of_step(self) -> int:
        """The betting round that follows the current (dealing) step."""
        return self._plan[self._step + 1][1]

    def _start_draw(self, r: int) -> None:
        # 637a.13(g)(1), 637a.20(h): burn before the first player gets new cards
        if self._deck is not None and not self._deck:
            self._reshuffle_discards()  # nothing left to burn: the discards first
        card = self._deck[-1] if self._deck is not None else None
        self._emit("CardBurned", card=card, round=r)
