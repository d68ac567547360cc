"""Bad input of any shape is refused with a coded RoundInputError (HTTP 400), never a
TypeError, KeyError or AttributeError."""

from __future__ import annotations

from typing import Any

import pytest

from tables.domain.banked import execute, settle_script
from tables.domain.banked.errors import RoundInputError

from .drive import OPTIONS


@pytest.mark.parametrize("command", [
    None, [], "deal", {"type": []}, {"type": {}}, {"type": 5},
])
def test_a_command_of_the_wrong_shape_is_a_coded_input_error(command: Any) -> None:
    with pytest.raises(RoundInputError) as err:
        execute(None, command)
    assert err.value.code in ("invalid_command", "unknown_command")


@pytest.mark.parametrize(("type_", "fields", "code"), [
    ("withdraw_wager", {"position": 1, "wager": []}, "no_such_wager"),
    ("withdraw_wager", {"position": 1, "wager": {}}, "no_such_wager"),
    ("report_irregularity", {"kind": []}, "unknown_irregularity"),
    ("report_irregularity", {"kind": {"a": 1}}, "unknown_irregularity"),
    ("place_wager", {"position": 10**30, "wager": "ante", "amount": 1000}, "invalid_position"),
    ("place_wager", {"position": True, "wager": "ante", "amount": 1000}, "invalid_position"),
])
def test_odd_field_shapes_are_coded_input_errors(type_: str, fields: dict, code: str) -> None:
    state, _ = execute(None, {"type": "open_round", "game": "lunar-poker-589",
                              "options": OPTIONS["lunar-poker-589"]})
    state, _ = execute(state, {"type": "place_wager", "position": 1, "wager": "ante",
                               "amount": 1000})
    with pytest.raises(RoundInputError) as err:
        execute(state, {"type": type_, **fields})
    assert err.value.code == code


@pytest.mark.parametrize("change", [
    {"irregularities": 5},
    {"positions": [{"position": [1], "wagers": {"ante": 1000}},
                   {"position": [1], "wagers": {"ante": 1000}}]},
    {"positions": [{"position": 1, "wagers": {1: 1000}}]},
    {"positions": [{"position": 1, "wagers": {"ante": 1000}, "decisions": 7}]},
])
def test_a_script_of_the_wrong_shape_is_a_coded_input_error(change: dict) -> None:
    script = {"game": "lunar-poker-589", "options": OPTIONS["lunar-poker-589"],
              "positions": [{"position": 1, "wagers": {"ante": 1000}}],
              "dealer": {"cards": ["Qh", "Js", "4h", "5s", "7d"]}, **change}
    with pytest.raises(RoundInputError):
        settle_script(script)
