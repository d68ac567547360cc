"""The one poker Rules Submission schema (poker_room.domain.rules_schema): what tables
validates and what the engine deals under are the same options (no database)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from poker_room.domain.rules import ANTE_BIG_BLIND, ODD_CHIP_POSITION, ODD_CHIP_SUIT, TableRules
from tables.domain.rules_options import RulesOptionError, example_options, validate_options


def _with(game: str, **changes: Any) -> dict[str, Any]:
    options = copy.deepcopy(example_options(game))
    options.update(changes)
    return options


def _refused(game: str, **changes: Any) -> RulesOptionError:
    with pytest.raises(RulesOptionError) as err:
        validate_options(game, _with(game, **changes))
    return err.value


def test_an_approved_submission_is_what_the_engine_deals_under():
    """§ 637a.8(k), § 637a.17(a): the canonical options of the submission build the
    table's rules and are what a hand records."""
    options = example_options("stud-high")
    rules = TableRules.from_options("stud-high", options)
    assert (rules.bring_in_cents, rules.ante_cents, rules.small_bet_cents) == (200, 100, 400)
    assert rules.to_dict() == {"game": "stud-high", **options}


def test_odd_chip_of_the_high_and_the_low_share_are_set_apart():
    """§ 637a.12(k)(2)(ii)-(iii), § 637a.19(k)(2)(ii)-(iii): the high share's excess by
    suit or to the player named, and the low share's on its own."""
    options = validate_options("omaha-hilo8", _with(
        "omaha-hilo8", odd_chip_recipient="highest-card-by-suit",
        odd_chip_recipient_low="first-left-of-button"))
    rules = TableRules.from_options("omaha-hilo8", options)
    assert (rules.odd_chip, rules.odd_chip_low) == (ODD_CHIP_SUIT, ODD_CHIP_POSITION)
    err = _refused("holdem", odd_chip_recipient_low="first-left-of-button")
    assert (err.code, err.field) == ("option_not_allowed", "options.odd_chip_recipient_low")


def test_amounts_are_whole_chips_of_at_most_a_dollar():
    """§ 637a.11(k), § 637a.12(k)(2)(i): the excess of a split pot may not exceed $1, so the
    smallest chip is at most $1 and every posted amount is whole chips of it."""
    err = _refused("holdem", blinds_cents=[150, 400])
    assert (err.code, err.field) == ("not_whole_chips", "options.blinds_cents[0]")
    err = _refused("holdem", chip_unit_cents=500)
    assert (err.code, err.field) == ("option_out_of_range", "options.chip_unit_cents")
    assert validate_options("holdem", _with("holdem", chip_unit_cents=50,
                                            blinds_cents=[150, 400]))["blinds_cents"] == [150, 400]


def test_ante_placed_as_the_submission_governs():
    """§ 637a.11(b), § 637a.10(b): the rules governing the placement of an Ante: each
    player, or one ante for the table by the big blind or the button; stud has neither."""
    options = validate_options("holdem", _with("holdem", ante_cents=400,
                                               ante_posted_by="big-blind"))
    assert TableRules.from_options("holdem", options).ante_posted_by == ANTE_BIG_BLIND
    err = _refused("stud-high", ante_posted_by="button")
    assert (err.code, err.field) == ("option_not_allowed", "options.ante_posted_by")
    err = _refused("holdem", ante_posted_by="button", ante_cents=0)
    assert err.code == "option_required"


def test_kill_only_where_the_registry_offers_it():
    """§ 637a.12(n), § 637a.19(l)(3): Kill in the high-low Omaha games, not Five-card Omaha
    High; one registry answers for tables and the engine."""
    kill = {"option": "half-kill", "qualifying_pot_cents": 4000}
    assert validate_options("five-card-omaha-hilo8", _with("five-card-omaha-hilo8",
                                                           kill=kill))["kill"] == kill
    err = _refused("five-card-omaha-high", kill=kill)
    assert (err.code, err.field) == ("option_not_allowed", "options.kill.option")


def test_buy_in_limits_and_rake_types():
    """§ 637a.8(b): table stakes bought in within the posted limits; § 637a.17(b): a pot is
    raked by a percentage or by levels."""
    err = _refused("holdem", buy_in_minimum_cents=50_000, buy_in_maximum_cents=10_000)
    assert (err.code, err.field) == ("table_limits_inverted", "options.buy_in_maximum_cents")
    err = _refused("holdem", rake={"types": ["percentage", "incremental"], "percentage_bp": 500,
                                   "collection": "end-of-round", "maximum_per_round_cents": 500})
    assert (err.code, err.field) == ("option_not_allowed", "options.rake.types")
