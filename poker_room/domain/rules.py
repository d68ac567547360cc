"""The table rules a hand is played under: the engine's view of one poker Rules
Submission (637a.8(k), 637a.10(b), 637a.11(b)-(e), 637a.12(n), 637a.17(a), 637a.18(e)).

There is one schema, :mod:`poker_room.domain.rules_schema`; :class:`TableRules` is built
from its canonical options (:meth:`TableRules.from_options`, or :meth:`TableRules.
from_dict` for ``{"game": ..., **options}`` still to be checked) and keeps them, so the
options are what a hand records (all but the text written for the floor, 637a.18(s),
which the version keeps). The fields below are derived, named for the engine.
Amounts are integer cents; percentages are basis points.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from poker_room.domain.contributions import BAD_BEAT, HIGH_HAND, JackpotRule
from poker_room.domain.errors import InvalidRules
from poker_room.domain.games import GameSpec, get_game
from poker_room.domain.rake import PotRake, TimeCharge
from poker_room.domain.rules_schema import FLOOR_TEXT_OPTIONS, validate_poker
from tables.domain.catalogue import get_table_game
from tables.domain.options_reader import OptionReader, RulesOptionError

FIXED_LIMIT, POT_LIMIT, NO_LIMIT = "fixed-limit", "pot-limit", "no-limit"
KILL, HALF_KILL = "kill", "half-kill"
#: Odd chip of a tied share: by suit (637a.10(i)(3)(ii)-(iii)) or to the first tied
#: player clockwise from the button (the dealer's left in stud) — the usual choice of
#: "the player specified in the Rules Submission" (637a.11(k), 637a.20(k)(2), 637a.21(k)(5)).
ODD_CHIP_SUIT, ODD_CHIP_POSITION = "suit", "position"
#: the schema's names for them (None: the chapter's rule by suit)
_ODD_CHIP = {None: ODD_CHIP_SUIT, "highest-card-by-suit": ODD_CHIP_SUIT,
             "first-left-of-button": ODD_CHIP_POSITION}
#: rules already built from their options (TableRules is immutable)
_SEEN: dict[str, "TableRules"] = {}
#: who posts the Ante: each player dealt in, or one ante for the table (637a.11(b))
ANTE_EACH, ANTE_BIG_BLIND, ANTE_BUTTON = "each-player", "big-blind", "button"


@dataclass(frozen=True)
class TableRules:
    game: str
    structure: str = FIXED_LIMIT
    #: fixed limit: the bet of the early rounds and of the later rounds
    small_bet_cents: int | None = None
    big_bet_cents: int | None = None
    #: pot and no limit: the smallest opening bet and raise increment
    min_bet_cents: int | None = None
    #: Blind Bets, first the one left of the button (637a.11(d), 637a.13(e))
    blinds_cents: tuple[int, ...] = ()
    ante_cents: int = 0
    ante_posted_by: str = ANTE_EACH
    #: stud Forced Bet (637a.10(d), 637a.14(d))
    bring_in_cents: int = 0
    #: the player making the Forced Bet may instead open for a full bet (a common
    #: Rules Submission clarification; pokerkit's default). Off: the Forced Bet is posted
    #: for its amount with no choice.
    bring_in_may_complete: bool = False
    #: the one Straddle Bet, if offered (637a.11(e))
    straddle_cents: int | None = None
    #: maximum raises in a betting round after its opening bet (637a.8(k)); the big
    #: blind (or the stud completion) is the opening bet. None: no cap.
    max_raises: int | None = None
    #: 637a.8(j): raising after checking is allowed unless posted otherwise
    check_raise_allowed: bool = True
    #: heads-up, the button posts the small blind (the usual convention; the regulation's
    #: text has the player left of the button post the first blind, which is the default)
    heads_up_button_posts_small_blind: bool = False
    kill: str | None = None
    kill_qualifying_pot_cents: int | None = None
    #: the odd chip of the high (or only) share, and of the low share of a split pot,
    #: each set on its own (637a.12(k)(2)(ii)-(iii), 637a.19(k)(2)(ii)-(iii))
    odd_chip: str = ODD_CHIP_SUIT
    odd_chip_low: str = ODD_CHIP_SUIT
    #: the smallest chip: shares of a split pot are whole chips (637a.10(i)(3)(i))
    chip_unit_cents: int = 1
    #: 637a.18(e): losing hands must be shown rather than conceded
    disclose_mucked_hands: bool = False
    max_players: int | None = None
    rake: PotRake | None = None
    time_charge: TimeCharge | None = None
    jackpots: tuple[JackpotRule, ...] = field(default=())

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_dict(cls, d: Any) -> TableRules:
        """The rules of ``{"game": ..., **options}`` (:meth:`checked`), remembered for the
        options already seen: every hand records its rules, and a replay reads them back
        at each command."""
        try:
            key = json.dumps(d, sort_keys=True)
        except (TypeError, ValueError):
            return cls.checked(d)
        rules = _SEEN.get(key)
        if rules is None:
            rules = cls.checked(d)
            if len(_SEEN) >= 256:
                _SEEN.clear()
            _SEEN[key] = rules
        return rules

    @classmethod
    def checked(cls, d: Any) -> TableRules:
        """The rules of ``{"game": ..., **options}``, the options being a poker Rules
        Submission's (:mod:`poker_room.domain.rules_schema`, the one schema), checked
        and filled in; a refusal is an :class:`InvalidRules` naming the field."""
        if not isinstance(d, Mapping):
            raise InvalidRules("rules must be an object", field="rules")
        options = dict(d)
        game = options.pop("game", None)
        spec = get_game(game)
        try:
            canonical = validate_poker(OptionReader(options, "options"),
                                       get_table_game(spec.id))
        except RulesOptionError as err:
            raise InvalidRules(str(err), code=err.code,
                               field=(err.field or "").removeprefix("options.")) from None
        return cls.from_options(spec.id, canonical)

    @classmethod
    def from_options(cls, game: str, o: Mapping[str, Any]) -> TableRules:
        """The engine's view of a game's canonical options (already validated)."""
        kill = o["kill"]
        straddle = o.get("straddle") or {}
        unit = o["chip_unit_cents"]
        rules = cls(
            game=game, structure=o["structure"],
            small_bet_cents=o.get("small_bet_cents"), big_bet_cents=o.get("big_bet_cents"),
            min_bet_cents=o.get("minimum_bet_cents"),
            blinds_cents=tuple(o.get("blinds_cents") or ()),
            ante_cents=o["ante_cents"], ante_posted_by=o["ante_posted_by"],
            bring_in_cents=o.get("forced_bet_cents") or 0,
            bring_in_may_complete=bool(o.get("forced_bet_may_complete")),
            straddle_cents=straddle.get("amount_cents") if straddle.get("offered") else None,
            max_raises=o["max_raises_per_round"], check_raise_allowed=o["raise_after_check"],
            heads_up_button_posts_small_blind=bool(o.get("heads_up_button_posts_small_blind")),
            kill=None if kill["option"] == "none" else kill["option"],
            kill_qualifying_pot_cents=kill["qualifying_pot_cents"],
            odd_chip=_ODD_CHIP[o["odd_chip_recipient"]],
            odd_chip_low=_ODD_CHIP[o["odd_chip_recipient_low"]],
            chip_unit_cents=unit, disclose_mucked_hands=o["disclose_mucked_hands"],
            max_players=o["seats"],
            rake=PotRake.from_options(o["rake"], unit),
            time_charge=TimeCharge.from_options(o["rake"].get("time_charge")),
            jackpots=tuple(JackpotRule.from_options(kind, o[kind], unit)
                           for kind in (BAD_BEAT, HIGH_HAND) if o.get(kind)),
        )
        object.__setattr__(rules, "_as_dict", {"game": game, **copy.deepcopy(
            {k: v for k, v in o.items() if k not in FLOOR_TEXT_OPTIONS})})
        return rules

    # ------------------------------------------------------------------ derived

    @property
    def spec(self) -> GameSpec:
        return get_game(self.game)

    @property
    def opening_bet_cents(self) -> int:
        """The table minimum bet: the small bet, or the minimum bet of pot/no limit."""
        if self.structure == FIXED_LIMIT:
            return self.small_bet_cents  # type: ignore[return-value]
        return self.min_bet_cents or max(self.blinds_cents)

    def with_kill(self, active: bool) -> TableRules:
        """These rules with the Kill or Half-kill limits in force (637a.1 "Kill option"):
        the limits (small and big bet, or the minimum bet) doubled or raised by half."""
        if not active or self.kill is None:
            return self
        num, den = (2, 1) if self.kill == KILL else (3, 2)

        def up(v: int | None) -> int | None:
            return None if v is None else v * num // den

        killed = replace(self, small_bet_cents=up(self.small_bet_cents),
                         big_bet_cents=up(self.big_bet_cents),
                         min_bet_cents=up(self.opening_bet_cents)
                         if self.structure != FIXED_LIMIT else self.min_bet_cents)
        object.__setattr__(killed, "_as_dict", self.shared_dict())  # the posted options
        return killed

    def to_dict(self) -> dict[str, Any]:
        """The rules as the Rules Submission's canonical options with the game, less the
        text written for the floor (637a.18(s): the version keeps it; a fresh copy each
        call)."""
        return copy.deepcopy(self.shared_dict())

    def shared_dict(self) -> dict[str, Any]:
        """Like :meth:`to_dict` but the same (not to be mutated) dict every call: the
        engine's hot path puts it in each HandStarted event. Rules changed with
        ``dataclasses.replace`` (the Kill limits) keep the options they came from."""
        return self.__dict__["_as_dict"]


def rules_from(value: TableRules | Mapping[str, Any]) -> TableRules:
    return value if isinstance(value, TableRules) else TableRules.from_dict(value)
