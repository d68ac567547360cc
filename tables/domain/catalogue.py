"""The games a table may deal, and what each chapter fixes about their tables.

Game ids are the ones of :mod:`casino.domain.hands.games`, so a Rules Submission, a table
and the hand evaluator all name a game the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from casino.domain.errors import DomainError


class Family(StrEnum):
    LUNAR_589 = "lunar-589"
    LUNAR_671A = "lunar-671a"
    HILO = "hilo"
    POKER = "poker"


class OddChip(StrEnum):
    """What a Rules Submission may say about the odd chip of a split pot. Each game's
    ``odd_chip_rule`` cites the section that fixes the rule or leaves it open."""

    BY_SUIT = "by-suit"  # the chapter fixes it by suit; nothing to choose (637a.10(i)(3))
    #: the submission may name the player; unnamed, by suit. Where the chapter offers "by
    #: suit or the player specified" (637a.11(k), 637a.12(k)(2)), and where the game's
    #: section is silent on ties (637a.10(i)(1)-(2), 637a.12(k)(1), 637a.13(i),
    #: 637a.14(i), 637a.19(k)(1)): nothing there fixes the recipient, so the submission
    #: says; by suit, the chapter's own tie-break in the neighbouring games, stays the
    #: default so a submission approved before keeps dealing as it did.
    OPTIONAL = "optional"
    REQUIRED = "required"  # the chapter leaves it to the Rules Submission (637a.20(k), 637a.21(k))


@dataclass(frozen=True)
class TableGame:
    id: str
    name: str
    chapter: str
    family: Family
    max_positions: int
    positions_rule: str  # the subsection that caps the positions
    forced_bet: bool = False  # stud: a Forced Bet by up card instead of blinds
    straddle: bool = False  # a Straddle Bet may be offered (637a.11(e) and the like)
    kill: bool = False  # a Kill or Half-kill option may be used
    odd_chip: OddChip = OddChip.BY_SUIT
    odd_chip_rule: str = ""

    @property
    def is_poker(self) -> bool:
        return self.family is Family.POKER

    @property
    def blinds(self) -> bool:
        return self.is_poker and not self.forced_bet


def _poker(id: str, name: str, rule: str, positions: int, **kw: object) -> TableGame:
    return TableGame(id, name, "637a", Family.POKER, positions, rule, **kw)  # type: ignore[arg-type]


_GAMES = [
    TableGame("lunar-poker-589", "Lunar Poker (chapter 589)", "589", Family.LUNAR_589, 5,
              "589.2(a)"),
    TableGame("lunar-poker-671a", "Lunar Poker (chapter 671a)", "671a", Family.LUNAR_671A, 5,
              "671a.2(a)"),
    TableGame("five-card-hi-lo", "Five Card Hi-Lo", "579", Family.HILO, 6, "579.2(a)"),
    # 637a.10(b): no more than nine players at Seven-card Stud; Forced Bet by up card.
    # 637a.10(i)(1)-(2) name the winner of High and Low and say nothing of ties;
    # 637a.10(i)(3)(ii)-(iv) fix the odd chip of the High-low games by suit.
    _poker("stud-high", "Seven-card Stud High", "637a.10(b)", 9, forced_bet=True,
           odd_chip=OddChip.OPTIONAL, odd_chip_rule="637a.10(i)(1): silent on ties"),
    _poker("stud-low", "Seven-card Stud Low", "637a.10(b)", 9, forced_bet=True,
           odd_chip=OddChip.OPTIONAL, odd_chip_rule="637a.10(i)(2): silent on ties"),
    _poker("stud-hilo", "Seven-card Stud High-low Split", "637a.10(b)", 9, forced_bet=True,
           odd_chip_rule="637a.10(i)(3)(ii)-(iii): by suit"),
    _poker("stud-hilo8", "Seven-card Stud High-low Split Eight or Better", "637a.10(b)", 9,
           forced_bet=True, odd_chip_rule="637a.10(i)(3)(ii)-(iii): by suit"),
    _poker("super-stud-hilo8", "Super Seven-card Stud High-low Split Eight or Better",
           "637a.10(b)", 9, forced_bet=True, odd_chip_rule="637a.10(i)(3)(ii)-(iii): by suit"),
    # 637a.11: ten players, blinds, one straddle, board-play odd chip may be named.
    _poker("holdem", "Hold'em", "637a.11(b)", 10, straddle=True, odd_chip=OddChip.OPTIONAL,
           odd_chip_rule="637a.11(k)"),
    _poker("omaha-high", "Omaha High", "637a.12(b)", 10, straddle=True,
           odd_chip=OddChip.OPTIONAL, odd_chip_rule="637a.12(k)(1): silent on ties"),
    _poker("omaha-hilo8", "Omaha High-low Split Eight or Better", "637a.12(b)", 10,
           straddle=True, kill=True, odd_chip=OddChip.OPTIONAL,
           odd_chip_rule="637a.12(k)(2)"),
    _poker("five-card-omaha-high", "Five-card Omaha High", "637a.19(b)", 8, straddle=True,
           odd_chip=OddChip.OPTIONAL, odd_chip_rule="637a.19(k)(1): silent on ties"),
    _poker("five-card-omaha-hilo8", "Five-card Omaha High-low Split Eight or Better",
           "637a.19(b)", 8, straddle=True, kill=True, odd_chip=OddChip.OPTIONAL,
           odd_chip_rule="637a.19(k)(2)"),
    # 637a.13: eight players, blinds after the deal, no straddle; (i) silent on ties.
    _poker("draw-high", "Five-card Draw High", "637a.13(b)", 8, odd_chip=OddChip.OPTIONAL,
           odd_chip_rule="637a.13(i)(1): silent on ties"),
    _poker("draw-low", "Five-card Draw Low", "637a.13(b)", 8, odd_chip=OddChip.OPTIONAL,
           odd_chip_rule="637a.13(i)(2): silent on ties"),
    _poker("five-card-stud", "Five-card Stud", "637a.14(b)", 8, forced_bet=True,
           odd_chip=OddChip.OPTIONAL, odd_chip_rule="637a.14(i): silent on ties"),
    # 637a.20: seven players; ties split with the excess to the player the submission names.
    _poker("triple-draw-27", "Triple Draw 2-7 Lowball", "637a.20(b)", 7, straddle=True,
           kill=True, odd_chip=OddChip.REQUIRED, odd_chip_rule="637a.20(k)"),
    _poker("triple-draw-a5", "Triple Draw Ace-5 Lowball", "637a.20(b)", 7, straddle=True,
           kill=True, odd_chip=OddChip.REQUIRED, odd_chip_rule="637a.20(k)"),
    _poker("badeucey", "Triple Draw 2-7 with Badeucey", "637a.20(b)", 7, straddle=True,
           kill=True, odd_chip=OddChip.REQUIRED, odd_chip_rule="637a.20(k)"),
    _poker("badacey", "Triple Draw A-5 with Badacey", "637a.20(b)", 7, straddle=True,
           kill=True, odd_chip=OddChip.REQUIRED, odd_chip_rule="637a.20(k)"),
    # 637a.21: nine players.
    _poker("badugi", "Badugi", "637a.21(b)", 9, straddle=True, kill=True,
           odd_chip=OddChip.REQUIRED, odd_chip_rule="637a.21(k)(5)"),
]

GAMES = MappingProxyType({g.id: g for g in _GAMES})
POKER_GAMES = tuple(g.id for g in _GAMES if g.is_poker)
BANKED_GAMES = tuple(g.id for g in _GAMES if not g.is_poker)


class UnknownGame(DomainError):
    code = "unknown_game"


def get_table_game(game_id: object, *, field: str = "game") -> TableGame:
    if not isinstance(game_id, str) or game_id not in GAMES:
        raise UnknownGame(f"no game {game_id!r}; known: {', '.join(GAMES)}", field=field)
    return GAMES[game_id]
