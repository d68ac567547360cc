"""One round of play of any chapter 637a game, as an event-sourced state machine.

Create a hand with :meth:`Hand.start`; drive it with commands (:meth:`Hand.act`,
:meth:`Hand.draw`, :meth:`Hand.discard`, :meth:`Hand.deal`, :meth:`Hand.misdeal`,
:meth:`Hand.void`, or :meth:`Hand.execute` with a command dict). Every command is checked
in full first; a refused command raises a :mod:`poker_room.domain.errors` error and changes
nothing. An accepted command yields events (``{"type": ..., "data": {...}}``, JSON-ready,
amounts in integer cents), each applied by :meth:`Hand.apply` — the only code that changes
the state — and appended to :attr:`Hand.events`. :meth:`Hand.from_events` rebuilds a hand
from its events alone (the events are the record, DESIGN.md §2).

Cards come either from a ``deck`` given at the start (the shuffled order, top card first:
the engine deals, burns and reshuffles itself and records every card) or, without a
deck, from the dealer: the hand stops at each deal and :meth:`Hand.deal` supplies the
cards, which must be real cards not already out (``card_not_in_deck``,
``card_already_dealt``).

Seats are the table's seat numbers, numbered clockwise from the dealer's left, so the
lowest seat is "the first player to the dealer's left" (637a.10(c)) and the seat after the
button is the one "to the immediate left of the button" (637a.11(d)).
"""

from __future__ import annotations

import inspect
import random as _random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from casino.domain.cards import DECK_SIZE
from casino.domain.hands import stud as _stud
from poker_room.domain import evaluate as ev
from poker_room.domain.contributions import contributions as _contributions
from poker_room.domain.errors import (
    BetAboveLimit,
    BetBelowMinimum,
    CardAlreadyDealt,
    CardNotInDeck,
    HandComplete,
    InsufficientStakes,
    InvalidAction,
    NotYourTurn,
    PokerError,
    RaiseCapReached,
)
from poker_room.domain.games import BOARD, STUD
from poker_room.domain.kill import next_kill_active
from poker_room.domain.pots import halves, side_pots, split_evenly
from poker_room.domain.rake import PROGRESSIVE, rake_by_pot, rake_for_pot, take_in_order
from poker_room.domain.rules import (
    FIXED_LIMIT,
    NO_LIMIT,
    ANTE_BUTTON,
    ANTE_EACH,
    ODD_CHIP_SUIT,
    TableRules,
    rules_from,
)

FOLD, CHECK, CALL, BET, RAISE, BRING_IN, COMPLETE = (
    "fold", "check", "call", "bet", "raise", "bring_in", "complete")
#: phases
BETTING, DRAWING, DISCARDING, DEALING, FORCED, COMPLETE_PHASE = (
    "betting", "drawing", "discarding", "dealing", "forced_bet", "complete")
#: 637a.18(g) causes of a misdeal; the ones marked ``True`` only count while fewer than
#: two players have voluntarily put chips in the pot (637a.18(g)(2), (4)).
MISDEAL_REASONS = {"not_shuffled_or_cut": False, "wrong_starting_position": True,
                   "cards_face_up_in_deck": False, "eligible_player_not_dealt": True}

#: why a card is put with the discards unused (637a.18(j), (o))
DISCARD_REASONS = ("face_up_in_deck", "dealt_off_table")

_ACTION_EVENTS = {"PlayerFolded": FOLD, "PlayerChecked": CHECK, "PlayerCalled": CALL,
                  "PlayerBet": BET, "PlayerRaised": RAISE}


_FULL_DECK = list(range(DECK_SIZE))


def _ev(type_: str, **data: Any) -> dict[str, Any]:
    return {"type": type_, "data": data}


def _plan(spec) -> list[tuple]:
    """The steps of a round of play, in order (637a.10-637a.14, 637a.19-637a.21)."""
    if spec.family == BOARD:
        # 637a.11(d), (f)-(j): blinds, hole cards, then flop, turn and river, each after a
        # burn card and followed by a betting round
        return [("antes",), ("blinds",), ("hole", spec.hole_cards), ("bet", 0),
                ("board", 3), ("bet", 1), ("board", 1), ("bet", 2), ("board", 1),
                ("bet", 3), ("showdown",)]
    if spec.family == STUD:
        steps: list[tuple] = [("antes",), ("stud_first",)]
        if spec.discard:
            steps.append(("discard",))  # 637a.10(m)
        steps += [("bring_in",), ("bet", 0)]
        for r, kind in enumerate(spec.stud_streets, start=1):
            steps += [("stud", kind), ("bet", r)]
        return steps + [("showdown",)]
    steps = [("antes",)]
    if spec.blinds_after_deal:  # 637a.13(d)-(e): five-card draw blinds after the deal
        steps += [("hole", spec.hole_cards), ("blinds",)]
    else:  # 637a.20(d), (f); 637a.21(d), (f)
        steps += [("blinds",), ("hole", spec.hole_cards)]
    steps.append(("bet", 0))
    for r in range(1, spec.draws + 1):
        steps += [("draw",), ("bet", r)]
    return steps + [("showdown",)]


class Hand:
    """The state of one hand. Build with :meth:`start` or :meth:`from_events`."""

    # ------------------------------------------------------------------ construction

    def __init__(self) -> None:  # use start() / from_events()
        self.events: list[dict[str, Any]] = []
        self._options_memo: tuple | None = None

    @classmethod
    def start(cls, rules: TableRules | Mapping[str, Any], stacks: Mapping[int, int], *,
              button: int | None = None, deck: Sequence[int] | None = None,
              straddle: bool = False, kill_active: bool = False,
              hand_id: str | None = None, rng: _random.Random | None = None,
              check_stakes: bool = True) -> Hand:
        """Start a round of play.

        ``stacks`` maps each dealt-in seat to its table stakes in cents (637a.8(b)(1)).
        ``button`` is the button's seat (button games, 637a.11(c)); ``deck`` the shuffled
        deck, top card first, or None for cards supplied by the dealer; ``straddle`` whether
        the player left of the blinds places the one Straddle Bet (637a.11(e));
        ``kill_active`` whether the Kill/Half-kill limits are in force (637a.12(n)).
        ``rng`` only reshuffles burn cards or discards when a deck runs short.
        """
        rules = rules_from(rules)
        spec = rules.spec
        if not isinstance(stacks, Mapping):
            raise PokerError("stacks must map each seat to its table stakes",
                             code="invalid_stack", field="stacks")
        for s in stacks:
            if not isinstance(s, int) or isinstance(s, bool) or s < 1:
                raise PokerError(f"seat {s!r} is not a seat number", code="invalid_seat",
                                 field="stacks")
        seats = sorted(stacks)
        n = len(seats)
        limit = min(spec.max_players, rules.max_players or spec.max_players)
        if n < 2:
            raise PokerError("Poker needs at least two players (637a.7(b))",
                             code="too_few_players", field="stacks")
        if n > limit:
            raise PokerError(f"no more than {limit} players may play {spec.title}",
                             code="too_many_players", field="stacks")
        for s in seats:
            v = stacks[s]
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise PokerError(f"seat {s} stack must be whole cents", code="invalid_stack",
                                 field="stacks")
        if spec.uses_button:
            if type(button) is not int or button not in stacks:
                raise PokerError("the button must be at a seat in the hand (637a.11(c))",
                                 code="invalid_button", field="button")
        elif button is not None:
            raise PokerError("stud games have no button", code="invalid_button",
                             field="button")
        if straddle and rules.straddle_cents is None:
            raise PokerError("this table does not offer a Straddle Bet", code="no_straddle",
                             field="straddle")
        if deck is not None:
            try:
                deck = list(deck)
                ok = len(deck) == DECK_SIZE and sorted(deck) == _FULL_DECK
            except TypeError:  # not a list, or of things that are not card numbers
                ok = False
            if not ok:
                raise PokerError("the deck must be the 52 cards, each once",
                                 code="invalid_deck", field="deck")
        if check_stakes:
            play = rules.with_kill(kill_active)
            need_base = play.opening_bet_cents
            forced = _forced_amounts(rules, spec, seats, button, straddle)
            b = seats.index(button) if spec.uses_button else None
            for i in _ante_posters(rules, n, b):
                forced[i] += rules.ante_cents
            for i, s in enumerate(seats):
                need = need_base + forced[i]
                if stacks[s] < need:
                    raise InsufficientStakes(
                        f"seat {s} has {stacks[s]} cents on the table; playing needs "
                        f"{need} (its forced bets and one minimum bet, 637a.8(b)(4))",
                        field="stacks")
        hand = cls()
        hand._rng = rng or _random.SystemRandom()
        hand._rules_obj = rules
        hand._emit(_ev("HandStarted", hand_id=hand_id, rules=rules.shared_dict(),
                       seats=[[s, stacks[s]] for s in seats], button=button,
                       deck=deck, straddle=bool(straddle), kill_active=bool(kill_active)))
        hand._advance()
        return hand

    @classmethod
    def from_events(cls, events: Iterable[Mapping[str, Any]]) -> Hand:
        """Rebuild a hand from its events (no decisions are re-made)."""
        hand = cls()
        hand._rng = _random.Random(0)
        for e in events:
            hand.apply(e)
        if hand.events and hand.phase != COMPLETE_PHASE:
            hand._advance()  # re-derive a wait that no event records (a due deal)
        return hand

    # ------------------------------------------------------------------ public reads

    @property
    def seats(self) -> list[int]:
        return list(self._seats)

    @property
    def stacks(self) -> dict[int, int]:
        return dict(zip(self._seats, self._stacks))

    @property
    def is_complete(self) -> bool:
        return self.phase == COMPLETE_PHASE

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is (bet, draw or forced bet), else None."""
        if self.phase in (BETTING, DRAWING, FORCED) and self._actor >= 0:
            return self._seats[self._actor]
        return None

    @property
    def board(self) -> list[int]:
        return list(self._board)

    def cards(self, seat: int) -> list[int]:
        i = self._index(seat)
        return list(self._down[i]) + list(self._up[i])

    def up_cards(self, seat: int) -> list[int]:
        return list(self._up[self._index(seat)])

    @property
    def pot(self) -> int:
        """Chips in the pot, including this round's bets, less any rake already taken."""
        return self._pot_total - self._rake_taken

    @property
    def result(self) -> dict[str, Any] | None:
        return self._result

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

    def snapshot(self) -> dict[str, Any]:
        """Everything that defines the state, as plain data (for replay checks)."""
        return {"phase": self.phase, "step": self._step, "seats": list(self._seats),
                "stacks": list(self._stacks), "bets": list(self._bets),
                "contrib": list(self._contrib), "live": list(self._live),
                "down": [list(x) for x in self._down], "up": [list(x) for x in self._up],
                "board": list(self._board), "deck": None if self._deck is None
                else list(self._deck), "burns": list(self._burns),
                "muck": list(self._muck), "actor": self._actor,
                "max_bet": self._max_bet, "min_raise": self._min_raise,
                "raises": self._raise_count, "pending": list(self._pending),
                "rake": self._rake_taken, "result": self._result}

    # ------------------------------------------------------------------ commands

    def execute(self, command: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Run a command dict: ``{"type": "act", "seat", "action", "amount"}``, ``{"type":
        "draw", "seat", "discard", "cards"}``, ``{"type": "discard", "seat", "cards"}``,
        ``{"type": "deal", "cards", "burn"}``, ``{"type": "misdeal"|"void", "reason"}``,
        ``{"type": "card_discard", "card", "reason"}``, ``{"type": "hole_card_exposed", "seat",
        "card", "replacement"}``."""
        if not isinstance(command, Mapping):
            raise InvalidAction("a command is an object with a type", field="type")
        kind = command.get("type")
        signature = _COMMANDS.get(kind) if isinstance(kind, str) else None
        if signature is None:
            raise InvalidAction(f"unknown command {kind!r}", field="type")
        args = {k: v for k, v in command.items() if k != "type"}
        try:
            # only the argument names are checked here; each command checks its values,
            # so a TypeError from inside one is a bug, not bad input
            signature.bind(self, **args)
        except TypeError as exc:
            raise InvalidAction(f"bad arguments for {kind}: {exc}") from None
        return getattr(self, kind)(**args)

    def act(self, seat: int, action: str, amount: int | None = None) -> list[dict[str, Any]]:
        """A betting decision (637a.8(c)): ``fold``, ``check``, ``call``, ``bet`` or
        ``raise`` (``amount``: the total the player's bet for this round comes to; in fixed
        limit it may be omitted), or at the stud Forced Bet ``bring_in`` / ``complete``."""
        mark = len(self.events)
        self._check_open()
        if self.phase == FORCED:
            i = self._turn(seat)
            if action == BRING_IN:
                self._emit(_ev("BringInPosted", seat=seat,
                               amount=min(self._stacks[i], self.rules.bring_in_cents)))
            elif action in (COMPLETE, BET, RAISE):
                to = self._street_bet if amount is None else amount
                low = min(self._stacks[i], self._street_bet)
                high = min(self._stacks[i], self._max_to_for(i, self._street_bet))
                self._check_amount(to, low, high)
                self._emit(_ev("PlayerBet", seat=seat, amount=to, to=to))
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
            self._emit(_ev("PlayerFolded", seat=seat))
        elif action == CHECK:
            if not can_check:
                raise InvalidAction(f"seat {seat} faces a bet of {call}: fold, call or "
                                    "raise")
            self._emit(_ev("PlayerChecked", seat=seat))
        elif action == CALL:
            if can_check:
                raise InvalidAction("there is no bet to call: check")
            self._emit(_ev("PlayerCalled", seat=seat, amount=call,
                           to=self._bets[i] + call))
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
            self._emit(_ev("PlayerBet" if self._max_bet == 0 else "PlayerRaised",
                           seat=seat, amount=added, to=to))
        else:
            raise InvalidAction(f"unknown action {action!r}", field="action")
        if self._actor < 0 or self.phase != BETTING:
            self._advance()
        return self.events[mark:]

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
                self._emit(_ev("DiscardsReshuffled", cards=back, excluded_seat=seat))
            self._emit(_ev("PlayerDrew", seat=seat, discarded=discard, cards=new))
        else:
            if cards is not None:
                raise InvalidAction("cards come from the deck at this table", field="cards")
            if len(self._deck) < n:
                self._reshuffle_discards()
            new = self._deck[-1:-n - 1:-1] if n else []
            self._emit(_ev("PlayerDrew", seat=seat, discarded=discard, cards=new))
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
        self._emit(_ev("PlayerDiscarded", seat=seat, cards=cards))
        self._advance()
        return self.events[mark:]

    def deal(self, cards: Any, burn: int | None = None) -> list[dict[str, Any]]:
        """Record the cards the dealer dealt (tables without an engine deck).

        For hole cards and stud streets ``cards`` maps each seat (in any order) to its
        cards (stud: down cards first, the up card last); for the board it is a list; a
        stud common card (637a.10(h)) is ``{"common": card}``. ``burn`` is the burn card,
        if the dealer records it.
        """
        mark = len(self.events)
        self._check_open()
        if self.phase != DEALING:
            raise InvalidAction(f"no cards are due (the hand is {self.phase})")
        kind = self._due[0]
        taken: list[int] = []
        if burn is not None:
            taken.append(self._card_ok(burn, taken))
        if kind == "board":
            if not isinstance(cards, (list, tuple)) or len(cards) != self._due[1]:
                raise InvalidAction(f"deal {self._due[1]} board card(s)", field="cards")
            board = [self._card_ok(c, taken) for c in cards]
            self._emit(_ev("BoardDealt", cards=board, burn=burn))
        elif kind == "common":
            if not isinstance(cards, Mapping) or set(cards) != {"common"}:
                raise InvalidAction("the deck is short: deal one common card "
                                    "(637a.10(h))", field="cards")
            self._emit(_ev("CommonCardDealt", card=self._card_ok(cards["common"], taken),
                           burn=burn, street=self._due[1]))
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
            self._emit(_ev("CardsDealt", street=self._bet_round_of_step() if kind == "stud"
                           else 0, kinds=kinds, cards=per, burn=burn))
        self._advance()
        return self.events[mark:]

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
        self._emit(_ev("CardDiscarded", card=card, reason=reason))
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
        self._emit(_ev("ExposedCardReplaced", seat=seat, card=card, replacement=replacement))
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

    # ------------------------------------------------------------------ event application

    def apply(self, event: Mapping[str, Any]) -> Hand:
        """Apply one event (``evolve``); returns the hand."""
        handler = _HANDLERS.get(event["type"])
        if handler is None:
            raise PokerError(f"unknown event {event['type']!r}", code="unknown_event")
        handler(self, event["data"])
        self.events.append(event)
        return self

    def _emit(self, event: dict[str, Any]) -> None:
        _HANDLERS[event["type"]](self, event["data"])
        self.events.append(event)

    def _on_HandStarted(self, d: Mapping[str, Any]) -> None:
        self.hand_id = d["hand_id"]
        base = getattr(self, "_rules_obj", None) or TableRules.from_dict(d["rules"])
        self.base_rules = base
        self.kill_active = d["kill_active"]
        self.rules = rules = base.with_kill(self.kill_active)
        self.spec = spec = rules.spec
        self._seats = [s for s, _ in d["seats"]]
        self._idx = {s: i for i, s in enumerate(self._seats)}
        self._stacks = [v for _, v in d["seats"]]
        self._start = list(self._stacks)
        n = self._n = len(self._seats)
        self._button = None if d["button"] is None else self._idx[d["button"]]
        self._deck = None if d["deck"] is None else list(reversed(d["deck"]))
        self._straddle = d["straddle"]
        self._bets = [0] * n
        self._contrib = [0] * n
        self._live = [True] * n
        self._live_count = n
        self._pending = [False] * n
        self._checked = [False] * n
        self._discarded = [False] * n
        self._down: list[list[int]] = [[] for _ in range(n)]
        self._up: list[list[int]] = [[] for _ in range(n)]
        self._board: list[int] = []
        self._burns: list[int] = []
        self._unknown_burns = 0
        self._face_up_found = 0
        self._muck: list[int] = []
        self._out: set[int] = set()
        self._actor = -1
        self._max_bet = 0
        self._min_raise = 0
        self._raise_count = 0
        self._acted = 0
        self._acted_at = [0] * n
        self._completion = False
        self._street_bet = 0
        self._bet_round = -1
        self._aggressor = -1
        self._pot_total = 0
        self._rake_taken = 0
        self._voluntary: set[int] = set()
        self._plan = plan = _plan(spec)
        self._step = 0
        #: plan index of each betting round, so events can set the step absolutely (a
        #: replay then lands on the same step whatever was skipped without an event)
        self._bet_step = {st[1]: k for k, st in enumerate(plan) if st[0] == "bet"}
        self._first_deal_step = next(k for k, st in enumerate(plan)
                                     if st[0] in ("hole", "stud_first"))
        self._draw_round = 0
        self._forced_open = False
        self._due: tuple | None = None
        self._result: dict[str, Any] | None = None
        self._forced: list[int] = []
        self.phase = ""

    def _put(self, i: int, amount: int) -> None:
        self._stacks[i] -= amount
        self._bets[i] += amount
        self._contrib[i] += amount
        self._pot_total += amount

    def _on_AntesPosted(self, d) -> None:
        for s, a in d["amounts"]:
            i = self._idx[s]
            self._stacks[i] -= a
            self._contrib[i] += a
            self._pot_total += a
        self._step = 1

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

    def _on_CardsDealt(self, d) -> None:
        kinds = d["kinds"]
        if d["street"]:
            self._burn(d["burn"])  # no burn before the first deal (637a.10(c), 637a.11(f))
        idx = self._idx
        per = [(idx[s], cs) for s, cs in d["cards"]]
        # one card at a time around the table (637a.11(f)), so the deck is taken in order
        for r, k in enumerate(kinds):
            target = self._up if k == "up" else self._down
            for i, cs in per:
                c = cs[r]
                target[i].append(c)
                self._take(c)
        street = d["street"]
        if street == 0:
            self._step = self._first_deal_step + 1
            if self.spec.discard:
                self.phase = DISCARDING  # 637a.10(m): each player discards two
                return
        else:
            self._step = self._bet_step[street]
        self._dealt()

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
        stacks, live, pending = self._stacks, self._live, self._pending
        for j in range(self._n):
            pending[j] = live[j] and stacks[j] > 0
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

    def _on_RakeTaken(self, d) -> None:
        self._rake_taken += d["amount"]

    def _on_ShowdownStarted(self, d) -> None:
        self.phase = "showdown"

    def _on_HandShown(self, d) -> None:
        pass

    def _on_HandMucked(self, d) -> None:
        pass

    def _on_JackpotContributionTaken(self, d) -> None:
        pass

    def _on_PotAwarded(self, d) -> None:
        i = self._idx[d["seat"]]
        self._stacks[i] += d["amount"]

    def _on_MisdealDeclared(self, d) -> None:
        self._return_chips(d)

    _on_HandVoided = _on_MisdealDeclared

    def _return_chips(self, d) -> None:
        for s, a in d["returned"]:
            self._stacks[self._idx[s]] += a

    def _on_HandCompleted(self, d) -> None:
        self.phase = COMPLETE_PHASE
        self._step = len(self._plan) - 1
        self._actor = -1
        self._result = dict(d)

    # ------------------------------------------------------------------ state helpers

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

    def _index(self, seat: Any) -> int:
        try:
            return self._idx[seat]
        except (KeyError, TypeError):
            raise PokerError(f"seat {seat!r} is not in this hand", code="not_in_hand",
                             field="seat") from None

    def _check_open(self) -> None:
        if self.phase == COMPLETE_PHASE:
            raise HandComplete("the hand is over")

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
            raise BetBelowMinimum(f"the bet must come to at least {low} cents, not {to}",
                                  field="amount")
        if to > high:
            raise BetAboveLimit(f"the bet may come to at most {high} cents, not {to}",
                                field="amount")

    def _own_cards(self, i: int, cards: Any, down_only: bool = False) -> list[int]:
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
            raise InvalidAction("cards must be a list of card numbers", field="cards")
        cards = list(cards)
        held = self._down[i] if down_only else self._down[i] + self._up[i]
        if any(c not in held for c in cards) or len(set(cards)) != len(cards):
            raise InvalidAction(f"seat {self._seats[i]} does not hold those cards",
                                code="card_not_held", field="cards")
        return cards

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
        self._emit(_ev("DiscardsReshuffled", cards=pile, excluded_seat=self.to_act))

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
                if j != i and self._live[j] and stacks[j] + bets[j] > mb:
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

    # ------------------------------------------------------------------ betting rounds

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
        live, stacks, pending = self._live, self._stacks, self._pending
        for j in range(self._n):
            pending[j] = live[j] and stacks[j] > 0
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

    # ------------------------------------------------------------------ the dealer

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
                    self._emit(_ev("AntesPosted", amounts=[
                        [self._seats[i], min(a, self._stacks[i])] for i in posters]))
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
                if r > 0 and sum(1 for j in range(self._n)
                                 if self._live[j] and self._stacks[j] > 0) < 2:
                    self._step += 1  # all in: no betting, the cards run out
                    continue
                self._emit(_ev("BettingRoundStarted", round=r,
                               first=self._seats[self._opener(r)]))
            elif kind == "draw":
                if self._live_count <= 1:
                    self._step += 1
                    continue
                self._start_draw(self._plan[self._step + 1][1])
                return
            elif kind == "showdown":
                self._finish()

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
            self._emit(_ev("BlindPosted", seat=self._seats[i],
                           amount=min(a, self._stacks[i]), kind=kind,
                           last=k == len(events) - 1))

    def _bring_in(self) -> None:
        live = [i for i in range(self._n) if self._live[i]]
        up = {self._seats[i]: self._up[i][0] for i in live}
        seat = _stud.bring_in_seat(up, self.spec.stud_game)
        i = self._idx[seat]
        if self.rules.bring_in_may_complete and self.rules.bring_in_cents < \
                self.rules.opening_bet_cents:
            self._emit(_ev("BringInDue", seat=seat))
            return
        self._emit(_ev("BringInPosted", seat=seat,
                       amount=min(self._stacks[i], self.rules.bring_in_cents)))

    def _opener(self, r: int) -> int:
        spec, n = self.spec, self._n
        if spec.family == STUD:
            # first_to_act: best hand showing, ties to the dealer's left (637a.10(f))
            showing = {self._seats[i]: self._up[i] for i in range(n) if self._live[i]}
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
                    self._emit(_ev("UncalledBetReturned", seat=self._seats[i],
                                   amount=top - second))
        self._emit(_ev("BettingRoundClosed", round=self._bet_round,
                       pot=self._pot_total - self._rake_taken))
        rake = self.rules.rake
        if rake is not None and rake.timing == PROGRESSIVE:
            self._take_rake()
        if self._live_count <= 1:
            self._step = len(self._plan) - 1

    def _take_rake(self) -> None:
        due = rake_for_pot(self.rules.rake, self._pot_total)
        if due > self._rake_taken:
            self._emit(_ev("RakeTaken", amount=due - self._rake_taken, total=due,
                           kind=self.rules.rake.kind))

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
                    self._emit(_ev("BurnCardsReshuffled", cards=pile))
                elif self._stub_size() <= 1:
                    self._emit(_ev("BurnCardsReshuffled", cards=list(self._burns)))
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
            self._emit(_ev("BoardDealt", cards=cards, burn=burn))
        elif due[0] == "common":
            self._emit(_ev("CommonCardDealt", card=deck[-2], burn=deck[-1], street=due[1]))
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
            self._emit(_ev("CardsDealt", street=0 if due[0] == "hole"
                           else self._bet_round_of_step(), kinds=kinds, cards=per, burn=burn))

    def _bet_round_of_step(self) -> int:
        """The betting round that follows the current (dealing) step."""
        return self._plan[self._step + 1][1]

    def _start_draw(self, r: int) -> None:
        # 637a.13(g)(1), 637a.20(h): burn before the first player gets new cards
        if self._deck is not None and not self._deck:
            self._reshuffle_discards()  # nothing left to burn: the discards first
        card = self._deck[-1] if self._deck is not None else None
        self._emit(_ev("CardBurned", card=card, round=r))

    # ------------------------------------------------------------------ the showdown

    def _finish(self) -> None:
        """Rake, jackpot contributions and the pots (637a.7(e)(6), 637a.17, 637a.18(e))."""
        rules = self.rules
        live = self._live
        rake = rules.rake
        if rake is not None:
            self._take_rake()
        pots = side_pots(self._contrib, live)
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
                    self._emit(_ev("JackpotContributionTaken", fund=fund,
                                   fund_name=names.get(fund, fund), pot=k, amount=part))
            net = [x - t for x, t in zip(net, taken)]
        scooped_by: set[int] = set()
        split_hl = False
        if self._live_count == 1:
            w = live.index(True)
            for k, a in enumerate(net):
                if a:
                    self._emit(_ev("PotAwarded", pot=k, seat=self._seats[w], amount=a,
                                   share="whole", odd_chips=0))
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
            self._emit(_ev("ShowdownStarted", order=[self._seats[i] for i in order]))
            first = True
            for i in order:
                if first or i in winners_all or rules.disclose_mucked_hands:
                    self._emit(_ev("HandShown", seat=self._seats[i],
                                   cards=self._down[i] + self._up[i],
                                   values=list(values[i])))
                else:
                    self._emit(_ev("HandMucked", seat=self._seats[i]))
                first = False
            for g in awards:
                if g["amount"]:
                    self._emit(_ev("PotAwarded", **g))
            scooped_by = winners_all
        pot = self._pot_total
        scooped = len(scooped_by) == 1
        # the kill's qualifying pot is the Pot of 637a.1: what is awarded, after the rake
        # and the jackpot contributions
        kill_next = next_kill_active(rules, self.kill_active, pot_cents=sum(net),
                                     scooped=scooped, split_high_low=split_hl)
        self._emit(_ev("HandCompleted", pot=pot, rake=self._rake_taken,
                       rake_by_pot=list(raked),  # 637a.17(b)(1): from each pot, in chips
                       contributions=[[f, a] for f, a in jp if a],
                       stacks=[[s, v] for s, v in zip(self._seats, self._stacks)],
                       winners=sorted(self._seats[i] for i in scooped_by),
                       kill_next=kill_next, voided=False))

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
        sd = self.spec.showdown
        unit = self.rules.chip_unit_cents
        out: list[dict[str, Any]] = []
        names = self._SHARE_NAMES.get(sd)

        def best(part: int) -> list[int]:
            top = max(values[i][part] for i in elig)
            if top == ev.NO_LOW:
                return []
            return [i for i in elig if values[i][part] == top]

        def pay(a: int, winners: list[int], part: int, share: str) -> None:
            got = split_evenly(a, winners, unit, lambda ws: self._odd_chip(ws, part))
            odd = {w: v - min(got.values()) for w, v in got.items()}
            for w in winners:
                out.append({"pot": k, "seat": self._seats[w], "amount": got[w],
                            "share": share, "odd_chips": odd[w]})

        if names is None:
            pay(amount, best(0), 0, "whole")
            return out, False
        high_w = best(0)
        low_w = best(1)
        if not low_w:  # no qualifying low: the high hand takes the pot (637a.10(j))
            pay(amount, high_w, 0, "whole")
            return out, False
        first, second = halves(amount, unit)
        pay(first, high_w, 0, names[0])
        pay(second, low_w, 1, names[1])
        split = set(high_w) != set(low_w)
        return out, split

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

    # ------------------------------------------------------------------ misdeal / void

    def _return_all(self, type_: str, reason: str) -> list[dict[str, Any]]:
        """637a.18(g), (i): every chip put in the pot goes back to the player who put it
        there, the rake taken so far included (it had not left the table)."""
        mark = len(self.events)
        returned = [[s, c] for s, c in zip(self._seats, self._contrib) if c]
        self._emit(_ev(type_, reason=reason, returned=returned,
                       rake_returned=self._rake_taken))
        self._emit(_ev("HandCompleted", pot=0, rake=0, contributions=[],
                       stacks=[[s, v] for s, v in zip(self._seats, self._stacks)],
                       winners=[], kill_next=self.kill_active, voided=True))
        return self.events[mark:]


def _forced_amounts(rules: TableRules, spec, seats: list[int], button: int | None,
                    straddle: bool) -> list[int]:
    """The blind, straddle or Forced Bet each seat may have to make this hand."""
    n = len(seats)
    if spec.family == STUD:
        return [rules.bring_in_cents] * n  # anyone may hold the lowest up card
    posters, amounts = _blind_posters(rules, n, seats.index(button), straddle)
    out = [0] * n
    for p, a in zip(posters, amounts):
        out[p] += a
    return out


def _ante_posters(rules: TableRules, n: int, b: int | None) -> list[int]:
    """Who posts the Ante as the Rules Submission governs it (637a.10(b)-637a.21(b)):
    each player dealt in, or one ante for the table by the big blind (the last Blind Bet)
    or by the button."""
    if rules.ante_posted_by == ANTE_EACH or b is None:
        return list(range(n))
    if rules.ante_posted_by == ANTE_BUTTON:
        return [b]
    return [_blind_posters(rules, n, b, False)[0][-1]]


def _blind_posters(rules: TableRules, n: int, b: int, straddle: bool
                   ) -> tuple[list[int], list[int]]:
    """Who posts each Blind Bet (player indices, the button at ``b``) and how much: left
    of the button in order (637a.11(d)); heads-up the button first if the table says so;
    then the Straddle Bet left of the last blind (637a.11(e))."""
    if n == 2 and rules.heads_up_button_posts_small_blind:
        posters = [b, (b + 1) % n]
    else:
        posters = [(b + 1 + k) % n for k in range(len(rules.blinds_cents))]
    amounts = list(rules.blinds_cents)
    if straddle:
        posters.append((posters[-1] + 1) % n)
        amounts.append(rules.straddle_cents or 0)
    return posters, amounts


def _lowest_card_ace_high(hands: Mapping[int, Sequence[int]]) -> int:
    """Odd chip of a tied 2-7 (or ace-high Badugi) share: the lowest card by suit, the ace
    counting high; a shared card passes the decision to the next lowest. The tie-walk of
    :func:`casino.domain.hands.stud.odd_chip_low` with an ace-high key: a card's number
    orders it by rank (ace high) then suit, so the lowest card has the largest ``-c``."""
    return _stud._odd_chip(hands, lambda c, _hand: -c, "low")


_HANDLERS = {name[4:]: fn for name, fn in vars(Hand).items() if name.startswith("_on_")}
#: the commands :meth:`Hand.execute` runs, by ``type``
_COMMANDS = {name: inspect.signature(getattr(Hand, name)) for name in (
    "act", "draw", "discard", "deal", "misdeal", "void", "card_discard",
    "hole_card_exposed")}


def decide(hand: Hand, command: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The events ``command`` would produce, leaving ``hand`` untouched (house pattern
    ``decide(state, command) -> events``). Works on a copy rebuilt from the events."""
    copy = Hand.from_events(hand.events)
    copy._rng = hand._rng
    return copy.execute(command)


def evolve(hand: Hand, event: Mapping[str, Any]) -> Hand:
    """Apply one event to the hand (house pattern ``evolve(state, event) -> state``)."""
    return hand.apply(event)
