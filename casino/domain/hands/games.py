"""Registry of games for hand checking (the poker games, Lunar Poker and Five Card Hi-Lo): which cards each game takes and how its
showdown hands rank (637a.10-637a.14, 637a.19-637a.21, rankings in 637a.6).

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


def _lunar(rulebook: str) -> Callable[[Sequence[Card]], dict[str, Any]]:
    """Lunar Poker: the hand under 589.6(b) / 671a.6(b) (ace-king counts), what the Bet
    pays with its second combination (589.11(e)(1)(ii), 671a.11(f)(2)(ii)), and the
    Super Wager and instant-payout hands of the first five cards (589.6(d), 671a.6(d))."""
    from casino.domain.hands import lunar

    def evaluate_lunar(cards: Sequence[Card]) -> dict[str, Any]:
        value, five = lunar.best_lunar(cards)
        payout = lunar.bet_payout(cards)
        first_five = cards[:5]
        super_hand = lunar.super_hand(rulebook, first_five)
        instant = lunar.instant_payout_hand(first_five)
        return {
            "category": lunar.lunar_category(value).label, "rank": value,
            "description": lunar.describe_lunar(value), "cards": format_cards(five),
            "qualifies_for_dealer": lunar.dealer_qualifies(value),
            "bet_combinations": None if payout is None else [
                c.describe() for c in (payout.winning, payout.second) if c is not None],
            "super_wager_hand": super_hand.label if super_hand else None,
            "instant_payout_hand": instant.label if instant else None,
        }

    return evaluate_lunar


def _eval_hilo(cards: Sequence[Card]) -> dict[str, Any]:
    """Five Card Hi-Lo: the legal settings' totals (579.11(d)), the setting the dealer
    would make of these cards (579.11(e)), and the bonus hands (579.12)."""
    from casino.domain.hands import hilo

    dealer = hilo.dealer_setting(cards)
    ante_bonus = hilo.ante_bonus_hand(cards)
    poker_bonus = hilo.poker_bonus_hand(cards)
    return {
        "category": "Hi-Lo setting", "rank": None,
        "description": f"dealer would set {dealer.describe()}", "cards": format_cards(cards),
        "legal_setting_totals": [list(t) for t in hilo.distinct_setting_totals(cards)],
        "dealer_setting": {"high": format_cards(dealer.high), "low": format_cards(dealer.low),
                           "high_total": dealer.high_total, "low_total": dealer.low_total},
        "ante_bonus_hand": ante_bonus.label if ante_bonus else None,
        "poker_bonus_hand": poker_bonus.label if poker_bonus else None,
    }


_STUD = (5, 6, 7)
_OMAHA = {"hole": (4, 5), "board": (5,)}
_OMAHA5 = {"hole": (5,), "board": (5,)}

GAMES: dict[str, Game] = {g.name: g for g in (
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
    Game("lunar-poker-589", "Lunar Poker (2013)", "589.6, 589.11(e)", {"cards": (5, 6)},
         _lunar("589")),
    Game("lunar-poker-671a", "Lunar Poker (2016)", "671a.6, 671a.11(f)", {"cards": (5, 6)},
         _lunar("671a")),
    Game("five-card-hi-lo", "Five Card Hi-Lo", "579.6, 579.11(d)-(e)", {"cards": (5,)},
         _eval_hilo),
)}


def game_names() -> list[str]:
    return list(GAMES)


def get_game(name: Any) -> Game:
    if not isinstance(name, str) or name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r}; expected one of: "
                               + ", ".join(GAMES), field="game")
    return GAMES[name]


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
