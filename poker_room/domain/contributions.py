"""Bad Beat and High Hand Jackpot contributions taken from a pot (637a.15(b)-(c),
637a.16(b)-(c)).

A contribution is determined after the rake has been extracted (637a.15(c), 637a.16(c),
637a.7(e)(6)(iii)-(iv)), by the posted rules: the minimum pot before anything is taken and
the maximum taken from one pot. The engine emits the amounts; the funds are kept later.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from poker_room.domain import _fields as F
from poker_room.domain.errors import InvalidRules

BAD_BEAT, HIGH_HAND = "bad_beat", "high_hand"


@dataclass(frozen=True)
class JackpotRule:
    """One fund's posted contribution rule: a fixed amount or ``percent_bp`` of the pot
    after the rake, at most ``max_cents``, only from pots of at least ``min_pot_cents``
    (compared with the pot after the rake, the amount the contribution is taken from)."""

    fund: str
    max_cents: int
    min_pot_cents: int = 0
    fixed_cents: int | None = None
    percent_bp: int | None = None

    @classmethod
    def from_dict(cls, d: Any, i: int = 0) -> JackpotRule:
        where = f"jackpots[{i}]"
        p = where + "."
        d = F.check_keys(d, {"fund", "max_cents", "min_pot_cents", "fixed_cents",
                             "percent_bp"}, where)
        rule = cls(fund=F.choice(d, "fund", (BAD_BEAT, HIGH_HAND), prefix=p),
                   max_cents=F.integer(d, "max_cents", low=1, prefix=p),
                   min_pot_cents=F.integer(d, "min_pot_cents", default=0, prefix=p),
                   fixed_cents=F.integer(d, "fixed_cents", default=None, low=1, prefix=p),
                   percent_bp=F.integer(d, "percent_bp", default=None, low=1, high=10_000,
                                        prefix=p))
        if (rule.fixed_cents is None) == (rule.percent_bp is None):
            raise InvalidRules(f"{where} needs exactly one of fixed_cents and percent_bp",
                               field=p + "fixed_cents")
        return rule

    def to_dict(self) -> dict[str, Any]:
        return {"fund": self.fund, "max_cents": self.max_cents,
                "min_pot_cents": self.min_pot_cents, "fixed_cents": self.fixed_cents,
                "percent_bp": self.percent_bp}


def contribution(rule: JackpotRule, pot_after_rake: int) -> int:
    if pot_after_rake < max(rule.min_pot_cents, 1):
        return 0
    if rule.fixed_cents is not None:
        amount = rule.fixed_cents
    else:
        amount = pot_after_rake * rule.percent_bp // 10_000
    return min(amount, rule.max_cents, pot_after_rake)


def contributions(rules: Sequence[JackpotRule], pot_after_rake: int) -> list[tuple[str, int]]:
    """Each fund's contribution, in the posted order; together never more than the pot."""
    out: list[tuple[str, int]] = []
    left = pot_after_rake
    for rule in rules:
        amount = min(contribution(rule, pot_after_rake), left)
        left -= amount
        out.append((rule.fund, amount))
    return out
