"""Refusals a person reads state amounts in dollars (issue 22, Bad input: "every refusal
message that reaches a person states amounts in dollars and times in the property's
zone"). The fuzz and the example requests check every ``detail`` they meet
(tests/casino/test_answer_checks.py); these are the refusals found in cents, each reached
here and held to the same check, with its sentence worked by hand. A refusal's message
is its problem's ``detail`` as it stands (casino/api/problems.py).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from finance.domain import table_day as td
from tables.domain.rules_options import RulesOptionError, example_options, validate_options
from tests.casino.test_answer_checks import refusal_text_problems

ZONES = {"EST", "EDT"}


def _refusal(error: type[Exception], call: Callable[..., Any], *args: Any,
             **kw: Any) -> str:
    with pytest.raises(error) as caught:
        call(*args, **kw)
    return caught.value.message  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_a_check_facing_a_bet_names_the_bet_in_dollars(api_as: Callable) -> None:
    """637a.8(c), 637a.1 "Check": a player facing a bet may not check. Hold'em at $4/$8
    with blinds $2 and $4, the button at seat 4: seat 1 posts $2, seat 2 $4, and seat 3,
    first to act, faces the big blind, $4.00 (was "a bet of 400"). Sent through the
    dispute calculator, the refusal is the problem's ``detail``."""
    supervisor = api_as("poker_shift_supervisor")
    answer = supervisor.post("/api/v1/poker-settle-script/", {
        "game": "holdem", "options": example_options("holdem"), "button": 4,
        "stacks": {"1": 10_000, "2": 10_000, "3": 10_000, "4": 10_000},
        "commands": [{"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"],
                                                "3": ["Qc", "Jc"], "4": ["7h", "2s"]}},
                     {"type": "act", "seat": 3, "action": "check"}]}, format="json")
    assert answer.status_code == 400, answer.content[:400]
    detail = answer.json()["detail"]
    assert "seat 3 faces a bet of $4.00: fold, call or raise" in detail
    assert refusal_text_problems(detail, ZONES) == []


def test_a_denomination_not_of_the_chips_is_refused_naming_them_in_dollars() -> None:
    """A tray slip lists pieces by denomination (the keys are cents); a key that is no
    chip is refused naming the chips in dollars, each with its key (was "(25, 50, …,
    500000 cents)")."""
    message = _refusal(td.FinanceError, td.denominations, {"300": 1},
                       allowed=td.CHIP_DENOMINATIONS, field="pieces")
    assert message == (
        "pieces: '300' is not a denomination: $0.25 as \"25\", $0.50 as \"50\", "
        "$1.00 as \"100\", $2.50 as \"250\", $5.00 as \"500\", $10.00 as \"1000\", "
        "$25.00 as \"2500\", $100.00 as \"10000\", $500.00 as \"50000\", "
        "$1,000.00 as \"100000\", $5,000.00 as \"500000\"")
    assert refusal_text_problems(message, ZONES) == []


@pytest.mark.parametrize(("pieces", "said"), [
    ({"500": -1}, "pieces: the count of $5.00 pieces is -1; a count is never negative"),
    ({"2500": 1.5}, "pieces: the count of $25.00 pieces is a whole number"),
    ({"500000": 100_001}, "pieces: 100,001 $5,000.00 pieces is more than 100,000"),
])
def test_a_wrong_count_names_its_piece_in_dollars(pieces: dict[str, Any], said: str) -> None:
    """The count of a denomination refused names the piece as a person holds it ($5.00
    pieces), not by its key in cents ("the count of 500")."""
    assert _refusal(td.FinanceError, td.denominations, pieces,
                    allowed=td.CHIP_DENOMINATIONS, field="pieces") == said
    assert refusal_text_problems(said, ZONES) == []


@pytest.mark.parametrize(("amount", "said"), [(0, "$0.00"), (100_000_001, "$1,000,000.01"),
                                              ("12", "'12'")])
def test_a_chip_sale_out_of_range_states_the_range_in_dollars(amount: Any, said: str) -> None:
    """A chip sale is 1 cent to $1,000,000.00 (table_day.MAX_SALE_CENTS); the refusal
    says so in dollars, with what was sent (was "1 to 100,000,000, not 0")."""
    message = _refusal(td.FinanceError, td.chips_sell, td.TableDayState(),
                       amount_cents=amount)
    assert message == ("amount_cents is a whole number of cents, $0.01 to $1,000,000.00, "
                       f"not {said}")
    assert refusal_text_problems(message, ZONES) == []


@pytest.mark.parametrize(("changes", "said"), [
    ({"chip_unit_cents": 500},
     "options.chip_unit_cents must be between $0.01 and $1.00, not $5.00"),
    ({"table_minimum_cents": 0},
     "options.table_minimum_cents must be between $0.01 and $1,000,000,000.00, not $0.00"),
])
def test_a_rules_option_out_of_range_states_the_range_in_dollars(
        changes: dict[str, Any], said: str) -> None:
    """637a.11(k): the smallest chip is at most $1; every posted amount is at least a cent.
    A Rules Submission's options are cents; the refusal states the range in dollars (was
    "between 1 and 100")."""
    options = copy.deepcopy(example_options("holdem"))
    options.update(changes)
    message = _refusal(RulesOptionError, validate_options, "holdem", options)
    assert message == said
    assert refusal_text_problems(message, ZONES) == []
