"""The table rules a hand is played under: the room's Rules Submission choices for one
table (637a.8(k), 637a.10(b), 637a.11(b)-(e), 637a.12(n), 637a.17(a), 637a.18(e)).

:class:`TableRules` is a frozen dataclass built from a plain dict with
:meth:`TableRules.from_dict`; every refusal is an :class:`InvalidRules` naming the field.
Amounts are integer cents; percentages are basis points.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from poker_room.domain import _fields as F
from poker_room.domain.contributions import JackpotRule
from poker_room.domain.errors import InvalidRules
from poker_room.domain.games import STUD, GameSpec, get_game
from poker_room.domain.rake import PotRake, TimeCharge

FIXED_LIMIT, POT_LIMIT, NO_LIMIT = "fixed_limit", "pot_limit", "no_limit"
KILL, HALF_KILL = "kill", "half_kill"
#: Odd chip of a tied share: by suit (637a.10(i)(3)(ii)-(iii)) or to the first tied
#: player clockwise from the button (the dealer's left in stud) — the usual choice of
#: "the player specified in the Rules Submission" (637a.11(k), 637a.20(k)(2), 637a.21(k)(5)).
ODD_CHIP_SUIT, ODD_CHIP_POSITION = "suit", "position"

_KEYS = {"game", "structure", "small_bet_cents", "big_bet_cents", "min_bet_cents",
         "blinds_cents", "ante_cents", "bring_in_cents", "bring_in_may_complete",
         "straddle_cents", "max_raises", "check_raise_allowed",
         "heads_up_button_posts_small_blind", "kill", "kill_qualifying_pot_cents",
         "odd_chip", "chip_unit_cents", "disclose_mucked_hands", "max_players", "rake",
         "time_charge", "jackpots"}


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
    odd_chip: str = ODD_CHIP_SUIT
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
        d = F.check_keys(d, _KEYS, "rules")
        spec = get_game(d.get("game"))
        structure = F.choice(d, "structure", (FIXED_LIMIT, POT_LIMIT, NO_LIMIT),
                             default=FIXED_LIMIT)
        blinds = d.get("blinds_cents", [])
        if (not isinstance(blinds, (list, tuple)) or any(
                not isinstance(b, int) or isinstance(b, bool) or b < 1 for b in blinds)):
            raise InvalidRules("blinds_cents must be a list of positive whole cents",
                               field="blinds_cents")
        jackpots = d.get("jackpots", [])
        if not isinstance(jackpots, (list, tuple)):
            raise InvalidRules("jackpots must be a list", field="jackpots")
        rules = cls(
            game=spec.id, structure=structure,
            small_bet_cents=F.integer(d, "small_bet_cents", default=None, low=1),
            big_bet_cents=F.integer(d, "big_bet_cents", default=None, low=1),
            min_bet_cents=F.integer(d, "min_bet_cents", default=None, low=1),
            blinds_cents=tuple(blinds),
            ante_cents=F.integer(d, "ante_cents", default=0),
            bring_in_cents=F.integer(d, "bring_in_cents", default=0),
            bring_in_may_complete=F.boolean(d, "bring_in_may_complete", default=False),
            straddle_cents=F.integer(d, "straddle_cents", default=None, low=1),
            max_raises=F.integer(d, "max_raises", default=None, low=0),
            check_raise_allowed=F.boolean(d, "check_raise_allowed", default=True),
            heads_up_button_posts_small_blind=F.boolean(
                d, "heads_up_button_posts_small_blind", default=False),
            kill=F.choice(d, "kill", (None, KILL, HALF_KILL), default=None),
            kill_qualifying_pot_cents=F.integer(d, "kill_qualifying_pot_cents",
                                                default=None, low=1),
            odd_chip=F.choice(d, "odd_chip", (ODD_CHIP_SUIT, ODD_CHIP_POSITION),
                              default=ODD_CHIP_SUIT),
            chip_unit_cents=F.integer(d, "chip_unit_cents", default=1, low=1),
            disclose_mucked_hands=F.boolean(d, "disclose_mucked_hands", default=False),
            max_players=F.integer(d, "max_players", default=None, low=2,
                                  high=spec.max_players),
            rake=None if d.get("rake") is None else PotRake.from_dict(d["rake"]),
            time_charge=(None if d.get("time_charge") is None
                         else TimeCharge.from_dict(d["time_charge"])),
            jackpots=tuple(JackpotRule.from_dict(j, i) for i, j in enumerate(jackpots)),
        )
        rules.validate()
        return rules

    def validate(self) -> None:
        """Cross-field checks (also run for rules built directly)."""
        spec = self.spec
        if self.structure == FIXED_LIMIT:
            if self.small_bet_cents is None or self.big_bet_cents is None:
                raise InvalidRules("fixed limit needs small_bet_cents and big_bet_cents",
                                   field="small_bet_cents" if self.small_bet_cents is None
                                   else "big_bet_cents")
            if self.big_bet_cents < self.small_bet_cents:
                raise InvalidRules("big_bet_cents may not be below small_bet_cents",
                                   field="big_bet_cents")
        elif self.min_bet_cents is None and not self.blinds_cents:
            raise InvalidRules("pot and no limit need min_bet_cents (or blinds_cents)",
                               field="min_bet_cents")
        if spec.family == STUD:
            if self.blinds_cents:
                raise InvalidRules("stud games have a Forced Bet, not blinds (637a.10(d))",
                                   field="blinds_cents")
            if self.bring_in_cents < 1:
                raise InvalidRules("stud games need bring_in_cents, the Forced Bet "
                                   "(637a.10(d), 637a.14(d))", field="bring_in_cents")
            if self.bring_in_cents > self.opening_bet_cents:
                raise InvalidRules("bring_in_cents may not exceed the small bet",
                                   field="bring_in_cents")
        else:
            if not self.blinds_cents:
                raise InvalidRules("button games need at least one Blind Bet "
                                   "(637a.11(d))", field="blinds_cents")
            if self.bring_in_cents:
                raise InvalidRules("only stud games have a bring-in", field="bring_in_cents")
        if self.straddle_cents is not None:
            if not spec.straddle:
                raise InvalidRules(f"{spec.title} has no Straddle Bet in chapter 637a",
                                   field="straddle_cents")
            if self.straddle_cents <= max(self.blinds_cents):
                raise InvalidRules("straddle_cents must be more than the largest blind",
                                   field="straddle_cents")
        if self.kill is not None:
            if not spec.kill:
                raise InvalidRules(f"{spec.title} has no Kill option in chapter 637a",
                                   field="kill")
            if self.kill_qualifying_pot_cents is None:
                raise InvalidRules("the Kill option needs kill_qualifying_pot_cents",
                                   field="kill_qualifying_pot_cents")
            if self.kill == HALF_KILL and (self.opening_bet_cents % 2 or (
                    self.big_bet_cents or 0) % 2):
                raise InvalidRules("a Half-kill needs even limits (one and a half times)",
                                   field="kill")
        if spec.suit_odd_chips_required and self.odd_chip != ODD_CHIP_SUIT:
            raise InvalidRules("637a.10(i)(3) gives odd chips by suit in this game",
                               field="odd_chip")

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

        return replace(self, small_bet_cents=up(self.small_bet_cents),
                       big_bet_cents=up(self.big_bet_cents),
                       min_bet_cents=up(self.opening_bet_cents)
                       if self.structure != FIXED_LIMIT else self.min_bet_cents)

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain data (a fresh copy each call; built once per rules)."""
        return copy.deepcopy(self.shared_dict())

    def shared_dict(self) -> dict[str, Any]:
        """Like :meth:`to_dict` but the same (not to be mutated) dict every call: the
        engine's hot path puts it in each HandStarted event."""
        cached = self.__dict__.get("_as_dict")
        if cached is None:
            cached = self._build_dict()
            object.__setattr__(self, "_as_dict", cached)  # frozen: a private memo only
        return cached

    def _build_dict(self) -> dict[str, Any]:
        return {"game": self.game, "structure": self.structure,
                "small_bet_cents": self.small_bet_cents, "big_bet_cents": self.big_bet_cents,
                "min_bet_cents": self.min_bet_cents, "blinds_cents": list(self.blinds_cents),
                "ante_cents": self.ante_cents, "bring_in_cents": self.bring_in_cents,
                "bring_in_may_complete": self.bring_in_may_complete,
                "straddle_cents": self.straddle_cents, "max_raises": self.max_raises,
                "check_raise_allowed": self.check_raise_allowed,
                "heads_up_button_posts_small_blind": self.heads_up_button_posts_small_blind,
                "kill": self.kill, "kill_qualifying_pot_cents": self.kill_qualifying_pot_cents,
                "odd_chip": self.odd_chip, "chip_unit_cents": self.chip_unit_cents,
                "disclose_mucked_hands": self.disclose_mucked_hands,
                "max_players": self.max_players,
                "rake": None if self.rake is None else self.rake.to_dict(),
                "time_charge": None if self.time_charge is None else self.time_charge.to_dict(),
                "jackpots": [j.to_dict() for j in self.jackpots]}


def rules_from(value: TableRules | Mapping[str, Any]) -> TableRules:
    return value if isinstance(value, TableRules) else TableRules.from_dict(value)
