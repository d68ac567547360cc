"""Rules Submission options: only what the chapter lists is accepted (no database)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tables.domain.catalogue import GAMES, POKER_GAMES
from tables.domain.rules_options import RulesOptionError, example_options, validate_options


def _with(game: str, **changes: Any) -> dict[str, Any]:
    options = copy.deepcopy(example_options(game))
    options.update(changes)
    return options


def _refused(game: str, options: Any) -> RulesOptionError:
    with pytest.raises(RulesOptionError) as err:
        validate_options(game, options)
    return err.value


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_has_a_valid_example(game: str) -> None:
    assert validate_options(game, example_options(game)) == example_options(game)


@pytest.mark.parametrize("letter", list("ABCDEFGH"))
def test_589_instant_paytables_a_to_h_are_accepted(letter: str) -> None:
    """§ 589.12(a): eight instant-payout paytables."""
    assert validate_options("lunar-poker-589", _with("lunar-poker-589", instant_paytable=letter)
                            )["instant_paytable"] == letter


def test_589_instant_paytable_i_is_refused_naming_the_field() -> None:
    err = _refused("lunar-poker-589", _with("lunar-poker-589", instant_paytable="I"))
    assert (err.code, err.field) == ("unknown_paytable", "options.instant_paytable")


def test_671a_has_only_instant_paytables_a_to_c() -> None:
    """§ 671a.12(a): three instant-payout paytables."""
    err = _refused("lunar-poker-671a", _with("lunar-poker-671a", instant_paytable="D"))
    assert err.code == "unknown_paytable"


def test_589_super_wager_is_optional_and_needs_a_paytable_when_offered() -> None:
    """§ 589.7(c)(2) optional Super Wager; § 589.12(b) paytables A-C."""
    off = validate_options("lunar-poker-589", _with("lunar-poker-589", super_wager_offered=False,
                                                    super_paytable=None))
    assert off["super_paytable"] is None
    missing = _refused("lunar-poker-589", _with("lunar-poker-589", super_paytable=None))
    assert (missing.code, missing.field) == ("option_required", "options.super_paytable")
    assert _refused("lunar-poker-589", _with("lunar-poker-589", super_paytable="D")
                    ).code == "unknown_paytable"


def test_589_super_paytable_without_super_wager_is_refused() -> None:
    err = _refused("lunar-poker-589", _with("lunar-poker-589", super_wager_offered=False,
                                            super_paytable="A"))
    assert (err.code, err.field) == ("option_not_allowed", "options.super_paytable")


def test_671a_super_wager_is_required_so_there_is_no_option_to_turn_it_off() -> None:
    """§ 671a.7(c)(2): the player shall place a Super Wager; § 671a.7(c)(3): Super Wagers on
    other hands are the certificate holder's option."""
    err = _refused("lunar-poker-671a", _with("lunar-poker-671a", super_wager_offered=False))
    assert (err.code, err.field) == ("unknown_option", "options.super_wager_offered")
    assert validate_options("lunar-poker-671a", _with(
        "lunar-poker-671a", super_on_other_hands_offered=False))["super_on_other_hands_offered"] \
        is False


def test_hilo_ante_bonus_paytables_a_to_d_only() -> None:
    """§ 579.12(b): Ante Bonus paytables A-D."""
    assert _refused("five-card-hi-lo", _with("five-card-hi-lo", ante_bonus_paytable="E")
                    ).field == "options.ante_bonus_paytable"


def test_hilo_poker_bonus_paytable_a_or_b_when_offered() -> None:
    """§ 579.7(e)(2), § 579.6(b)(9): pair of 6s or 7s or better depending on the paytable."""
    assert _refused("five-card-hi-lo", _with("five-card-hi-lo", poker_bonus_paytable="C")
                    ).code == "unknown_paytable"
    off = validate_options("five-card-hi-lo", _with("five-card-hi-lo", poker_bonus_offered=False,
                                                    poker_bonus_paytable=None))
    assert off["poker_bonus_paytable"] is None


def test_hilo_tie_wager_and_adjacent_areas_are_yes_or_no() -> None:
    """§ 579.7(e)(1) Tie Wager; § 579.7(f) two adjacent betting areas."""
    err = _refused("five-card-hi-lo", _with("five-card-hi-lo", tie_wager_offered="yes"))
    assert (err.code, err.field) == ("invalid_option_type", "options.tie_wager_offered")
    assert _refused("five-card-hi-lo", _with("five-card-hi-lo",
                                             adjacent_betting_areas_permitted=None)
                    ).code == "option_required"


def test_table_maximum_below_minimum_is_refused() -> None:
    err = _refused("five-card-hi-lo", _with("five-card-hi-lo", table_minimum_cents=1000,
                                            table_maximum_cents=500))
    assert (err.code, err.field) == ("table_limits_inverted", "options.table_maximum_cents")


def test_unknown_key_is_refused_by_name() -> None:
    err = _refused("holdem", _with("holdem", free_drinks=True))
    assert (err.code, err.field) == ("unknown_option", "options.free_drinks")


def test_options_must_be_an_object() -> None:
    assert _refused("holdem", ["fixed-limit"]).code == "invalid_option_type"


# --- poker --------------------------------------------------------------------------

def _rake(**changes: Any) -> dict[str, Any]:
    rake = {"types": ["percentage"], "percentage_bp": 1000, "collection": "end-of-round",
            "maximum_per_round_cents": 500}
    rake.update(changes)
    return rake


def test_percentage_rake_of_exactly_ten_percent_is_accepted() -> None:
    """§ 637a.17(b)(1): a percentage rake not to exceed 10 %."""
    assert validate_options("holdem", _with("holdem", rake=_rake()))["rake"]["percentage_bp"] == 1000


def test_percentage_rake_over_ten_percent_is_refused() -> None:
    err = _refused("holdem", _with("holdem", rake=_rake(percentage_bp=1001)))
    assert (err.code, err.field) == ("rake_percentage_too_high", "options.rake.percentage_bp")


def test_rake_needs_a_maximum_per_round() -> None:
    """§ 637a.17(a)(3): the maximum permissible rake per round of play is filed."""
    err = _refused("holdem", _with("holdem", rake=_rake(maximum_per_round_cents=None)))
    assert (err.code, err.field) == ("option_required", "options.rake.maximum_per_round_cents")


def test_rake_collection_as_play_progresses_or_at_the_end() -> None:
    """§ 637a.17(b)(1)(i)-(ii)."""
    assert _refused("holdem", _with("holdem", rake=_rake(collection="weekly"))
                    ).field == "options.rake.collection"


def test_incremental_rake_levels_must_rise_and_stay_within_the_maximum() -> None:
    """§ 637a.17(b)(2): incremental rake by predetermined levels; the 10 % cap of
    § 637a.17(b)(1) is for a percentage rake only; § 637a.17(a)(3) the maximum per round."""
    ok = _rake(types=["incremental"], percentage_bp=None, incremental_levels=[
        {"pot_at_least_cents": 1000, "rake_cents": 100},
        {"pot_at_least_cents": 3000, "rake_cents": 100}])
    assert len(validate_options("holdem", _with("holdem", rake=ok))["rake"]["incremental_levels"]) == 2
    falling = copy.deepcopy(ok)
    falling["incremental_levels"][1]["pot_at_least_cents"] = 500
    assert _refused("holdem", _with("holdem", rake=falling)).code == "levels_not_increasing"
    steep = copy.deepcopy(ok)
    steep["incremental_levels"][0]["rake_cents"] = 200  # 20 % of $10: lawful for levels
    assert validate_options("holdem", _with("holdem", rake=steep))
    greedy = copy.deepcopy(ok)
    greedy["incremental_levels"][1]["rake_cents"] = 401  # 100 + 401 > the $5.00 maximum
    assert _refused("holdem", _with("holdem", rake=greedy)).code == "rake_above_maximum"


def test_rake_types_must_be_named_not_nested() -> None:
    err = _refused("holdem", _with("holdem", rake=_rake(types=[{"x": 1}])))
    assert (err.code, err.field) == ("invalid_choice", "options.rake.types[0]")


def test_time_charge_assessed_every_20_or_30_minutes() -> None:
    """§ 637a.17(b)(3)(i)-(iii): per player or per table, hourly, every 20 or 30 minutes."""
    tc = {"types": ["time-charge"], "time_charge": {"basis": "per-player", "hourly_cents": 600,
                                                    "assessed_every_minutes": 30}}
    assert validate_options("holdem", _with("holdem", rake=tc))["rake"]["time_charge"][
        "assessed_every_minutes"] == 30
    tc["time_charge"]["assessed_every_minutes"] = 15
    err = _refused("holdem", _with("holdem", rake=tc))
    assert err.field == "options.rake.time_charge.assessed_every_minutes"


def test_stud_has_a_forced_bet_not_blinds() -> None:
    """§ 637a.10(d): the Forced Bet amount is in the Rules Submission."""
    err = _refused("stud-high", _with("stud-high", blinds_cents=[100, 200]))
    assert (err.code, err.field) == ("option_not_allowed", "options.blinds_cents")
    assert _refused("stud-high", _with("stud-high", forced_bet_cents=None)
                    ).code == "option_required"
    assert _refused("five-card-stud", _with("five-card-stud", forced_bet_cents=None)
                    ).code == "option_required"  # § 637a.14(d)


def test_holdem_needs_at_least_one_blind() -> None:
    """§ 637a.11(d): the amount and number of all Blind Bets are in the submission."""
    assert _refused("holdem", _with("holdem", blinds_cents=[])).code == "option_required"


def test_straddle_only_where_the_chapter_offers_one() -> None:
    """§ 637a.11(e): one Straddle Bet if offered; Five-card Draw (637a.13) has none."""
    straddle = {"offered": True, "amount_cents": 800, "rules": "left of the big blind only"}
    assert validate_options("holdem", _with("holdem", straddle=straddle))["straddle"]["offered"]
    err = _refused("draw-high", _with("draw-high", straddle=straddle))
    assert (err.code, err.field) == ("option_not_allowed", "options.straddle")
    missing = _refused("holdem", _with("holdem", straddle={"offered": True, "rules": "x"}))
    assert missing.field == "options.straddle.amount_cents"


def test_kill_option_only_in_the_games_that_allow_it() -> None:
    """§ 637a.12(n): Omaha Hi-Lo 8 may use a Kill or Half-kill with a qualifying pot."""
    kill = {"option": "half-kill", "qualifying_pot_cents": 30000}
    assert validate_options("omaha-hilo8", _with("omaha-hilo8", kill=kill))["kill"] == kill
    err = _refused("holdem", _with("holdem", kill=kill))
    assert (err.code, err.field) == ("option_not_allowed", "options.kill.option")
    no_pot = _refused("omaha-hilo8", _with("omaha-hilo8", kill={"option": "kill"}))
    assert no_pot.field == "options.kill.qualifying_pot_cents"


def test_maximum_raises_and_raising_after_checking() -> None:
    """§ 637a.8(k) maximum raises; § 637a.8(j) raising after checking unless posted."""
    out = validate_options("holdem", _with("holdem", max_raises_per_round=None))
    assert out["max_raises_per_round"] is None and out["raise_after_check"] is True
    assert _refused("holdem", _with("holdem", max_raises_per_round=0)
                    ).code == "option_out_of_range"


def test_minimum_bet_increase_needs_the_agreement_method() -> None:
    """§ 637a.8(k): how far the minimum may be raised and how agreement is established."""
    err = _refused("holdem", _with("holdem", minimum_bet_increase={
        "maximum_increase_cents": 400}))
    assert err.field == "options.minimum_bet_increase.agreement_method"


def test_odd_chip_recipient_required_at_triple_draw_and_badugi() -> None:
    """§ 637a.20(k), § 637a.21(k)(5): the excess goes to the player the submission names."""
    for game in ("triple-draw-27", "badugi"):
        assert _refused(game, _with(game, odd_chip_recipient=None)).code == "option_required"


def test_odd_chip_fixed_by_suit_in_stud() -> None:
    """§ 637a.10(i)(3)(ii)-(iii): stud hi-lo awards the odd chip by suit; no choice."""
    err = _refused("stud-hilo8", _with("stud-hilo8", odd_chip_recipient="first-left-of-button"))
    assert (err.code, err.field) == ("odd_chip_fixed_by_chapter", "options.odd_chip_recipient")


def test_odd_chip_optional_at_holdem() -> None:
    """§ 637a.11(k): may be given to the player the submission specifies."""
    assert validate_options("holdem", _with("holdem", odd_chip_recipient="highest-card-by-suit")
                            )["odd_chip_recipient"] == "highest-card-by-suit"


def test_disclosure_of_mucked_hands_is_a_choice() -> None:
    """§ 637a.18(e)."""
    assert validate_options("holdem", _with("holdem", disclose_mucked_hands=True)
                            )["disclose_mucked_hands"] is True


def test_bad_beat_rules_are_complete_and_shares_add_up() -> None:
    """§ 637a.15(b)(1)-(3): maximum contribution and method, minimum pot, qualifying hands."""
    bad_beat = copy.deepcopy(example_options("holdem")["bad_beat"])
    bad_beat["payout_shares_bp"]["table_share"] = 2000
    assert _refused("holdem", _with("holdem", bad_beat=bad_beat)).code == "shares_not_whole"
    del bad_beat["maximum_per_pot_cents"]
    assert _refused("holdem", _with("holdem", bad_beat=bad_beat)
                    ).field == "options.bad_beat.maximum_per_pot_cents"


def test_high_hand_rules_cover_every_posted_item() -> None:
    """§ 637a.16(b)(1)-(7) and (i)."""
    high = copy.deepcopy(example_options("holdem")["high_hand"])
    for key in ("qualifying_period_minutes", "maximum_per_pot_cents", "minimum_pot_cents",
                "minimum_players_dealt", "tie_division", "collection_time_limit_hours",
                "uncollected_procedure"):
        broken = {k: v for k, v in high.items() if k != key}
        assert _refused("holdem", _with("holdem", high_hand=broken)
                        ).field == f"options.high_hand.{key}"
    err = _refused("holdem", _with("holdem", high_hand={**high, "identification_required": False}))
    assert err.code == "option_not_allowed"


@pytest.mark.parametrize("game", POKER_GAMES)
def test_every_poker_game_needs_rake_rules(game: str) -> None:
    """§ 637a.17(a): every Rules Submission says how the rake is taken."""
    options = example_options(game)
    del options["rake"]
    assert _refused(game, options).field == "options.rake"
