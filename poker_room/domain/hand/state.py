"""A hand's state and its record: construction, the public reads, the command dispatch and
the one way the state changes, an event applied (:meth:`HandState.apply`)."""

from __future__ import annotations

import random as _random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Self

from casino.domain.cards import DECK_SIZE
from casino.domain.money import format_money
from poker_room.domain.errors import (
    HandComplete,
    InsufficientStakes,
    InvalidAction,
    PokerError,
)
from poker_room.domain.hand.constants import (
    BETTING,
    COMPLETE_PHASE,
    DRAWING,
    FORCED,
    _FULL_DECK,
    _plan,
)
from poker_room.domain.hand.forced_bets import _ante_posters, _forced_amounts
from poker_room.domain.rules import TableRules, rules_from


#: event type -> handler, command type -> signature (filled in by the package)
_HANDLERS: dict = {}
_COMMANDS: dict = {}


class HandState:
    """A hand's state: built by :meth:`start` or :meth:`from_events`; changed only by
    :meth:`apply` (each event's ``_on_<Type>`` handler, in the mixins)."""

    def __init__(self) -> None:  # use start() / from_events()
        self.events: list[dict[str, Any]] = []
        self._options_memo: tuple | None = None

    @classmethod
    def start(cls, rules: TableRules | Mapping[str, Any], stacks: Mapping[int, int], *,
              button: int | None = None, deck: Sequence[int] | None = None,
              straddle: bool = False, kill_active: bool = False,
              hand_id: str | None = None, rng: _random.Random | None = None,
              check_stakes: bool = True) -> Self:
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
                        f"seat {s} has {format_money(stacks[s])} on the table; playing "
                        f"needs {format_money(need)} (its forced bets and one minimum bet, "
                        "637a.8(b)(4))",
                        field="stacks")
        hand = cls()
        hand._rng = rng or _random.SystemRandom()
        hand._rules_obj = rules
        hand._emit("HandStarted", hand_id=hand_id, rules=rules.shared_dict(),
                       seats=[[s, stacks[s]] for s in seats], button=button,
                       deck=deck, straddle=bool(straddle), kill_active=bool(kill_active))
        hand._advance()
        return hand

    @classmethod
    def from_events(cls, events: Iterable[Mapping[str, Any]]) -> Self:
        """Rebuild a hand from its events (no decisions are re-made)."""
        hand = cls()
        hand._rng = _random.Random(0)
        for e in events:
            hand.apply(e)
        if hand.events and hand.phase != COMPLETE_PHASE:
            hand._advance()  # re-derive a wait that no event records (a due deal)
        return hand

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
    def gross_pot(self) -> int:
        """Every chip put in the pot, this round's bets included, before the rake."""
        return self._pot_total

    @property
    def rake_taken(self) -> int:
        """The rake taken from the pot so far (637a.17)."""
        return self._rake_taken

    @property
    def result(self) -> dict[str, Any] | None:
        return self._result

    def dead_ante(self) -> list[int]:
        """Each player's table Ante still in the pot (dead money, :func:`side_pots`): none
        once a refund has given the player back all he put in."""
        return [min(d, c) for d, c in zip(self._dead_ante, self._contrib)]

    def snapshot(self) -> dict[str, Any]:
        """Everything that defines the state, as plain data (for replay checks)."""
        return {"phase": self.phase, "step": self._step, "seats": list(self._seats),
                "stacks": list(self._stacks), "bets": list(self._bets),
                "contrib": list(self._contrib), "dead": self.dead_ante(),
                "live": list(self._live),
                "down": [list(x) for x in self._down], "up": [list(x) for x in self._up],
                "board": list(self._board), "deck": None if self._deck is None
                else list(self._deck), "burns": list(self._burns),
                "muck": list(self._muck), "actor": self._actor,
                "max_bet": self._max_bet, "min_raise": self._min_raise,
                "raises": self._raise_count, "pending": list(self._pending),
                "stopped": list(self._stopped),
                "rake": self._rake_taken, "result": self._result}

    def execute(self, command: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Run a command dict: ``{"type": "act", "seat", "action", "amount"}``, ``{"type":
        "draw", "seat", "discard", "cards"}``, ``{"type": "discard", "seat", "cards"}``,
        ``{"type": "deal", "cards", "burn"}``, ``{"type": "misdeal"|"void", "reason"}``,
        ``{"type": "card_discard", "card", "reason"}``, ``{"type": "hole_card_exposed", "seat",
        "card", "replacement"}``, ``{"type": "cards_not_in_view", "seat"}``, ``{"type":
        "hand_fouled", "seat", "how", "protected", "reconstructed", "contributor"}``."""
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

    def apply(self, event: Mapping[str, Any]) -> Self:
        """Apply one event (``evolve``); returns the hand."""
        handler = _HANDLERS.get(event["type"])
        if handler is None:
            raise PokerError(f"unknown event {event['type']!r}", code="unknown_event")
        handler(self, event["data"])
        self.events.append(event)
        return self

    def _emit(self, type_: str, **data: Any) -> None:
        """Record an event the hand decided and apply it (its ``_on_<Type>`` handler)."""
        _HANDLERS[type_](self, data)
        self.events.append({"type": type_, "data": data})

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
        #: the part of each player's contribution that is the table's one Ante (dead money)
        self._dead_ante = [0] * n
        self._live = [True] * n
        self._live_count = n
        self._pending = [False] * n
        #: 637a.18(m)(1): players who make no more bets (their last card exposed)
        self._stopped = [False] * n
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
        # the steps, the plan index of each betting round (so events can set the step
        # absolutely: a replay then lands on the same step whatever was skipped without
        # an event) and of the first deal; the same for every hand of the game (not to be
        # mutated)
        self._plan, self._bet_step, self._first_deal_step = _plan(spec)
        self._step = 0
        self._draw_round = 0
        self._forced_open = False
        self._due: tuple | None = None
        self._result: dict[str, Any] | None = None
        self._forced: list[int] = []
        self.phase = ""

    def _on_HandCompleted(self, d) -> None:
        self.phase = COMPLETE_PHASE
        self._step = len(self._plan) - 1
        self._actor = -1
        self._result = dict(d)

    def _index(self, seat: Any) -> int:
        try:
            return self._idx[seat]
        except (KeyError, TypeError):
            raise PokerError(f"seat {seat!r} is not in this hand", code="not_in_hand",
                             field="seat") from None

    def _check_open(self) -> None:
        if self.phase == COMPLETE_PHASE:
            raise HandComplete("the hand is over")

    def _own_cards(self, i: int, cards: Any, down_only: bool = False) -> list[int]:
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
            raise InvalidAction("cards must be a list of card numbers", field="cards")
        cards = list(cards)
        held = self._down[i] if down_only else self._down[i] + self._up[i]
        if any(c not in held for c in cards) or len(set(cards)) != len(cards):
            raise InvalidAction(f"seat {self._seats[i]} does not hold those cards",
                                code="card_not_held", field="cards")
        return cards
