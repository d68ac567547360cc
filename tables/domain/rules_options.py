"""The choices a Rules Submission makes, per game, validated against the chapter.

``validate_options(game, options)`` returns the options in canonical form (defaults filled
in) or raises :class:`RulesOptionError` with a stable ``code`` and the dotted ``field``
that is wrong. Only what the chapter lists is accepted: a paytable it does not print, an
option it does not allow for that game, an unknown key.

The banked games' schemas are here. A family whose rules belong to an app above this one
(poker: :mod:`poker_room.domain.rules_schema`) registers its schema with
:func:`schema_register` when that app is ready, so there is one schema per game and
``tables`` never imports the app that owns it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tables.domain.catalogue import Family, TableGame, get_table_game
from tables.domain.options_reader import (
    OptionReader,
    RulesOptionError,
    boolean,
    cents,
    choice,
)

__all__ = ["RulesOptionError", "Schema", "table_limits", "validate_options", "example_options",
           "option_keys",
           "schema_register"]


# --- the table limits every game posts ----------------------------------------------

def table_limits(o: OptionReader) -> dict[str, int]:
    """The table minimum and maximum every game posts (637a.8(k), 589.7, 671a.7, 579.7)."""
    low = o.get("table_minimum_cents", cents)
    high = o.get("table_maximum_cents", cents)
    if high < low:
        raise RulesOptionError("the table maximum is below the table minimum",
                               code="table_limits_inverted", field=o.field("table_maximum_cents"))
    return {"table_minimum_cents": low, "table_maximum_cents": high}


# --- banked games -------------------------------------------------------------------

def _lunar_589(o: OptionReader) -> dict[str, Any]:
    """589.12(a) instant paytables A-H; 589.7(c)(2) optional Super Wager, 589.12(b) A-C."""
    out = table_limits(o)
    out["instant_paytable"] = o.get("instant_paytable", choice(*"ABCDEFGH",
                                                                code="unknown_paytable"))
    out["super_wager_offered"] = o.get("super_wager_offered", boolean)
    if out["super_wager_offered"]:
        out["super_paytable"] = o.get("super_paytable", choice(*"ABC", code="unknown_paytable"))
    else:
        o.refuse("super_paytable", "the Super Wager is not offered")
        out["super_paytable"] = None
    return out


def _lunar_671a(o: OptionReader) -> dict[str, Any]:
    """671a.12(a) instant paytables A-C; 671a.7(c)(2) the Super Wager is required (one
    paytable, 671a.12(b)); 671a.7(c)(3) Super Wagers on other hands if offered."""
    out = table_limits(o)
    out["instant_paytable"] = o.get("instant_paytable", choice(*"ABC", code="unknown_paytable"))
    out["super_on_other_hands_offered"] = o.get("super_on_other_hands_offered", boolean)
    return out


def _hilo(o: OptionReader) -> dict[str, Any]:
    """579.12(b) Ante Bonus A-D; 579.7(e)(1) Tie Wager; 579.7(e)(2) and 579.12(d) Poker
    Bonus A or B; 579.7(f) two adjacent betting areas."""
    out = table_limits(o)
    out["ante_bonus_paytable"] = o.get("ante_bonus_paytable",
                                       choice(*"ABCD", code="unknown_paytable"))
    out["tie_wager_offered"] = o.get("tie_wager_offered", boolean)
    out["poker_bonus_offered"] = o.get("poker_bonus_offered", boolean)
    if out["poker_bonus_offered"]:
        out["poker_bonus_paytable"] = o.get("poker_bonus_paytable",
                                            choice("A", "B", code="unknown_paytable"))
    else:
        o.refuse("poker_bonus_paytable", "the Poker Bonus Wager is not offered")
        out["poker_bonus_paytable"] = None
    out["adjacent_betting_areas_permitted"] = o.get("adjacent_betting_areas_permitted", boolean)
    return out


@dataclass(frozen=True)
class Schema:
    """A family's options: ``validate(reader, game)`` returns the canonical options;
    ``example(game)`` a valid, typical raw set (the demo's and the API docs')."""

    validate: Callable[[OptionReader, TableGame], dict[str, Any]]
    example: Callable[[TableGame], dict[str, Any]]


_SCHEMAS: dict[Family, Schema] = {
    Family.LUNAR_589: Schema(lambda o, g: _lunar_589(o), lambda g: {
        "instant_paytable": "A", "super_wager_offered": True, "super_paytable": "B",
        "table_minimum_cents": 1000, "table_maximum_cents": 50000}),
    Family.LUNAR_671A: Schema(lambda o, g: _lunar_671a(o), lambda g: {
        "instant_paytable": "A", "super_on_other_hands_offered": True,
        "table_minimum_cents": 1000, "table_maximum_cents": 50000}),
    Family.HILO: Schema(lambda o, g: _hilo(o), lambda g: {
        "ante_bonus_paytable": "B", "tie_wager_offered": True, "poker_bonus_offered": True,
        "poker_bonus_paytable": "A", "adjacent_betting_areas_permitted": True,
        "table_minimum_cents": 500, "table_maximum_cents": 50000}),
}


def schema_register(family: Family, schema: Schema) -> None:
    """Register the schema of ``family`` (called by the owning app's ``ready()``; a second
    registration replaces the first, so reloading an app is harmless)."""
    _SCHEMAS[family] = schema


def _schema(game: TableGame) -> Schema:
    try:
        return _SCHEMAS[game.family]
    except KeyError:  # pragma: no cover - the owning app is not installed
        raise RulesOptionError(f"no Rules Submission schema is installed for {game.name}",
                               code="schema_not_installed", field="game") from None


def validate_options(game_id: str, options: Any) -> dict[str, Any]:
    """The options of a Rules Submission for ``game_id``, checked and in canonical form."""
    game = get_table_game(game_id)
    o = OptionReader(options, "options")
    out = _schema(game).validate(o, game)
    o.done()
    return out


def option_keys(game_id: str) -> Sequence[str]:
    """The top-level keys a canonical options object of this game has."""
    return tuple(example_options(game_id))


def example_options(game_id: str) -> dict[str, Any]:
    """A valid, typical set of options (used by the demo and the API docs)."""
    game = get_table_game(game_id)
    return validate_options(game_id, _schema(game).example(game))
