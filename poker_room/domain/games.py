"""How the engine deals each chapter 637a game of the one registry of games
(:mod:`tables.domain.catalogue`, whose poker ids these specs are keyed by, checked below).

Each :class:`GameSpec` says how a hand of that game runs: which family it belongs to
(community-card, stud or draw), how many cards each player gets, how many betting rounds
and draws there are, from which round fixed-limit play uses the big bet, how the showdown
is judged and how many may play (637a.10(b), 637a.11(b), 637a.12(b), 637a.13(b),
637a.14(b), 637a.19(b), 637a.20(b), 637a.21(b)).
"""

from __future__ import annotations

from dataclasses import dataclass

from casino.domain.hands.stud import StudGame
from poker_room.domain.errors import InvalidRules
from tables.domain.catalogue import GAMES, POKER_GAMES, OddChip

BOARD, STUD, DRAW = "board", "stud", "draw"


@dataclass(frozen=True)
class GameSpec:
    id: str
    title: str
    regulation: str
    family: str
    max_players: int
    #: face-down cards dealt before the first betting round (board and draw games)
    hole_cards: int
    #: betting rounds in a hand
    rounds: int
    #: first betting round (0-based) played with the big bet in fixed limit
    big_bet_from: int
    #: how the showdown is judged: see :mod:`poker_room.domain.showdown`
    showdown: str
    #: draws (draw games): a draw precedes every betting round after the first
    draws: int = 0
    #: stud: cards of the first deal (down, up) and the cards of each later street
    stud_first: tuple[int, int] = (0, 0)
    stud_streets: tuple[str, ...] = ()
    #: Super Seven-card Stud: cards each player discards before the first betting round
    discard: int = 0
    #: the game whose forced-bet and first-to-act rules apply (stud)
    stud_game: StudGame | None = None
    #: blinds are posted after the deal (Five-card Draw, 637a.13(e))
    blinds_after_deal: bool = False
    #: the regulation lets the room offer a straddle (637a.11(e), 637a.12(e), ...)
    straddle: bool = True

    @property
    def kill(self) -> bool:
        """The Kill or Half-kill option may be offered (637a.12(n), 637a.19(l)(3),
        637a.20(b), 637a.21(b)): the one answer is the games registry's."""
        return GAMES[self.id].kill

    @property
    def suit_odd_chips_required(self) -> bool:
        """The game's section fixes the odd chip by suit (637a.10(i)(3)(ii)-(iii)), so the
        Rules Submission names no recipient; the games registry's ``odd_chip`` is the one
        answer (elsewhere the section lets the submission name one or is silent)."""
        return GAMES[self.id].odd_chip is OddChip.BY_SUIT

    @property
    def uses_button(self) -> bool:
        return self.family != STUD

    @property
    def split(self) -> bool:
        return self.showdown in ("stud_hilo", "stud_hilo8", "omaha8", "badeucey", "badacey")


_STUD7 = {"family": STUD, "hole_cards": 0, "rounds": 5, "big_bet_from": 2, "stud_first": (2, 1),
              "stud_streets": ("up", "up", "up", "down"), "straddle": False, "max_players": 9}
_BOARD = {"family": BOARD, "rounds": 4, "big_bet_from": 2}
_TRIPLE = {"family": DRAW, "rounds": 4, "big_bet_from": 2, "draws": 3, "max_players": 7}

POKER_SPECS: dict[str, GameSpec] = {g.id: g for g in (
    GameSpec("stud-high", "Seven-card Stud High", "637a.10", showdown="stud_high",
             stud_game=StudGame.SEVEN_CARD_STUD_HIGH, **_STUD7),
    GameSpec("stud-low", "Seven-card Stud Low", "637a.10", showdown="stud_low",
             stud_game=StudGame.SEVEN_CARD_STUD_LOW, **_STUD7),
    GameSpec("stud-hilo", "Seven-card Stud High-low Split", "637a.10", showdown="stud_hilo",
             stud_game=StudGame.SEVEN_CARD_STUD_HIGH_LOW, **_STUD7),
    GameSpec("stud-hilo8", "Seven-card Stud High-low Split Eight or Better", "637a.10",
             showdown="stud_hilo8", stud_game=StudGame.SEVEN_CARD_STUD_HIGH_LOW_8, **_STUD7),
    GameSpec("super-stud-hilo8", "Super Seven-card Stud High-low Split Eight or Better",
             "637a.10(m)", showdown="stud_hilo8",
             stud_game=StudGame.SEVEN_CARD_STUD_HIGH_LOW_8, discard=2,
             **{**_STUD7, "stud_first": (4, 1)}),
    GameSpec("holdem", "Hold'em", "637a.11", max_players=10, hole_cards=2,
             showdown="holdem", **_BOARD),
    GameSpec("omaha-high", "Omaha High", "637a.12", max_players=10, hole_cards=4,
             showdown="omaha", **_BOARD),
    GameSpec("omaha-hilo8", "Omaha High-low Split Eight or Better", "637a.12",
             max_players=10, hole_cards=4, showdown="omaha8", **_BOARD),
    GameSpec("five-card-omaha-high", "Five-card Omaha High", "637a.19", max_players=8,
             hole_cards=5, showdown="omaha", **_BOARD),
    GameSpec("five-card-omaha-hilo8", "Five-card Omaha High-low Split Eight or Better",
             "637a.19", max_players=8, hole_cards=5, showdown="omaha8", **_BOARD),
    GameSpec("draw-high", "Five-card Draw High", "637a.13", family=DRAW, max_players=8,
             hole_cards=5, rounds=2, big_bet_from=1, draws=1, showdown="high5",
             blinds_after_deal=True, straddle=False),
    GameSpec("draw-low", "Five-card Draw Low", "637a.13", family=DRAW, max_players=8,
             hole_cards=5, rounds=2, big_bet_from=1, draws=1, showdown="a5",
             blinds_after_deal=True, straddle=False),
    GameSpec("five-card-stud", "Five-card Stud", "637a.14", family=STUD, max_players=8,
             hole_cards=0, rounds=4, big_bet_from=2, showdown="high5",
             stud_first=(1, 1), stud_streets=("up", "up", "up"), straddle=False,
             stud_game=StudGame.FIVE_CARD_STUD),
    GameSpec("triple-draw-27", "Triple Draw 2-7 Lowball", "637a.20", hole_cards=5,
             showdown="d27", **_TRIPLE),
    GameSpec("triple-draw-a5", "Triple Draw A-5 Lowball", "637a.20", hole_cards=5,
             showdown="a5", **_TRIPLE),
    GameSpec("badeucey", "Triple Draw Badeucey", "637a.20(l)(1)", hole_cards=5,
             showdown="badeucey", **_TRIPLE),
    GameSpec("badacey", "Triple Draw Badacey", "637a.20(l)(2)", hole_cards=5,
             showdown="badacey", **_TRIPLE),
    GameSpec("badugi", "Badugi", "637a.21", family=DRAW, max_players=9, hole_cards=4,
             rounds=4, big_bet_from=2, draws=3, showdown="badugi"),
)}


if set(POKER_SPECS) != set(POKER_GAMES):  # pragma: no cover - a registry edit gone wrong
    raise ImportError("poker specs and the games registry disagree: "
                      f"{sorted(set(POKER_SPECS) ^ set(POKER_GAMES))}")


def get_game(game_id: object) -> GameSpec:
    if not isinstance(game_id, str) or game_id not in POKER_SPECS:
        raise InvalidRules(f"unknown game {game_id!r}; expected one of: " + ", ".join(POKER_SPECS),
                           code="unknown_game", field="game")
    return POKER_SPECS[game_id]
