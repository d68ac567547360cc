"""The one schema of a poker Rules Submission (637a.8(k), 637a.10(b)-637a.21(b), 637a.11(d)-(e),
637a.12(n), 637a.15(b), 637a.16(b), 637a.17(a)-(b), 637a.18(e), 637a.18(s)).

What a certificate holder submits for a poker game, checked against the chapter and put in
canonical form (defaults filled in). ``tables`` validates every Rules Submission through
this schema (registered by :mod:`poker_room.apps`), and the engine's
:class:`poker_room.domain.rules.TableRules` is built from the same canonical options, so a
hand is dealt under exactly what was approved, with the options recorded on the hand.

Money is integer cents, percentages basis points (1 % = 100). Every posted amount is a
whole number of the table's smallest chip (``chip_unit_cents``): odd chips and rake are
whole chips, and the chapter's excess of a split pot "may not exceed $1"
(637a.10(i)(3)(i), 637a.12(k)(2)(i), 637a.19(k)(2)(i)), so the chip is at most $1.
"""

from __future__ import annotations

from typing import Any

from tables.domain.catalogue import OddChip, TableGame
from tables.domain.options_reader import (
    OptionReader,
    RulesOptionError,
    boolean,
    cents,
    cents0,
    choice,
    listed,
    money,
    nested,
    one_of,
    prose,
    text,
    whole,
)
from tables.domain.rules_options import table_limits

STRUCTURES = ("fixed-limit", "pot-limit", "no-limit")
RAKE_TYPES = ("percentage", "incremental", "time-charge")
#: who posts the Ante (637a.10(b)-637a.21(b) "the rules governing the placement of an Ante
#: bet"): every player dealt in, or one ante for the table by the big blind or the button
ANTE_POSTERS = ("each-player", "big-blind", "button")
#: who receives the excess of a split pot where the Rules Submission may name the player:
#: by suit as the chapter describes, or the first tied player clockwise from the button
#: (the dealer's left at stud)
ODD_CHIP_RECIPIENTS = ("highest-card-by-suit", "first-left-of-button")
BY_SUIT_RECIPIENT = ODD_CHIP_RECIPIENTS[0]
#: how a capped rake is spread over the main pot and the side pots (637a.17(b)(1))
RAKE_SPREADS = ("main-pot-first", "last-pot-first")
#: the rake options of a hand replayed or worked out outside any table (a hand history,
#: the dispute calculator): no pot rake, the record's pots as they are
NO_POT_RAKE = {"types": ["time-charge"], "time_charge": {
    "basis": "per-table", "hourly_cents": 60, "assessed_every_minutes": 30}}
HAND_CATEGORIES = ("full-house", "four-of-a-kind", "straight-flush", "royal-flush")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
MAX_RAKE_BP = 1000  # 637a.17(b)(1): a percentage rake may not exceed 10 %
MAX_CHIP_CENTS = 100  # the excess of a split pot may not exceed $1
#: 637a.18(s): the house's own irregularity procedures, as text the floor reads (a page or
#: two)
MAX_PROCEDURES_CHARS = 4000
#: options written for people, not the engine: kept on the Rules Submission's version
#: (the floor and the table's page read them there) and left out of the rules each hand
#: records (:meth:`poker_room.domain.rules.TableRules.from_options`)
FLOOR_TEXT_OPTIONS = frozenset({"irregularity_procedures"})
#: games whose pot is split between a high (or first) and a low (or second) share
SPLIT_GAMES = frozenset({"stud-hilo", "stud-hilo8", "super-stud-hilo8", "omaha-hilo8",
                         "five-card-omaha-hilo8", "badeucey", "badacey"})


def validate_poker(o: OptionReader, game: TableGame) -> dict[str, Any]:
    """The canonical options of a poker Rules Submission for ``game``."""
    out = table_limits(o)
    out["chip_unit_cents"] = o.get("chip_unit_cents", money(1, MAX_CHIP_CENTS), default=100)
    out["buy_in_minimum_cents"] = o.get("buy_in_minimum_cents", cents)
    out["buy_in_maximum_cents"] = o.get("buy_in_maximum_cents", cents)
    if out["buy_in_maximum_cents"] < out["buy_in_minimum_cents"]:
        raise RulesOptionError("the maximum buy-in is below the minimum buy-in",
                               code="table_limits_inverted",
                               field=o.field("buy_in_maximum_cents"))
    out["seats"] = o.get("seats", whole(2, game.max_positions), default=game.max_positions)
    structure = out["structure"] = o.get("structure", choice(*STRUCTURES))
    out.update(_limits(o, structure, game))
    out["ante_cents"] = o.get("ante_cents", cents0, default=0)
    out["ante_posted_by"] = _ante_poster(o, game, out["ante_cents"])
    if game.forced_bet:
        out["forced_bet_cents"] = o.get("forced_bet_cents", cents)
        out["forced_bet_may_complete"] = o.get("forced_bet_may_complete", boolean,
                                               default=False)
        o.refuse("blinds_cents", f"{game.name} starts with a Forced Bet, not blinds")
        o.refuse("heads_up_button_posts_small_blind", f"{game.name} has no button")
        if out["forced_bet_cents"] > _opening_bet(out):
            raise RulesOptionError("the Forced Bet may not exceed the table's minimum bet",
                                   code="option_out_of_range",
                                   field=o.field("forced_bet_cents"))
    else:
        out["blinds_cents"] = _blinds(o, game)
        out["heads_up_button_posts_small_blind"] = o.get(
            "heads_up_button_posts_small_blind", boolean, default=False)
        o.refuse("forced_bet_cents", f"{game.name} has blinds, not a Forced Bet")
        o.refuse("forced_bet_may_complete", f"{game.name} has blinds, not a Forced Bet")
    out["straddle"] = _straddle(o, game, out)
    out["max_raises_per_round"] = o.get("max_raises_per_round", whole(1, 50), required=False)
    out["raise_after_check"] = o.get("raise_after_check", boolean, default=True)
    out["minimum_bet_increase"] = _minimum_bet_increase(o)
    out["kill"] = _kill(o, game)
    out["odd_chip_recipient"], out["odd_chip_recipient_low"] = _odd_chip(o, game)
    out["disclose_mucked_hands"] = o.get("disclose_mucked_hands", boolean, default=False)
    out["rake"] = _rake(o, out["chip_unit_cents"])
    out["bad_beat"] = _bad_beat(o, game)
    out["high_hand"] = _high_hand(o, game)
    waitlist = _waitlist(o)
    if waitlist is not None:
        out["waitlist"] = waitlist
    procedures = o.get("irregularity_procedures", prose(MAX_PROCEDURES_CHARS), required=False)
    if procedures is not None:  # absent otherwise (the version's options are as before)
        out["irregularity_procedures"] = procedures
    _whole_chips(o, out)
    return out


# --- limits and forced bets -------------------------------------------------------------

def _limits(o: OptionReader, structure: str, game: TableGame) -> dict[str, Any]:
    """637a.8(k): the minimum and maximum bets in effect; fixed limit posts the small and
    the big bet, pot and no limit the smallest opening bet (for blind games the big blind
    unless stated)."""
    out: dict[str, Any] = {}
    if structure == "fixed-limit":
        out["small_bet_cents"] = o.get("small_bet_cents", cents)
        out["big_bet_cents"] = o.get("big_bet_cents", cents)
        if out["big_bet_cents"] < out["small_bet_cents"]:
            raise RulesOptionError("the big bet is below the small bet",
                                   code="table_limits_inverted", field=o.field("big_bet_cents"))
        o.refuse("minimum_bet_cents", "fixed limit posts the small and the big bet")
    else:
        o.refuse("small_bet_cents", f"{structure} has no fixed small bet")
        o.refuse("big_bet_cents", f"{structure} has no fixed big bet")
        out["minimum_bet_cents"] = o.get("minimum_bet_cents", cents,
                                         required=game.forced_bet)
    return out


def _opening_bet(out: dict[str, Any]) -> int:
    if out["structure"] == "fixed-limit":
        return out["small_bet_cents"]
    return out.get("minimum_bet_cents") or max(out.get("blinds_cents") or [0])


def _blinds(o: OptionReader, game: TableGame) -> list[int]:
    """637a.11(d), 637a.13(e): the first Blind Bet and any additional ones, in order."""
    raw = o.get("blinds_cents", listed)
    if not raw:
        raise RulesOptionError(f"{game.name} needs at least one Blind Bet",
                               code="option_required", field=o.field("blinds_cents"))
    if len(raw) > 3:
        raise RulesOptionError("at most three Blind Bets", code="option_out_of_range",
                               field=o.field("blinds_cents"))
    return [cents(v, f"{o.field('blinds_cents')}[{i}]") for i, v in enumerate(raw)]


def _ante_poster(o: OptionReader, game: TableGame, ante: int) -> str:
    """637a.10(b)-637a.21(b): how the Ante is placed. A big-blind or button ante is one
    ante for the table; stud has neither, so every player posts there."""
    poster = o.get("ante_posted_by", choice(*ANTE_POSTERS), default="each-player")
    if poster != "each-player":
        if game.forced_bet:
            raise RulesOptionError(f"{game.name} has no blinds or button to post the ante",
                                   code="option_not_allowed", field=o.field("ante_posted_by"))
        if not ante:
            raise RulesOptionError("a table ante needs ante_cents",
                                   code="option_required", field=o.field("ante_cents"))
    return poster


def _straddle(o: OptionReader, game: TableGame, out: dict[str, Any]
              ) -> dict[str, Any] | None:
    """637a.11(e): at most one Straddle Bet, amount and rules in the submission."""
    if not game.straddle:
        sub = o.raw.get("straddle")
        if isinstance(sub, dict) and sub.get("offered") is False:
            o.used.add("straddle")
        else:
            o.refuse("straddle", f"{game.name} has no Straddle Bet")
        return None
    sub = nested(o, "straddle", required=False)
    if sub is None:
        return {"offered": False, "amount_cents": None, "rules": None}
    if sub.get("offered", boolean):
        amount = sub.get("amount_cents", cents)
        if amount <= max(out["blinds_cents"]):
            raise RulesOptionError("the Straddle Bet must be more than the largest blind",
                                   code="option_out_of_range", field=sub.field("amount_cents"))
        result = {"offered": True, "amount_cents": amount, "rules": sub.get("rules", text)}
    else:
        sub.refuse("amount_cents", "the Straddle Bet is not offered")
        sub.refuse("rules", "the Straddle Bet is not offered")
        result = {"offered": False, "amount_cents": None, "rules": None}
    sub.done()
    return result


def _minimum_bet_increase(o: OptionReader) -> dict[str, Any]:
    """637a.8(k): how far the minimum bet may be raised by agreement, and how the dealer
    establishes that every player agreed."""
    sub = nested(o, "minimum_bet_increase", required=False)
    if sub is None:
        return {"maximum_increase_cents": 0, "agreement_method": None}
    out = {"maximum_increase_cents": sub.get("maximum_increase_cents", cents0)}
    out["agreement_method"] = sub.get("agreement_method", text,
                                      required=out["maximum_increase_cents"] > 0)
    sub.done()
    return out


def _kill(o: OptionReader, game: TableGame) -> dict[str, Any]:
    """637a.12(n), 637a.19(l)(3), 637a.20(b), 637a.21(b): Kill or Half-kill and the
    qualifying pot. The catalogue's ``kill`` flag is the one answer to which games may."""
    sub = nested(o, "kill", required=False)
    if sub is None:
        return {"option": "none", "qualifying_pot_cents": None}
    option = sub.get("option", choice("none", "kill", "half-kill"))
    if option != "none" and not game.kill:
        raise RulesOptionError(f"{game.name} may not use a Kill or Half-kill option",
                               code="option_not_allowed", field=sub.field("option"))
    pot = sub.get("qualifying_pot_cents", cents) if option != "none" else None
    if option == "none":
        sub.refuse("qualifying_pot_cents", "no Kill option is used")
    sub.done()
    return {"option": option, "qualifying_pot_cents": pot}


def _odd_chip(o: OptionReader, game: TableGame) -> tuple[str | None, str | None]:
    """Who gets the excess of a split share where the chapter lets the submission say
    (637a.11(k), 637a.12(k)(2)(ii)-(iii), 637a.19(k)(2)(ii)-(iii), 637a.20(k),
    637a.21(k)(5)) or says nothing of ties (the catalogue's ``odd_chip_rule``): the high
    (or whole-pot) share and, in a split game, the low share, each set on its own. None:
    the rule by suit applies. Where the chapter fixes it by suit (637a.10(i)(3)(ii)-(iii)),
    naming the suit is the chapter's rule again; naming anyone else is refused."""
    if game.odd_chip is OddChip.BY_SUIT:
        for key in ("odd_chip_recipient", "odd_chip_recipient_low"):
            named = o.get(key, choice(*ODD_CHIP_RECIPIENTS), required=False)
            if named not in (None, BY_SUIT_RECIPIENT):
                raise RulesOptionError(
                    f"{o.field(key)} is not allowed: {game.name}'s odd chip goes by suit "
                    f"({game.odd_chip_rule})", code="odd_chip_fixed_by_chapter",
                    field=o.field(key))
        return None, None
    required = game.odd_chip is OddChip.REQUIRED
    high = o.get("odd_chip_recipient", choice(*ODD_CHIP_RECIPIENTS), required=required)
    if game.id in SPLIT_GAMES:
        low = o.get("odd_chip_recipient_low", choice(*ODD_CHIP_RECIPIENTS),
                    required=required)
    else:
        o.refuse("odd_chip_recipient_low", f"{game.name} has no low share")
        low = None
    return high, low


# --- rake (637a.17) ---------------------------------------------------------------------

def _rake(o: OptionReader, unit: int) -> dict[str, Any]:
    """637a.17(a)-(b): the types of rake, their method and the maximum per round."""
    sub = nested(o, "rake")
    assert sub is not None
    types = sub.get("types", listed)
    for i, t in enumerate(types):
        choice(*RAKE_TYPES)(t, f"{sub.field('types')}[{i}]")
    if not types or len(set(types)) != len(types):
        raise RulesOptionError("name one or more rake types, each once", code="option_required",
                               field=sub.field("types"))
    if "percentage" in types and "incremental" in types:
        raise RulesOptionError("a pot is raked by a percentage or by levels, not both",
                               code="option_not_allowed", field=sub.field("types"))
    out: dict[str, Any] = {"types": sorted(types)}
    out["methodology"] = sub.get("methodology", text, required=False)
    if "percentage" in types:
        out["percentage_bp"] = sub.get("percentage_bp", whole(1, MAX_RAKE_BP,
                                                              code="rake_percentage_too_high"))
    else:
        sub.refuse("percentage_bp", "no percentage rake is taken")
    if "percentage" in types or "incremental" in types:
        out["collection"] = sub.get("collection", choice("as-play-progresses", "end-of-round"))
        out["maximum_per_round_cents"] = sub.get("maximum_per_round_cents", cents)
        out["minimum_pot_cents"] = sub.get("minimum_pot_cents", cents0, default=0)
        out["spread_over_pots"] = sub.get("spread_over_pots", choice(*RAKE_SPREADS),
                                          default="main-pot-first")
    else:
        for key in ("collection", "minimum_pot_cents", "spread_over_pots"):
            sub.refuse(key, "no rake is taken from the pot")
        out["maximum_per_round_cents"] = sub.get("maximum_per_round_cents", cents,
                                                 required=False)
    if "incremental" in types:
        out["incremental_levels"] = _incremental_levels(sub, out["maximum_per_round_cents"])
    else:
        sub.refuse("incremental_levels", "no incremental rake is taken")
    if "time-charge" in types:
        out["time_charge"] = _time_charge(sub, unit)
    else:
        sub.refuse("time_charge", "no time charge is taken")
    sub.done()
    return out


def _incremental_levels(sub: OptionReader, maximum: int) -> list[dict[str, int]]:
    """637a.17(b)(2): rake taken as predetermined pot levels are reached. Each level's
    ``rake_cents`` is added when the pot reaches it (levels are increments, never totals)."""
    field = sub.field("incremental_levels")
    raw = sub.get("incremental_levels", listed)
    if not raw:
        raise RulesOptionError("an incremental rake needs at least one level",
                               code="option_required", field=field)
    levels, last_pot, total = [], 0, 0
    for i, item in enumerate(raw):
        lvl = OptionReader(item, f"{field}[{i}]")
        pot = lvl.get("pot_at_least_cents", cents)
        rake = lvl.get("rake_cents", cents)
        lvl.done()
        if pot <= last_pot:
            raise RulesOptionError("levels must rise", code="levels_not_increasing",
                                   field=lvl.field("pot_at_least_cents"))
        if rake > pot:
            raise RulesOptionError("a level may not take more than the pot holds",
                                   code="option_out_of_range", field=lvl.field("rake_cents"))
        total += rake
        last_pot = pot
        levels.append({"pot_at_least_cents": pot, "rake_cents": rake})
    if total > maximum:
        raise RulesOptionError("the levels add up to more than the maximum rake per round",
                               code="rake_above_maximum", field=field)
    return levels


def _time_charge(sub: OptionReader, unit: int) -> dict[str, Any]:
    """637a.17(b)(3)(i)-(iii): per player or per table, an hourly fee, assessed every 20
    or 30 minutes; each assessment is whole chips."""
    tc = nested(sub, "time_charge")
    assert tc is not None
    out = {"basis": tc.get("basis", choice("per-player", "per-table")),
           "hourly_cents": tc.get("hourly_cents", cents),
           "assessed_every_minutes": tc.get("assessed_every_minutes", one_of(20, 30))}
    tc.done()
    per_period = out["hourly_cents"] * out["assessed_every_minutes"]
    if per_period % 60 or (per_period // 60) % unit:
        raise RulesOptionError(
            f"the hourly fee must divide into whole ${unit / 100:.2f} chips every "
            f"{out['assessed_every_minutes']} minutes", code="not_whole_chips",
            field=tc.field("hourly_cents"))
    return out


# --- jackpot contributions (637a.15, 637a.16) --------------------------------------------

def _contribution(sub: OptionReader) -> dict[str, Any]:
    """637a.15(b)(1), 637a.16(b)(2): the maximum taken from a pot and how it is worked out."""
    c = nested(sub, "contribution")
    assert c is not None
    method = c.get("method", choice("percentage", "fixed"))
    out: dict[str, Any] = {"method": method}
    if method == "percentage":
        out["percentage_bp"] = c.get("percentage_bp", whole(1, 10_000))
        c.refuse("amount_cents", "a percentage contribution has no fixed amount")
    else:
        out["amount_cents"] = c.get("amount_cents", cents)
        c.refuse("percentage_bp", "a fixed contribution has no percentage")
    c.done()
    return out


def _fund(sub: OptionReader, default: str) -> str:
    """The fund the contributions go to: several tables and games may feed one fund."""
    name = sub.get("fund", text, default=default)
    if len(name) > 60 or not all(ch.isalnum() or ch in "-_" for ch in name):
        raise RulesOptionError("a fund is named by up to 60 letters, digits, - and _",
                               code="invalid_option_type", field=sub.field("fund"))
    return name


def _bad_beat(o: OptionReader, game: TableGame) -> dict[str, Any] | None:
    """637a.15(b): maximum contribution and its method, minimum pot, qualifying hands and
    payouts."""
    sub = nested(o, "bad_beat", required=False)
    if sub is None:
        return None
    out = {"fund": _fund(sub, "bad-beat"), "contribution": _contribution(sub),
           "maximum_per_pot_cents": sub.get("maximum_per_pot_cents", cents),
           "minimum_pot_cents": sub.get("minimum_pot_cents", cents0)}
    q = nested(sub, "qualifying_hand")
    assert q is not None
    out["qualifying_hand"] = {
        "losing_hand_at_least": q.get("losing_hand_at_least", choice(*HAND_CATEGORIES)),
        "rank_at_least": q.get("rank_at_least", choice(*RANKS), required=False),
        "both_hole_cards_must_play": q.get("both_hole_cards_must_play", boolean,
                                           default=False),
        "minimum_players_dealt": q.get("minimum_players_dealt", whole(2, game.max_positions),
                                       default=2),
    }
    q.done()
    shares = nested(sub, "payout_shares_bp")
    assert shares is not None
    out["payout_shares_bp"] = {k: shares.get(k, whole(0, 10_000), default=0)
                               for k in ("losing_hand", "winning_hand", "table_share")}
    shares.done()
    if sum(out["payout_shares_bp"].values()) != 10_000:
        raise RulesOptionError("the payout shares must add up to 100 % (10000 basis points)",
                               code="shares_not_whole", field=sub.field("payout_shares_bp"))
    sub.done()
    return out


def _high_hand(o: OptionReader, game: TableGame) -> dict[str, Any] | None:
    """637a.16(b)(1)-(7) and (i): the posted High Hand Jackpot rules."""
    sub = nested(o, "high_hand", required=False)
    if sub is None:
        return None
    out = {
        "fund": _fund(sub, "high-hand"),
        "qualifying_period_minutes": sub.get("qualifying_period_minutes",
                                             whole(15, 7 * 24 * 60)),
        "collection_period": sub.get("collection_period", text),
        "contribution": _contribution(sub),
        "maximum_per_pot_cents": sub.get("maximum_per_pot_cents", cents),
        "minimum_pot_cents": sub.get("minimum_pot_cents", cents0),
        "minimum_players_dealt": sub.get("minimum_players_dealt", whole(2, game.max_positions)),
        "tie_division": sub.get("tie_division", choice("split-equally", "first-made")),
        "collection_time_limit_hours": sub.get("collection_time_limit_hours",
                                               whole(1, 24 * 366)),
        "uncollected_procedure": sub.get("uncollected_procedure", text),
    }
    # 637a.16(b)(7): players must present valid identification; not a choice.
    sub.used.add("identification_required")
    if sub.raw.get("identification_required") is False:
        raise RulesOptionError("637a.16(b)(7) requires valid identification",
                               code="option_not_allowed",
                               field=sub.field("identification_required"))
    out["identification_required"] = True
    sub.done()
    return out


# --- the poker floor's list (issue 24) ----------------------------------------------------

#: the list's procedure where the submission leaves a part out (the poker floor's
#: DEFAULT_LIST_RULES are these)
WAITLIST_DEFAULTS = {"call_minutes": 5, "move_down_places": 3, "missed_calls_allowed": 2}


def _waitlist(o: OptionReader) -> dict[str, int] | None:
    """The posted procedure of the game's list: the minutes a called player has to take
    the seat, the places a player who does not come is moved down, and the miss at which
    the player is taken off the list. None when the submission posts none (the floor's
    defaults apply); absent from the canonical options then, so a hand's recorded options
    are as before."""
    sub = nested(o, "waitlist", required=False)
    if sub is None:
        return None
    d = WAITLIST_DEFAULTS
    out = {"call_minutes": sub.get("call_minutes", whole(1, 60), default=d["call_minutes"]),
           "move_down_places": sub.get("move_down_places", whole(0, 50),
                                       default=d["move_down_places"]),
           "missed_calls_allowed": sub.get("missed_calls_allowed", whole(1, 10),
                                           default=d["missed_calls_allowed"])}
    sub.done()
    return out


# --- whole chips ------------------------------------------------------------------------

def _whole_chips(o: OptionReader, out: dict[str, Any]) -> None:
    """Every posted amount is whole chips of the table's smallest denomination."""
    unit = out["chip_unit_cents"]
    amounts = [(k, out.get(k)) for k in (
        "small_bet_cents", "big_bet_cents", "minimum_bet_cents", "ante_cents",
        "forced_bet_cents", "buy_in_minimum_cents", "buy_in_maximum_cents")]
    amounts += [(f"blinds_cents[{i}]", b) for i, b in enumerate(out.get("blinds_cents") or [])]
    if out["straddle"] and out["straddle"]["offered"]:
        amounts.append(("straddle.amount_cents", out["straddle"]["amount_cents"]))
    amounts.append(("minimum_bet_increase.maximum_increase_cents",
                    out["minimum_bet_increase"]["maximum_increase_cents"]))
    rake = out["rake"]
    amounts.append(("rake.maximum_per_round_cents", rake.get("maximum_per_round_cents")))
    amounts += [(f"rake.incremental_levels[{i}].rake_cents", lv["rake_cents"])
                for i, lv in enumerate(rake.get("incremental_levels") or [])]
    for fund in ("bad_beat", "high_hand"):
        if out[fund]:
            amounts.append((f"{fund}.maximum_per_pot_cents", out[fund]["maximum_per_pot_cents"]))
            amounts.append((f"{fund}.contribution.amount_cents",
                            out[fund]["contribution"].get("amount_cents")))
    for key, value in amounts:
        if value is not None and value % unit:
            raise RulesOptionError(f"{key} is not a whole number of ${unit / 100:.2f} chips",
                                   code="not_whole_chips", field=o.field(key))


def example_poker(game: TableGame) -> dict[str, Any]:
    """A valid, typical poker Rules Submission (the demo's and the API docs')."""
    raw: dict[str, Any] = {
        "structure": "fixed-limit", "small_bet_cents": 400, "big_bet_cents": 800,
        "table_minimum_cents": 400, "table_maximum_cents": 800, "chip_unit_cents": 100,
        "buy_in_minimum_cents": 4000, "buy_in_maximum_cents": 40000,
        "max_raises_per_round": 4,
        "rake": {"types": ["percentage"], "percentage_bp": 1000,
                 "collection": "end-of-round", "maximum_per_round_cents": 500}}
    if game.forced_bet:
        raw.update(ante_cents=100, forced_bet_cents=200)
    else:
        raw["blinds_cents"] = [200, 400]
    if game.odd_chip is OddChip.REQUIRED:
        raw["odd_chip_recipient"] = "first-left-of-button"
        if game.id in SPLIT_GAMES:
            raw["odd_chip_recipient_low"] = "first-left-of-button"
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
    return raw
