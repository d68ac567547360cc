"""Registry of games for hand checking: which cards each game takes and how its showdown
hands rank. The poker games (637a.10-637a.14, 637a.19-637a.21, rankings in 637a.6) are
defined here; the house-banked games (Lunar Poker, Five Card Hi-Lo) are registered by the
``tables`` app (:mod:`tables.domain.hands.checking`) through :func:`register`.

:func:`evaluate` returns a plain dict::

    {"game": "omaha-hilo8", "category": "Straight", "rank": 4194304,
     "description": "Straight, five high", "cards": "Ah2c3c4h5s",
     "low": {"qualifies": True, "category": "No pair", "rank": ..., "description":
             "5-4-3-2-A low", "cards": "..."}}

``rank`` is comparable within one game and one part: larger is better, equal ties.
Games with a low half carry ``low`` (``qualifies`` False and ``rank`` None when an
eight-or-better game has no qualifying low); Badeucey and Badacey carry ``badugi``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from casino.domain.cards import Card, CardCountError, check_unique, format_cards, parse_cards
from casino.domain.errors import DomainError
from casino.domain.hands import badugi, high, lowball, omaha
from casino.domain.hands.high import Category


class UnknownGameError(DomainError):
    code = "unknown_game"


class GameInputError(DomainError):
    """A field is missing, not expected, or of the wrong type for the game."""

    code = "invalid_hand_input"


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    regulation: str
    #: allowed card counts per input field, e.g. {"cards": (5, 6, 7)}
    fields: dict[str, tuple[int, ...]]
    evaluate: Callable[..., dict[str, Any]]

    def expectation(self) -> str:
        """'omaha-hilo8 needs 4 or 5 hole cards and 5 board cards'."""
        parts = []
        for field, counts in self.fields.items():
            want = " or ".join(str(n) for n in counts)
            noun = "cards" if field == "cards" else f"{field} cards"
            parts.append(f"{want} {noun}")
        return f"{self.name} needs " + " and ".join(parts)


def _low_category(value: int) -> str:
    cat = lowball.category_of_low(value)
    return "No pair" if cat is Category.HIGH_CARD else cat.label


def _high_part(cards: Sequence[Card]) -> dict[str, Any]:
    v, five = high.best_high_five(cards)
    return _high_dict(v, five)


def _high_dict(v: int, five: Sequence[Card]) -> dict[str, Any]:
    return {"category": high.category_of(v).label, "rank": v,
            "description": high.describe_high(v), "cards": format_cards(five)}


def _a5_dict(v: int, five: Sequence[Card]) -> dict[str, Any]:
    return {"category": _low_category(v), "rank": v, "description": lowball.describe_a5(v),
            "cards": format_cards(five)}


def _d27_dict(v: int, five: Sequence[Card]) -> dict[str, Any]:
    return {"category": _low_category(v), "rank": v, "description": lowball.describe_d27(v),
            "cards": format_cards(five)}


def _no_low() -> dict[str, Any]:
    return {"qualifies": False, "category": None, "rank": None,
            "description": "No qualifying low (eight or better)", "cards": None}


def _badugi_dict(cards: Sequence[Card], ace_low: bool) -> dict[str, Any]:
    v, sub = badugi.badugi_best(cards, ace_low=ace_low)
    return {"category": f"{badugi.size_of(v)}-card", "rank": v,
            "description": badugi.describe_badugi(v, ace_low=ace_low),
            "cards": format_cards(sub)}


# --------------------------------------------------------------- per-game evaluators

def _eval_high(cards: Sequence[Card]) -> dict[str, Any]:
    return _high_part(cards)


def _eval_holdem(hole: Sequence[Card], board: Sequence[Card]) -> dict[str, Any]:
    # any five of the two hole cards and five community cards (637a.11(k))
    return _high_part(list(hole) + list(board))


def _eval_a5(cards: Sequence[Card]) -> dict[str, Any]:
    return _a5_dict(*lowball.a5_low_five(cards))


def _eval_d27(cards: Sequence[Card]) -> dict[str, Any]:
    return _d27_dict(*lowball.d27_low_five(cards))


def _eval_stud_hilo(cards: Sequence[Card]) -> dict[str, Any]:
    out = _high_part(cards)
    out["low"] = {"qualifies": True, **_a5_dict(*lowball.a5_low_five(cards))}
    return out


def _eval_stud_hilo8(cards: Sequence[Card]) -> dict[str, Any]:
    out = _high_part(cards)
    v, five = lowball.a5_low_five(cards)
    # best A-5 five is the eight-or-better low when any qualifies (637a.10(j))
    out["low"] = ({"qualifies": True, **_a5_dict(v, five)} if lowball.qualifies_eight(v)
                  else _no_low())
    return out


def _eval_omaha_high(hole: Sequence[Card], board: Sequence[Card]) -> dict[str, Any]:
    return _high_dict(*omaha.omaha_high_five(hole, board))


def _eval_omaha_hilo8(hole: Sequence[Card], board: Sequence[Card]) -> dict[str, Any]:
    out = _high_dict(*omaha.omaha_high_five(hole, board))
    low = omaha.omaha_low8_five(hole, board)
    out["low"] = {"qualifies": True, **_a5_dict(*low)} if low else _no_low()
    return out


def _eval_badugi(cards: Sequence[Card]) -> dict[str, Any]:
    return _badugi_dict(cards, ace_low=True)


def _eval_badeucey(cards: Sequence[Card]) -> dict[str, Any]:
    out = _d27_dict(*lowball.d27_low_five(cards))
    out["badugi"] = _badugi_dict(cards, ace_low=False)  # ace high (637a.20(l)(1))
    return out


def _eval_badacey(cards: Sequence[Card]) -> dict[str, Any]:
    out = _a5_dict(*lowball.a5_low_five(cards))
    out["badugi"] = _badugi_dict(cards, ace_low=True)  # ace low (637a.20(l)(2))
    return out


_STUD = (5, 6, 7)
_OMAHA = {"hole": (4, 5), "board": (5,)}
_OMAHA5 = {"hole": (5,), "board": (5,)}

RANKINGS: dict[str, Game] = {g.name: g for g in (
    Game("holdem", "Hold'em", "637a.11", {"hole": (2,), "board": (5,)}, _eval_holdem),
    Game("stud-high", "Seven-card Stud High", "637a.10(i)(1)", {"cards": _STUD}, _eval_high),
    Game("stud-low", "Seven-card Stud Low (A-5, razz)", "637a.10(i)(2)", {"cards": _STUD},
         _eval_a5),
    Game("stud-hilo", "Seven-card Stud High-low Split", "637a.10(i)(3), (k)",
         {"cards": _STUD}, _eval_stud_hilo),
    Game("stud-hilo8", "Seven-card Stud High-low Split Eight or Better", "637a.10(i)(3), (j)",
         {"cards": _STUD}, _eval_stud_hilo8),
    Game("super-stud-hilo8", "Super Seven-card Stud High-low Split Eight or Better",
         "637a.10(m)", {"cards": _STUD}, _eval_stud_hilo8),
    Game("omaha-high", "Omaha High", "637a.12(k)(1)", dict(_OMAHA), _eval_omaha_high),
    Game("omaha-hilo8", "Omaha High-low Split Eight or Better", "637a.12(k)(2), (l), (m)",
         dict(_OMAHA), _eval_omaha_hilo8),
    Game("five-card-omaha-high", "Five-card Omaha High", "637a.19(k)", dict(_OMAHA5),
         _eval_omaha_high),
    Game("five-card-omaha-hilo8", "Five-card Omaha High-low Split Eight or Better",
         "637a.19(k), (l)", dict(_OMAHA5), _eval_omaha_hilo8),
    Game("draw-high", "Five-card Draw High", "637a.13(i)(1)", {"cards": (5,)}, _eval_high),
    Game("draw-low", "Five-card Draw Low (A-5)", "637a.13(i)(2)", {"cards": (5,)}, _eval_a5),
    Game("five-card-stud", "Five-card Stud", "637a.14(i)", {"cards": (5,)}, _eval_high),
    Game("triple-draw-27", "Triple Draw 2-7 Lowball", "637a.20(k)(3)", {"cards": (5,)},
         _eval_d27),
    Game("triple-draw-a5", "Triple Draw Ace-5 Lowball", "637a.20(k)(4)", {"cards": (5,)},
         _eval_a5),
    Game("badeucey", "Triple Draw 2-7 with Badeucey", "637a.20(l)(1)", {"cards": (5,)},
         _eval_badeucey),
    Game("badacey", "Triple Draw A-5 with Badacey", "637a.20(l)(2)", {"cards": (5,)},
         _eval_badacey),
    Game("badugi", "Badugi", "637a.21(k)", {"cards": (4,)}, _eval_badugi),
)}


def register(game: Game) -> None:
    """Add a game to the registry. Apps above casino (tables' house-banked games) call
    this from their ``AppConfig.ready()``, so casino never imports them."""
    if game.name in RANKINGS and RANKINGS[game.name] is not game:
        raise ValueError(f"game {game.name!r} is registered twice")
    RANKINGS[game.name] = game


def game_names() -> list[str]:
    return list(RANKINGS)


def get_game(name: Any) -> Game:
    if not isinstance(name, str) or name not in RANKINGS:
        raise UnknownGameError(f"unknown game {name!r}; expected one of: "
                               + ", ".join(RANKINGS), field="game")
    return RANKINGS[name]


def _cards_of(game: Game, field: str, raw: Any) -> list[Card]:
    if isinstance(raw, Iterable) and not isinstance(raw, (str, bytes, dict)):
        raw = list(raw)  # a generator would be used up by the type checks below
    if isinstance(raw, str) or (isinstance(raw, Iterable) and not isinstance(raw, dict)
                                and all(isinstance(x, str) for x in raw)):
        cards = parse_cards(raw, unique=False)
    elif isinstance(raw, Iterable) and not isinstance(raw, dict) and all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 52 for x in raw):
        cards = list(raw)
    else:
        raise GameInputError(f"{field} must be a string of cards like 'AsKd10h': "
                             f"{game.expectation()}", field=field)
    if len(cards) not in game.fields[field]:
        raise CardCountError(f"{game.expectation()}, got {len(cards)} {field}"
                             + ("" if field == "cards" else " cards"), field=field)
    return cards


def evaluate(game: str, **fields: Any) -> dict[str, Any]:
    """Rank the hand of ``game`` from its fields (``cards=``, or ``hole=`` and ``board=``).

    Refuses an unknown game, a missing or unexpected field, a wrong number of cards, a
    malformed card and a card that appears twice, each with its own error code.
    """
    g = get_game(game)
    missing = [f for f in g.fields if fields.get(f) is None]
    extra = [f for f, v in fields.items() if f not in g.fields and v is not None]
    if missing or extra:
        what = (f"missing {', '.join(missing)}" if missing else
                f"unexpected {', '.join(extra)}")
        raise GameInputError(f"{g.expectation()} ({what})",
                             code="missing_field" if missing else "unexpected_field",
                             field=(missing or extra)[0])
    parsed = {f: _cards_of(g, f, fields[f]) for f in g.fields}
    # one deck: a card may not repeat within or across the fields (raises duplicate_card)
    check_unique([c for cs in parsed.values() for c in cs])
    result = g.evaluate(*parsed.values())
    return {"game": g.name, **result}
