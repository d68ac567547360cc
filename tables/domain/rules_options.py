"""The choices a Rules Submission makes, per game, validated against the chapter.

``validate_options(game, options)`` returns the options in canonical form (defaults filled
in) or raises :class:`RulesOptionError` with a stable ``code`` and the dotted ``field``
that is wrong. Only what the chapter lists is accepted: a paytable it does not print, an
option it does not allow for that game, a percentage rake over 10 %, an unknown key.

Money is integer cents, percentages are basis points (1 % = 100).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from casino.domain.errors import DomainError
from tables.domain.catalogue import Family, OddChip, TableGame, get_table_game

MAX_CENTS = 10**11  # a billion dollars: anything larger is a typing error
MAX_RAKE_BP = 1000  # 637a.17(b)(1): a percentage rake may not exceed 10 %


class RulesOptionError(DomainError):
    code = "invalid_option"


class _Options:
    """Reads one object of the options, remembering which keys were used so that an
    unknown key can be refused by name."""

    def __init__(self, raw: Any, path: str):
        if not isinstance(raw, Mapping):
            raise RulesOptionError(f"{path} must be an object", code="invalid_option_type",
                                   field=path)
        self.raw, self.path, self.used = raw, path, set()

    def field(self, key: str) -> str:
        return f"{self.path}.{key}"

    def has(self, key: str) -> bool:
        return self.raw.get(key) is not None

    def get(self, key: str, kind: Callable[[Any, str], Any], *, default: Any = ...,
            required: bool = True) -> Any:
        self.used.add(key)
        if self.raw.get(key) is None:
            if default is not ...:
                return default
            if required:
                raise RulesOptionError(f"{self.field(key)} is required", code="option_required",
                                       field=self.field(key))
            return None
        return kind(self.raw[key], self.field(key))

    def refuse(self, key: str, why: str) -> None:
        """``key`` may not be given (or must be null/false) for this game."""
        self.used.add(key)
        value = self.raw.get(key)
        if value not in (None, False, [], {}, 0):
            raise RulesOptionError(f"{self.field(key)} is not allowed: {why}",
                                   code="option_not_allowed", field=self.field(key))

    def done(self) -> None:
        unknown = sorted(set(self.raw) - self.used)
        if unknown:
            raise RulesOptionError(f"{self.field(unknown[0])} is not an option of this game",
                                   code="unknown_option", field=self.field(unknown[0]))


# --- value kinds ------------------------------------------------------------------

def _bool(v: Any, field: str) -> bool:
    if not isinstance(v, bool):
        raise RulesOptionError(f"{field} must be true or false", code="invalid_option_type",
                               field=field)
    return v


def _int(lo: int, hi: int, *, code: str = "option_out_of_range") -> Callable[[Any, str], int]:
    def check(v: Any, field: str) -> int:
        if not isinstance(v, int) or isinstance(v, bool):
            raise RulesOptionError(f"{field} must be a whole number", code="invalid_option_type",
                                   field=field)
        if not lo <= v <= hi:
            raise RulesOptionError(f"{field} must be between {lo:,} and {hi:,}", code=code,
                                   field=field)
        return v
    return check


_cents = _int(1, MAX_CENTS)
_cents0 = _int(0, MAX_CENTS)


def _text(v: Any, field: str) -> str:
    if not isinstance(v, str) or not v.strip() or len(v) > 2000:
        raise RulesOptionError(f"{field} must be text of 1 to 2000 characters",
                               code="invalid_option_type", field=field)
    return v.strip()


def _choice(*allowed: str, code: str = "invalid_choice") -> Callable[[Any, str], str]:
    def check(v: Any, field: str) -> str:
        if v not in allowed:
            raise RulesOptionError(f"{field} must be one of {', '.join(allowed)}; got {v!r}",
                                   code=code, field=field)
        return v
    return check


def _one_of(*allowed: int) -> Callable[[Any, str], int]:
    def check(v: Any, field: str) -> int:
        if isinstance(v, bool) or v not in allowed:
            raise RulesOptionError(f"{field} must be one of {allowed}; got {v!r}",
                                   code="invalid_choice", field=field)
        return v
    return check


def _list(v: Any, field: str) -> list:
    if not isinstance(v, list):
        raise RulesOptionError(f"{field} must be a list", code="invalid_option_type", field=field)
    return v


# --- the table limits every game posts ----------------------------------------------

def _table_limits(o: _Options) -> dict[str, int]:
    low = o.get("table_minimum_cents", _cents)
    high = o.get("table_maximum_cents", _cents)
    if high < low:
        raise RulesOptionError("the table maximum is below the table minimum",
                               code="table_limits_inverted", field=o.field("table_maximum_cents"))
    return {"table_minimum_cents": low, "table_maximum_cents": high}


# --- banked games -------------------------------------------------------------------

def _lunar_589(o: _Options) -> dict[str, Any]:
    """589.12(a) instant paytables A-H; 589.7(c)(2) optional Super Wager, 589.12(b) A-C."""
    out = _table_limits(o)
    out["instant_paytable"] = o.get("instant_paytable", _choice(*"ABCDEFGH",
                                                                code="unknown_paytable"))
    out["super_wager_offered"] = o.get("super_wager_offered", _bool)
    if out["super_wager_offered"]:
        out["super_paytable"] = o.get("super_paytable", _choice(*"ABC", code="unknown_paytable"))
    else:
        o.refuse("super_paytable", "the Super Wager is not offered")
        out["super_paytable"] = None
    return out


def _lunar_671a(o: _Options) -> dict[str, Any]:
    """671a.12(a) instant paytables A-C; 671a.7(c)(2) the Super Wager is required (one
    paytable, 671a.12(b)); 671a.7(c)(3) Super Wagers on other hands if offered."""
    out = _table_limits(o)
    out["instant_paytable"] = o.get("instant_paytable", _choice(*"ABC", code="unknown_paytable"))
    out["super_on_other_hands_offered"] = o.get("super_on_other_hands_offered", _bool)
    return out


def _hilo(o: _Options) -> dict[str, Any]:
    """579.12(b) Ante Bonus A-D; 579.7(e)(1) Tie Wager; 579.7(e)(2) and 579.12(d) Poker
    Bonus A or B; 579.7(f) two adjacent betting areas."""
    out = _table_limits(o)
    out["ante_bonus_paytable"] = o.get("ante_bonus_paytable",
                                       _choice(*"ABCD", code="unknown_paytable"))
    out["tie_wager_offered"] = o.get("tie_wager_offered", _bool)
    out["poker_bonus_offered"] = o.get("poker_bonus_offered", _bool)
    if out["poker_bonus_offered"]:
        out["poker_bonus_paytable"] = o.get("poker_bonus_paytable",
                                            _choice("A", "B", code="unknown_paytable"))
    else:
        o.refuse("poker_bonus_paytable", "the Poker Bonus Wager is not offered")
        out["poker_bonus_paytable"] = None
    out["adjacent_betting_areas_permitted"] = o.get("adjacent_betting_areas_permitted", _bool)
    return out


# --- poker --------------------------------------------------------------------------

STRUCTURES = ("fixed-limit", "pot-limit", "no-limit")
RAKE_TYPES = ("percentage", "incremental", "time-charge")
ODD_CHIP_RECIPIENTS = ("first-left-of-button", "highest-card-by-suit")


def _blinds(o: _Options, game: TableGame) -> list[int]:
    """637a.11(d), 637a.13(e): the first Blind Bet and any additional ones, in order."""
    raw = o.get("blinds_cents", _list)
    if not raw:
        raise RulesOptionError(f"{game.name} needs at least one Blind Bet",
                               code="option_required", field=o.field("blinds_cents"))
    if len(raw) > 3:
        raise RulesOptionError("at most three Blind Bets", code="option_out_of_range",
                               field=o.field("blinds_cents"))
    return [_cents(v, f"{o.field('blinds_cents')}[{i}]") for i, v in enumerate(raw)]


def _limits(o: _Options, structure: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if structure == "fixed-limit":
        out["small_bet_cents"] = o.get("small_bet_cents", _cents)
        out["big_bet_cents"] = o.get("big_bet_cents", _cents)
        if out["big_bet_cents"] < out["small_bet_cents"]:
            raise RulesOptionError("the big bet is below the small bet",
                                   code="table_limits_inverted", field=o.field("big_bet_cents"))
    else:
        o.refuse("small_bet_cents", f"{structure} has no fixed small bet")
        o.refuse("big_bet_cents", f"{structure} has no fixed big bet")
    return out


def _minimum_bet_increase(o: _Options) -> dict[str, Any]:
    """637a.8(k): how far the minimum bet may be raised by agreement, and how the dealer
    establishes that every player agreed."""
    sub = _Options(o.get("minimum_bet_increase", lambda v, f: v), o.field("minimum_bet_increase"))
    out = {"maximum_increase_cents": sub.get("maximum_increase_cents", _cents0)}
    out["agreement_method"] = sub.get("agreement_method", _text,
                                      required=out["maximum_increase_cents"] > 0)
    sub.done()
    return out


def _kill(o: _Options, game: TableGame) -> dict[str, Any]:
    """637a.12(n), 637a.19(l)(3): Kill or Half-kill and the qualifying pot."""
    if not o.has("kill"):
        o.used.add("kill")
        return {"option": "none", "qualifying_pot_cents": None}
    sub = _Options(o.get("kill", lambda v, f: v), o.field("kill"))
    option = sub.get("option", _choice("none", "kill", "half-kill"))
    if option != "none" and not game.kill:
        raise RulesOptionError(f"{game.name} may not use a Kill or Half-kill option",
                               code="option_not_allowed", field=sub.field("option"))
    pot = sub.get("qualifying_pot_cents", _cents) if option != "none" else None
    if option == "none":
        sub.refuse("qualifying_pot_cents", "no Kill option is used")
    sub.done()
    return {"option": option, "qualifying_pot_cents": pot}


def _straddle(o: _Options, game: TableGame) -> dict[str, Any] | None:
    """637a.11(e): at most one Straddle Bet, amount and rules in the submission."""
    if not game.straddle:
        raw = o.raw.get("straddle")
        if isinstance(raw, Mapping) and raw.get("offered") is False:
            o.used.add("straddle")
        else:
            o.refuse("straddle", f"{game.name} has no Straddle Bet")
        return None
    if not o.has("straddle"):
        o.used.add("straddle")
        return {"offered": False, "amount_cents": None, "rules": None}
    sub = _Options(o.get("straddle", lambda v, f: v), o.field("straddle"))
    offered = sub.get("offered", _bool)
    if offered:
        out = {"offered": True, "amount_cents": sub.get("amount_cents", _cents),
               "rules": sub.get("rules", _text)}
    else:
        sub.refuse("amount_cents", "the Straddle Bet is not offered")
        sub.refuse("rules", "the Straddle Bet is not offered")
        out = {"offered": False, "amount_cents": None, "rules": None}
    sub.done()
    return out


def _odd_chip(o: _Options, game: TableGame) -> str | None:
    """Who gets the excess of a split pot where the chapter lets the submission say."""
    if game.odd_chip is OddChip.BY_SUIT:
        o.refuse("odd_chip_recipient", "the chapter awards the odd chip by suit")
        return None
    return o.get("odd_chip_recipient", _choice(*ODD_CHIP_RECIPIENTS),
                 required=game.odd_chip is OddChip.REQUIRED)


def _rake(o: _Options) -> dict[str, Any]:
    """637a.17(a)-(b): the types of rake, their method and the maximum per round."""
    sub = _Options(o.get("rake", lambda v, f: v), o.field("rake"))
    types = sub.get("types", _list)
    for i, t in enumerate(types):
        _choice(*RAKE_TYPES)(t, f"{sub.field('types')}[{i}]")
    if not types or len(set(types)) != len(types):
        raise RulesOptionError("name one or more rake types, each once", code="option_required",
                               field=sub.field("types"))
    out: dict[str, Any] = {"types": sorted(types)}
    out["methodology"] = sub.get("methodology", _text, required=False)
    if "percentage" in types:
        out["percentage_bp"] = sub.get("percentage_bp", _int(1, MAX_RAKE_BP,
                                                             code="rake_percentage_too_high"))
    else:
        sub.refuse("percentage_bp", "no percentage rake is taken")
    pot_based = "percentage" in types or "incremental" in types
    if pot_based:
        out["collection"] = sub.get("collection", _choice("as-play-progresses", "end-of-round"))
        out["maximum_per_round_cents"] = sub.get("maximum_per_round_cents", _cents)
    else:
        sub.refuse("collection", "no rake is taken from the pot")
        out["maximum_per_round_cents"] = sub.get("maximum_per_round_cents", _cents,
                                                 required=False)
    if "incremental" in types:
        out["incremental_levels"] = _incremental_levels(sub, out["maximum_per_round_cents"])
    else:
        sub.refuse("incremental_levels", "no incremental rake is taken")
    if "time-charge" in types:
        tc = _Options(sub.get("time_charge", lambda v, f: v), sub.field("time_charge"))
        out["time_charge"] = {
            "basis": tc.get("basis", _choice("per-player", "per-table")),
            "hourly_cents": tc.get("hourly_cents", _cents),
            # 637a.17(b)(3)(iii): assessed fractionally every 20 or 30 minutes.
            "assessed_every_minutes": tc.get("assessed_every_minutes", _one_of(20, 30)),
        }
        tc.done()
    else:
        sub.refuse("time_charge", "no time charge is taken")
    sub.done()
    return out


def _incremental_levels(sub: _Options, maximum: int) -> list[dict[str, int]]:
    """637a.17(b)(2): rake taken as predetermined pot levels are reached."""
    field = sub.field("incremental_levels")
    raw = sub.get("incremental_levels", _list)
    if not raw:
        raise RulesOptionError("an incremental rake needs at least one level",
                               code="option_required", field=field)
    levels, last_pot, total = [], 0, 0
    for i, item in enumerate(raw):
        lvl = _Options(item, f"{field}[{i}]")
        pot = lvl.get("pot_at_least_cents", _cents)
        rake = lvl.get("rake_cents", _cents)
        lvl.done()
        if pot <= last_pot:
            raise RulesOptionError("levels must rise", code="levels_not_increasing",
                                   field=lvl.field("pot_at_least_cents"))
        total += rake  # 637a.17(b)(1) caps only a percentage rake at 10 %
        last_pot = pot
        levels.append({"pot_at_least_cents": pot, "rake_cents": rake})
    if total > maximum:
        raise RulesOptionError("the levels add up to more than the maximum rake per round",
                               code="rake_above_maximum", field=field)
    return levels


def _contribution(sub: _Options) -> dict[str, Any]:
    """637a.15(b)(1), 637a.16(b)(2): the maximum taken from a pot and how it is worked out."""
    c = _Options(sub.get("contribution", lambda v, f: v), sub.field("contribution"))
    method = c.get("method", _choice("percentage", "fixed"))
    out: dict[str, Any] = {"method": method}
    if method == "percentage":
        out["percentage_bp"] = c.get("percentage_bp", _int(1, 10_000))
        c.refuse("amount_cents", "a percentage contribution has no fixed amount")
    else:
        out["amount_cents"] = c.get("amount_cents", _cents)
        c.refuse("percentage_bp", "a fixed contribution has no percentage")
    c.done()
    return out


HAND_CATEGORIES = ("full-house", "four-of-a-kind", "straight-flush", "royal-flush")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")


def _bad_beat(o: _Options, game: TableGame) -> dict[str, Any] | None:
    """637a.15(b): maximum contribution and its method, minimum pot, qualifying hands and
    payouts."""
    if not o.has("bad_beat"):
        o.used.add("bad_beat")
        return None
    sub = _Options(o.get("bad_beat", lambda v, f: v), o.field("bad_beat"))
    out = {"contribution": _contribution(sub),
           "maximum_per_pot_cents": sub.get("maximum_per_pot_cents", _cents),
           "minimum_pot_cents": sub.get("minimum_pot_cents", _cents0)}
    q = _Options(sub.get("qualifying_hand", lambda v, f: v), sub.field("qualifying_hand"))
    out["qualifying_hand"] = {
        "losing_hand_at_least": q.get("losing_hand_at_least", _choice(*HAND_CATEGORIES)),
        "rank_at_least": q.get("rank_at_least", _choice(*RANKS), required=False),
        "both_hole_cards_must_play": q.get("both_hole_cards_must_play", _bool, default=False),
        "minimum_players_dealt": q.get("minimum_players_dealt", _int(2, game.max_positions),
                                       default=2),
    }
    q.done()
    shares = _Options(sub.get("payout_shares_bp", lambda v, f: v), sub.field("payout_shares_bp"))
    out["payout_shares_bp"] = {k: shares.get(k, _int(0, 10_000), default=0)
                               for k in ("losing_hand", "winning_hand", "table_share")}
    shares.done()
    if sum(out["payout_shares_bp"].values()) != 10_000:
        raise RulesOptionError("the payout shares must add up to 100 % (10000 basis points)",
                               code="shares_not_whole", field=sub.field("payout_shares_bp"))
    sub.done()
    return out


def _high_hand(o: _Options, game: TableGame) -> dict[str, Any] | None:
    """637a.16(b)(1)-(7) and (i): the posted High Hand Jackpot rules."""
    if not o.has("high_hand"):
        o.used.add("high_hand")
        return None
    sub = _Options(o.get("high_hand", lambda v, f: v), o.field("high_hand"))
    out = {
        "qualifying_period_minutes": sub.get("qualifying_period_minutes", _int(15, 7 * 24 * 60)),
        "collection_period": sub.get("collection_period", _text),
        "contribution": _contribution(sub),
        "maximum_per_pot_cents": sub.get("maximum_per_pot_cents", _cents),
        "minimum_pot_cents": sub.get("minimum_pot_cents", _cents0),
        "minimum_players_dealt": sub.get("minimum_players_dealt", _int(2, game.max_positions)),
        "tie_division": sub.get("tie_division", _choice("split-equally", "first-made")),
        "collection_time_limit_hours": sub.get("collection_time_limit_hours", _int(1, 24 * 366)),
        "uncollected_procedure": sub.get("uncollected_procedure", _text),
    }
    # 637a.16(b)(7): players must present valid identification; not a choice.
    sub.used.add("identification_required")
    if sub.raw.get("identification_required") is False:
        raise RulesOptionError("637a.16(b)(7) requires valid identification",
                               code="option_not_allowed", field=sub.field("identification_required"))
    out["identification_required"] = True
    sub.done()
    return out


def _poker(o: _Options, game: TableGame) -> dict[str, Any]:
    out = _table_limits(o)
    structure = o.get("structure", _choice(*STRUCTURES))
    out["structure"] = structure
    out.update(_limits(o, structure))
    out["ante_cents"] = o.get("ante_cents", _cents0, default=0)
    if game.forced_bet:
        out["forced_bet_cents"] = o.get("forced_bet_cents", _cents)
        o.refuse("blinds_cents", f"{game.name} starts with a Forced Bet, not blinds")
    else:
        out["blinds_cents"] = _blinds(o, game)
        o.refuse("forced_bet_cents", f"{game.name} has blinds, not a Forced Bet")
    out["straddle"] = _straddle(o, game)
    out["max_raises_per_round"] = o.get("max_raises_per_round", _int(1, 50), required=False)
    out["raise_after_check"] = o.get("raise_after_check", _bool, default=True)
    out["minimum_bet_increase"] = _minimum_bet_increase(o)
    out["kill"] = _kill(o, game)
    out["odd_chip_recipient"] = _odd_chip(o, game)
    out["disclose_mucked_hands"] = o.get("disclose_mucked_hands", _bool, default=False)
    out["rake"] = _rake(o)
    out["bad_beat"] = _bad_beat(o, game)
    out["high_hand"] = _high_hand(o, game)
    return out


_BY_FAMILY: dict[Family, Callable[..., dict[str, Any]]] = {
    Family.LUNAR_589: lambda o, g: _lunar_589(o),
    Family.LUNAR_671A: lambda o, g: _lunar_671a(o),
    Family.HILO: lambda o, g: _hilo(o),
    Family.POKER: _poker,
}


def validate_options(game_id: str, options: Any) -> dict[str, Any]:
    """The options of a Rules Submission for ``game_id``, checked and in canonical form."""
    game = get_table_game(game_id)
    o = _Options(options, "options")
    out = _BY_FAMILY[game.family](o, game)
    o.done()
    return out


def option_keys(game_id: str) -> Sequence[str]:
    """The top-level keys a canonical options object of this game has."""
    return tuple(example_options(game_id))


def example_options(game_id: str) -> dict[str, Any]:
    """A valid, typical set of options (used by the demo and the API docs)."""
    game = get_table_game(game_id)
    if game.family is Family.LUNAR_589:
        raw: dict[str, Any] = {"instant_paytable": "A", "super_wager_offered": True,
                               "super_paytable": "B"}
    elif game.family is Family.LUNAR_671A:
        raw = {"instant_paytable": "A", "super_on_other_hands_offered": True}
    elif game.family is Family.HILO:
        raw = {"ante_bonus_paytable": "B", "tie_wager_offered": True,
               "poker_bonus_offered": True, "poker_bonus_paytable": "A",
               "adjacent_betting_areas_permitted": True}
    else:
        raw = {"structure": "fixed-limit", "small_bet_cents": 400, "big_bet_cents": 800,
               "ante_cents": 0, "max_raises_per_round": 4,
               "minimum_bet_increase": {"maximum_increase_cents": 0},
               "rake": {"types": ["percentage"], "percentage_bp": 1000,
                        "collection": "end-of-round", "maximum_per_round_cents": 500}}
        if game.forced_bet:
            raw.update(ante_cents=50, forced_bet_cents=100)
        else:
            raw["blinds_cents"] = [200, 400]
        if game.odd_chip is OddChip.REQUIRED:
            raw["odd_chip_recipient"] = "first-left-of-button"
        if game.id == "holdem":
            raw["bad_beat"] = {
                "contribution": {"method": "fixed", "amount_cents": 100},
                "maximum_per_pot_cents": 100, "minimum_pot_cents": 2000,
                "qualifying_hand": {"losing_hand_at_least": "four-of-a-kind",
                                    "rank_at_least": "8", "both_hole_cards_must_play": True,
                                    "minimum_players_dealt": 4},
                "payout_shares_bp": {"losing_hand": 5000, "winning_hand": 2500,
                                     "table_share": 2500}}
            raw["high_hand"] = {
                "qualifying_period_minutes": 60, "collection_period": "each clock hour",
                "contribution": {"method": "fixed", "amount_cents": 100},
                "maximum_per_pot_cents": 100, "minimum_pot_cents": 1000,
                "minimum_players_dealt": 4, "tie_division": "split-equally",
                "collection_time_limit_hours": 24,
                "uncollected_procedure": "added to the next qualifying period's payout"}
    table = {"lunar-poker-589": (1000, 50000), "lunar-poker-671a": (1000, 50000),
             "five-card-hi-lo": (500, 50000)}.get(game.id, (400, 800))
    raw.update(table_minimum_cents=table[0], table_maximum_cents=table[1])
    return validate_options(game_id, raw)
