"""Betting (637a.8, 637a.10(d)-(h), 637a.11(d)-(j)): the legal actions, a player's action, the
forced bets posted, the betting rounds opened and closed, whose turn it is."""

from __future__ import annotations

from typing import Any

from casino.domain.hands import stud as _stud
from casino.domain.money import format_money
from poker_room.domain.errors import (
    BetAboveLimit,
    BetBelowMinimum,
    InvalidAction,
    NotYourTurn,
    RaiseCapReached,
)
from poker_room.domain.games import STUD
from poker_room.domain.hand.constants import (
    BET,
    BETTING,
    BRING_IN,
    CALL,
    CHECK,
    COMPLETE,
    DISCARDING,
    DRAWING,
    FOLD,
    FORCED,
    RAISE,
)
from poker_room.domain.hand.forced_bets import _blind_posters
from poker_room.domain.rake import PROGRESSIVE
from poker_room.domain.rules import FIXED_LIMIT, NO_LIMIT


class BettingMixin:
    """Part of :class:`poker_room.domain.hand.Hand`."""

    def legal_actions(self) -> dict[str, Any]:
        """What the player to act may do now: ``{"seat", "actions", "call", "min_to",
        "max_to"}`` (amounts are totals for the betting round), or in a draw ``{"seat",
        "actions": ["draw"]}``."""
        if self.phase == DRAWING:
            return {"seat": self.to_act, "actions": ["draw"]}
        if self.phase == DISCARDING:
            return {"seats": [self._seats[i] for i in range(self._n)
                              if self._live[i] and not self._discarded[i]],
                    "actions": ["discard"]}
        if self.phase == FORCED:
            i = self._actor
            return {"seat": self._seats[i], "actions": [BRING_IN, COMPLETE],
                    "bring_in": min(self._stacks[i], self.rules.bring_in_cents),
                    "min_to": min(self._stacks[i], self._street_bet),
                    "max_to": min(self._stacks[i], self._max_to_for(i, self._street_bet))}
        if self.phase != BETTING:
            return {"seat": None, "actions": []}
        i = self._actor
        opts = self._options(i)
        acts = []
        can_check, call, can_raise, min_to, max_to = opts
        if can_check:
            acts.append(CHECK)
        else:
            acts += [FOLD, CALL]
        if can_raise:
            acts.append(BET if self._max_bet == 0 else RAISE)
        return {"seat": self._seats[i], "actions": acts, "call": call,
                "min_to": min_to if can_raise else None,
                "max_to": max_to if can_raise else None}

    def act(self, seat: int, action: str, amount: int | None = None) -> list[dict[str, Any]]:
        """A betting decision (637a.8(c)): ``fold``, ``check``, ``call``, ``bet`` or
        ``raise`` (``amount``: the total the player's bet for this round comes to; in fixed
        limit it may be omitted), or at the stud Forced Bet ``bring_in`` / ``complete``."""
        mark = len(self.events)
        self._check_open()
        if self.phase == FORCED:
            i = self._turn(seat)
            if action == BRING_IN:
                self._emit("BringInPosted", seat=seat,
                               amount=min(self._stacks[i], self.rules.bring_in_cents))
            elif action in (COMPLETE, BET, RAISE):
                to = self._street_bet if amount is None else amount
                low = min(self._stacks[i], self._street_bet)
                high = min(self._stacks[i], self._max_to_for(i, self._street_bet))
                self._check_amount(to, low, high)
                self._emit("PlayerBet", seat=seat, amount=to, to=to)
            else:
                raise InvalidAction(f"seat {seat} must post the Forced Bet or complete "
                                    "(637a.10(d))")
            self._advance()
            return self.events[mark:]
        if self.phase != BETTING:
            raise InvalidAction(f"no betting now (the hand is {self.phase})")
        i = self._turn(seat)
        can_check, call, can_raise, min_to, max_to = self._options(i)
        if action == FOLD:
            if can_check:
                raise InvalidAction("nothing to call: check instead of folding (637a.1 "
                                    "'Fold')")
            self._emit("PlayerFolded", seat=seat)
        elif action == CHECK:
            if not can_check:
                raise InvalidAction(f"seat {seat} faces a bet of {format_money(call)}: "
                                    "fold, call or raise")
            self._emit("PlayerChecked", seat=seat)
        elif action == CALL:
            if can_check:
                raise InvalidAction("there is no bet to call: check")
            self._emit("PlayerCalled", seat=seat, amount=call,
                           to=self._bets[i] + call)
        elif action in (BET, RAISE, COMPLETE):
            if not can_raise:
                if (self.rules.max_raises is not None
                        and self._raise_count >= self._cap_total()):
                    raise RaiseCapReached(
                        f"the posted maximum of {self.rules.max_raises} raises has been "
                        "reached this round (637a.8(k))")
                if not self.rules.check_raise_allowed and self._checked[i]:
                    raise InvalidAction("raising after checking is not allowed at this "
                                        "table (637a.8(j))", code="check_raise_not_allowed")
                raise InvalidAction(f"seat {seat} may not raise now")
            if action == BET and self._max_bet > 0:
                raise InvalidAction("there is a bet already: raise")
            if action == RAISE and self._max_bet == 0:
                raise InvalidAction("there is no bet to raise: bet")
            to = min_to if amount is None and min_to == max_to else amount
            if to is None:
                raise InvalidAction("say how much: the total the bet comes to",
                                    field="amount")
            self._check_amount(to, min_to, max_to)
            added = to - self._bets[i]
            self._emit("PlayerBet" if self._max_bet == 0 else "PlayerRaised",
                           seat=seat, amount=added, to=to)
        else:
            raise InvalidAction(f"unknown action {action!r}", field="action")
        if self._actor < 0 or self.phase != BETTING:
            self._advance()
        return self.events[mark:]

    def _put(self, i: int, amount: int) -> None:
        self._stacks[i] -= amount
        self._bets[i] += amount
        self._contrib[i] += amount
        self._pot_total += amount

    def _on_BlindPosted(self, d) -> None:
        i = self._idx[d["seat"]]
        self._put(i, d["amount"])
        self._max_bet = max(self._max_bet, self._bets[i])
        self._forced.append(i)
        if d.get("last"):
            self._step = self._plan.index(("blinds",)) + 1

    def _on_BringInPosted(self, d) -> None:
        i = self._idx[d["seat"]]
        self._put(i, d["amount"])
        self._max_bet = self._bets[i]
        self._step = self._bet_step[0]
        self._begin_round(0, opener=(i + 1) % self._n, forced_actor=i)

    def _on_BringInDue(self, d) -> None:
        # the bring-in player chooses: the Forced Bet or a full bet
        self.phase = FORCED
        self._actor = self._idx[d["seat"]]
        self._bet_round = 0
        self._street_bet = self.rules.opening_bet_cents
        self._forced_open = False
        self._step = self._bet_step[0]

    def _on_BettingRoundStarted(self, d) -> None:
        self._step = self._bet_step[d["round"]]
        self._begin_round(d["round"], self._idx[d["first"]])

    def _on_PlayerFolded(self, d) -> None:
        i = self._idx[d["seat"]]
        self._live[i] = False
        self._live_count -= 1
        self._pending[i] = False
        self._muck.extend(self._down[i])
        self._muck.extend(self._up[i])
        self._next_actor(i)

    def _on_PlayerChecked(self, d) -> None:
        i = self._idx[d["seat"]]
        self._pending[i] = False
        self._checked[i] = True
        self._acted |= 1 << i
        self._acted_at[i] = self._max_bet
        self._next_actor(i)

    def _on_PlayerCalled(self, d) -> None:
        i = self._idx[d["seat"]]
        self._put(i, d["amount"])
        self._pending[i] = False
        self._acted |= 1 << i
        self._acted_at[i] = self._max_bet
        self._voluntary.add(i)
        self._next_actor(i)

    def _on_PlayerBet(self, d) -> None:
        i = self._idx[d["seat"]]
        if self.phase == FORCED:  # the bring-in player opens for a full bet instead
            self._begin_round(0, opener=i)
        to = d["to"]
        self._put(i, to - self._bets[i])
        increment = to - self._max_bet
        if self._completion:
            full = to >= self._street_bet
            if full:
                self._min_raise = self._street_bet if self.rules.structure == FIXED_LIMIT \
                    else max(self._min_raise, to)
        else:
            full = increment >= self._min_raise
            if full and self.rules.structure != FIXED_LIMIT:
                self._min_raise = increment
        if full:
            self._acted = 1 << i
        else:
            # an all-in for less than a full raise: it does not reopen the betting to
            # those who already acted (see _options)
            self._acted |= 1 << i
        self._acted_at[i] = to
        self._completion = False
        self._max_bet = to
        self._raise_count += 1
        self._aggressor = i
        self._voluntary.add(i)
        stacks, live, pending, stopped = self._stacks, self._live, self._pending, self._stopped
        for j in range(self._n):
            pending[j] = live[j] and stacks[j] > 0 and not stopped[j]
        pending[i] = False
        self._next_actor(i)

    _on_PlayerRaised = _on_PlayerBet

    def _on_UncalledBetReturned(self, d) -> None:
        i = self._idx[d["seat"]]
        a = d["amount"]
        self._stacks[i] += a
        self._bets[i] -= a
        self._contrib[i] -= a
        self._pot_total -= a

    def _on_BettingRoundClosed(self, d) -> None:
        self._bets = [0] * self._n
        self._max_bet = 0
        self._actor = -1
        self.phase = ""
        self._step = self._bet_step[d["round"]] + 1

    def _turn(self, seat: Any) -> int:
        i = self._index(seat)
        if i != self._actor:
            who = self.to_act
            raise NotYourTurn(f"it is seat {who}'s turn, not seat {seat}'s (637a.8(c))",
                              field="seat")
        return i

    def _check_amount(self, to: Any, low: int, high: int) -> None:
        if not isinstance(to, int) or isinstance(to, bool):
            raise InvalidAction("the amount must be whole cents", field="amount")
        if to < low:
            raise BetBelowMinimum(f"the bet must come to at least {format_money(low)}, not "
                                  f"{format_money(to)}", field="amount")
        if to > high:
            raise BetAboveLimit(f"the bet may come to at most {format_money(high)}, not "
                                f"{format_money(to)}", field="amount")

    def _cap_total(self) -> int:
        # the opening bet is not a raise; before the flop the big blind is that bet
        cap = self.rules.max_raises
        assert cap is not None
        return cap + (0 if self._bet_round == 0 and self._forced_open else 1)

    def _max_to_for(self, i: int, min_to: int) -> int:
        st = self.rules.structure
        all_in = self._stacks[i] + self._bets[i]
        if st == FIXED_LIMIT:
            return min(min_to, all_in)
        if st == NO_LIMIT:
            return all_in
        # pot limit: call, then raise by the whole pot including the call
        call = self._max_bet - self._bets[i]
        return min(all_in, self._max_bet + self._pot_total + call)

    def _options(self, i: int) -> tuple[bool, int, bool, int, int]:
        """(can check, call amount, can bet/raise, min total, max total) for player i."""
        # asked twice per decision (what may I do, then the act itself): remembered until
        # the next event
        memo = self._options_memo
        if memo is not None and memo[0] == i and memo[1] == len(self.events):
            return memo[2]
        opts = self._options_now(i)
        self._options_memo = (i, len(self.events), opts)
        return opts

    def _options_now(self, i: int) -> tuple[bool, int, bool, int, int]:
        bets, stacks = self._bets, self._stacks
        mb = self._max_bet
        call = mb - bets[i]
        stack = stacks[i]
        call = min(call, stack)
        can_raise = stack > mb - bets[i]
        if can_raise:
            for j in range(self._n):
                if j != i and self._live[j] and stacks[j] + bets[j] > mb \
                        and not self._stopped[j]:
                    break
            else:
                can_raise = False  # nobody could answer a raise
        if can_raise and self.rules.max_raises is not None and \
                self._raise_count >= self._cap_total():
            can_raise = False
        if can_raise and self._acted >> i & 1 and mb - self._acted_at[i] < self._min_raise:
            # a player who already acted faces only all-ins for less than a full raise
            # since: the betting is not reopened to them (several such all-ins reopen it
            # once together they come to a full raise over what the player matched)
            can_raise = False
        if can_raise and self._checked[i] and not self.rules.check_raise_allowed:
            can_raise = False
        if self._completion or mb == 0:
            min_to = self._street_bet
        else:
            min_to = mb + self._min_raise
        all_in = stack + bets[i]
        min_to = min(min_to, all_in)
        max_to = self._max_to_for(i, min_to) if can_raise else min_to
        return call == 0, call, can_raise, min_to, max_to

    def _begin_round(self, r: int, opener: int, forced_actor: int = -1) -> None:
        rules = self.rules
        self._bet_round = r
        if rules.structure == FIXED_LIMIT:
            self._street_bet = rules.big_bet_cents if r >= self.spec.big_bet_from \
                else rules.small_bet_cents
            self._min_raise = self._street_bet
        else:
            self._street_bet = rules.opening_bet_cents
            forced = max(self._bets) if r == 0 else 0
            self._min_raise = max(self._street_bet, forced)
        self._raise_count = 0
        self._acted = 0
        self._acted_at = [0] * self._n
        self._aggressor = -1
        self._checked = [False] * self._n
        self._forced_open = r == 0 and self.spec.family != STUD
        self._completion = (self.spec.family == STUD and r == 0 and self._max_bet > 0
                            and self._max_bet < self._street_bet)
        live, stacks, pending, stopped = self._live, self._stacks, self._pending, self._stopped
        for j in range(self._n):
            pending[j] = live[j] and stacks[j] > 0 and not stopped[j]
        if forced_actor >= 0:
            # the Forced Bet counts as the bring-in player's action (637a.10(e))
            pending[forced_actor] = False
            self._acted |= 1 << forced_actor
            self._acted_at[forced_actor] = self._max_bet
        self.phase = BETTING
        n = self._n
        able = [j for j in range(n) if pending[j]]
        if not able or (len(able) == 1 and self._bets[able[0]] >= self._max_bet):
            self._actor = -1  # nobody left to bet against: the cards run out
            for j in able:
                pending[j] = False
            return
        for k in range(n):
            j = (opener + k) % n
            if pending[j]:
                self._actor = j
                return
        self._actor = -1

    def _next_actor(self, i: int) -> None:
        if self._live_count <= 1:
            self._actor = -1
            return
        pending = self._pending
        n = self._n
        j = i + 1
        for _ in range(n):
            if j == n:
                j = 0
            if pending[j]:
                self._actor = j
                return
            j += 1
        self._actor = -1

    def _post_blinds(self) -> None:
        posters, amounts = _blind_posters(self.rules, self._n, self._button, self._straddle)
        events = []
        for k, (i, a) in enumerate(zip(posters, amounts)):
            # with fewer players than blinds, a player posts only once
            if i in posters[:k]:
                continue
            events.append([i, a, "straddle" if self._straddle and k == len(posters) - 1
                           else "blind"])
        for k, (i, a, kind) in enumerate(events):
            self._emit("BlindPosted", seat=self._seats[i],
                           amount=min(a, self._stacks[i]), kind=kind,
                           last=k == len(events) - 1)

    def _bring_in(self) -> None:
        live = [i for i in range(self._n) if self._live[i]]
        up = {self._seats[i]: self._up[i][0] for i in live}
        seat = _stud.bring_in_seat(up, self.spec.stud_game)
        i = self._idx[seat]
        if self.rules.bring_in_may_complete and self.rules.bring_in_cents < \
                self.rules.opening_bet_cents:
            self._emit("BringInDue", seat=seat)
            return
        self._emit("BringInPosted", seat=seat,
                       amount=min(self._stacks[i], self.rules.bring_in_cents))

    def _opener(self, r: int) -> int:
        spec, n = self.spec, self._n
        if spec.family == STUD:
            # first_to_act: best hand showing, ties to the dealer's left (637a.10(f))
            # the cards dealt face up (four at most): a last card turned face up by
            # accident (637a.18(m)) does not change who acts first, the chapter being
            # silent on it
            showing = {self._seats[i]: self._up[i][:4] for i in range(n) if self._live[i]}
            return self._idx[_stud.first_to_act_unchecked(showing, spec.stud_game)]
        if r == 0:
            # left of the last blind or the straddle (637a.11(g), 637a.13(f))
            return (self._forced[-1] + 1) % n if self._forced else (self._button + 1) % n
        return (self._button + 1) % n  # 637a.11(h)

    def _close_round(self) -> None:
        bets = self._bets
        top = max(bets)
        if top:
            at_top = [i for i in range(self._n) if bets[i] == top]
            if len(at_top) == 1:
                i = at_top[0]
                second = max(b for j, b in enumerate(bets) if j != i)
                if top > second:
                    # the uncalled final bet goes back and is never raked (637a.17(d))
                    self._emit("UncalledBetReturned", seat=self._seats[i],
                                   amount=top - second)
        self._emit("BettingRoundClosed", round=self._bet_round,
                       pot=self._pot_total - self._rake_taken)
        rake = self.rules.rake
        if rake is not None and rake.timing == PROGRESSIVE:
            self._take_rake()
        if self._live_count <= 1:
            self._step = len(self._plan) - 1
