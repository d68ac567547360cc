"""Bad Beat and High Hand Jackpot contributions taken from a pot (637a.15(b)-(c),
637a.16(b)-(c)).

A contribution is determined after the rake has been extracted (637a.15(c), 637a.16(c),
637a.7(e)(6)(iii)-(iv)), by the posted rules: the minimum pot before anything is taken and
the maximum taken from one pot. The engine emits the amounts; the funds are kept later.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


BAD_BEAT, HIGH_HAND = "bad_beat", "high_hand"


@dataclass(frozen=True)
class JackpotRule:
    """One fund's posted contribution rule: a fixed amount or ``percent_bp`` of the pot
    after the rake, at most ``max_cents``, only from pots of at least ``min_pot_cents``
    (compared with the pot after the rake, the amount the contribution is taken from)."""

    fund: str
    max_cents: int
    #: the fund the Rules Submission names (several tables and games may feed one)
    fund_name: str = ""
    min_pot_cents: int = 0
    fixed_cents: int | None = None
    percent_bp: int | None = None
    #: the table's smallest chip: a contribution goes into the box in whole chips
    unit_cents: int = 1

    @classmethod
    def from_options(cls, kind: str, o: Mapping[str, Any], unit: int) -> JackpotRule:
        """The contribution rule of a Rules Submission's canonical ``bad_beat`` or
        ``high_hand`` options; ``unit`` is the table's smallest chip."""
        c = o["contribution"]
        return cls(fund=kind, fund_name=o["fund"], max_cents=o["maximum_per_pot_cents"],
                   min_pot_cents=o["minimum_pot_cents"], fixed_cents=c.get("amount_cents"),
                   percent_bp=c.get("percentage_bp"), unit_cents=unit)


def contribution(rule: JackpotRule, pot_after_rake: int) -> int:
    if pot_after_rake < max(rule.min_pot_cents, 1):
        return 0
    if rule.fixed_cents is not None:
        amount = rule.fixed_cents
    else:
        amount = pot_after_rake * rule.percent_bp // 10_000
    amount = min(amount, rule.max_cents, pot_after_rake)
    return amount - amount % rule.unit_cents


def contributions(rules: Sequence[JackpotRule], pot_after_rake: int) -> list[tuple[str, int]]:
    """Each fund's contribution, in the posted order; together never more than the pot."""
    out: list[tuple[str, int]] = []
    left = pot_after_rake
    for rule in rules:
        amount = min(contribution(rule, pot_after_rake), left)
        left -= amount
        out.append((rule.fund, amount))
    return out
