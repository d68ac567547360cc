"""Rake arithmetic (637a.17): the percentage rake, the incremental rake, time charges,
and the split of a hand's rake over the main pot and the side pots.

All amounts are integer cents and percentages are basis points (1000 bp = 10 %), so no
float ever touches money.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from poker_room.domain import _fields as F
from poker_room.domain.errors import InvalidRules

#: 637a.17(b)(1): a percentage rake may not exceed 10 %.
MAX_PERCENT_BP = 1000
PERCENTAGE, INCREMENTAL = "percentage", "incremental"
#: 637a.17(b)(1)(i)/(2)(i) "as play progresses" vs (b)(1)(ii)/(2)(ii) at the end.
PROGRESSIVE, AT_END = "progressive", "end"


@dataclass(frozen=True)
class PotRake:
    """How much of a pot the house takes (637a.17(a)-(b)).

    ``percentage``: ``percent_bp`` of the pot, rounded down to ``unit_cents`` (the
    smallest chip the dealer drops). ``incremental``: ``levels`` of (pot reached, total
    rake), the rake of the highest level reached. Both are capped per round of play by
    ``cap_cents`` (637a.17(a)(3)) and skip pots under ``min_pot_cents``.
    """

    kind: str = PERCENTAGE
    percent_bp: int = 0
    levels: tuple[tuple[int, int], ...] = ()
    cap_cents: int | None = None
    unit_cents: int = 1
    min_pot_cents: int = 0
    timing: str = AT_END

    @classmethod
    def from_dict(cls, d: Any) -> PotRake:
        p = "rake."
        d = F.check_keys(d, {"kind", "percent_bp", "levels", "cap_cents", "unit_cents",
                             "min_pot_cents", "timing"}, "rake")
        kind = F.choice(d, "kind", (PERCENTAGE, INCREMENTAL), prefix=p)
        percent = F.integer(d, "percent_bp", default=0, high=MAX_PERCENT_BP, prefix=p)
        levels: list[tuple[int, int]] = []
        if kind == INCREMENTAL:
            raw = d.get("levels")
            if not isinstance(raw, Sequence) or isinstance(raw, str) or not raw:
                raise InvalidRules("rake.levels must be a non-empty list of "
                                   "{pot_cents, rake_cents}", field="rake.levels")
            for i, lv in enumerate(raw):
                lv = F.check_keys(lv, {"pot_cents", "rake_cents"}, f"rake.levels[{i}]")
                pot = F.integer(lv, "pot_cents", low=1, prefix=f"rake.levels[{i}].")
                take = F.integer(lv, "rake_cents", low=1, prefix=f"rake.levels[{i}].")
                if levels and (pot <= levels[-1][0] or take <= levels[-1][1]):
                    raise InvalidRules("rake.levels must rise in both pot and rake",
                                       field=f"rake.levels[{i}]")
                levels.append((pot, take))
        elif percent == 0:
            raise InvalidRules("rake.percent_bp is required for a percentage rake",
                               field="rake.percent_bp")
        return cls(kind=kind, percent_bp=percent, levels=tuple(levels),
                   cap_cents=F.integer(d, "cap_cents", default=None, low=1, prefix=p),
                   unit_cents=F.integer(d, "unit_cents", default=1, low=1, prefix=p),
                   min_pot_cents=F.integer(d, "min_pot_cents", default=0, prefix=p),
                   timing=F.choice(d, "timing", (AT_END, PROGRESSIVE), default=AT_END,
                                   prefix=p))

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "percent_bp": self.percent_bp,
                "levels": [{"pot_cents": p, "rake_cents": r} for p, r in self.levels],
                "cap_cents": self.cap_cents, "unit_cents": self.unit_cents,
                "min_pot_cents": self.min_pot_cents, "timing": self.timing}


def rake_for_pot(rule: PotRake | None, pot_cents: int) -> int:
    """The total rake of a round of play whose pot (all pots together, the uncalled final
    bet already returned, 637a.17(d)) is ``pot_cents``.

    The result never exceeds the cap (a percentage is at most 10 % by construction,
    637a.17(b)(1); the levels of an incremental rake, 637a.17(b)(2), have no such limit)
    and is a whole number of ``unit_cents``; the function is monotone in the pot, so taking the difference after
    each betting round (637a.17(b)(1)(i)) ends at the same total as taking it once at the
    end (637a.17(b)(1)(ii)).
    """
    if rule is None or pot_cents <= 0 or pot_cents < rule.min_pot_cents:
        return 0
    if rule.kind == PERCENTAGE:
        rake = pot_cents * rule.percent_bp // 10_000
    else:
        rake = 0
        for level_pot, level_rake in rule.levels:
            if pot_cents >= level_pot:
                rake = level_rake
    if rule.cap_cents is not None:
        rake = min(rake, rule.cap_cents)
    return rake - rake % rule.unit_cents


def allocate(total: int, pots: Sequence[int]) -> list[int]:
    """Split ``total`` cents over ``pots`` in proportion to their sizes (637a.17(b)(1):
    the rake comes from the pot and any side pots). Remainder cents go to the main pot
    first, then the side pots in order; no pot gives more than it holds."""
    size = sum(pots)
    if total > size:
        raise ValueError("cannot take more than the pots hold")
    if size == 0:
        return [0 for _ in pots]
    shares = [total * p // size for p in pots]
    left = total - sum(shares)
    i = 0
    while left:
        if shares[i] < pots[i]:
            shares[i] += 1
            left -= 1
        i = (i + 1) % len(pots)
    return shares


# ----------------------------------------------------------------------- time charges

PER_PLAYER, PER_TABLE = "per_player", "per_table"


@dataclass(frozen=True)
class TimeCharge:
    """A rake by time (637a.17(b)(3)): an hourly fee for the table's betting limits,
    charged per player (inactive seated players too) or per table, in parts every 20 or
    30 minutes."""

    basis: str
    hourly_cents: int
    interval_minutes: int = 30

    @classmethod
    def from_dict(cls, d: Any) -> TimeCharge:
        p = "time_charge."
        d = F.check_keys(d, {"basis", "hourly_cents", "interval_minutes"}, "time_charge")
        tc = cls(basis=F.choice(d, "basis", (PER_PLAYER, PER_TABLE), prefix=p),
                 hourly_cents=F.integer(d, "hourly_cents", low=1, prefix=p),
                 interval_minutes=F.choice(d, "interval_minutes", (20, 30), default=30,
                                           prefix=p))
        if tc.hourly_cents * tc.interval_minutes % 60:
            raise InvalidRules("time_charge.hourly_cents must divide into whole cents for "
                               "each interval", field="time_charge.hourly_cents")
        return tc

    @property
    def per_interval_cents(self) -> int:
        return self.hourly_cents * self.interval_minutes // 60

    def to_dict(self) -> dict[str, Any]:
        return {"basis": self.basis, "hourly_cents": self.hourly_cents,
                "interval_minutes": self.interval_minutes}


def time_charges(rule: TimeCharge, stacks: Mapping[int, int]) -> dict[int, int]:
    """What each seated player pays for one interval (637a.17(b)(3)(i)-(iii)).

    ``stacks`` are the table stakes of every seated player, playing or not (inactive
    players are assessed too). Per table, the interval's fee is shared equally and the
    odd cents fall on the lowest seats. Nobody pays more than they have on the table.
    """
    seats = sorted(stacks)
    if not seats:
        return {}
    fee = rule.per_interval_cents
    if rule.basis == PER_PLAYER:
        due = {s: fee for s in seats}
    else:
        each, odd = divmod(fee, len(seats))
        due = {s: each + (1 if i < odd else 0) for i, s in enumerate(seats)}
    return {s: min(due[s], stacks[s]) for s in seats}


def time_charge_event(rule: TimeCharge, stacks: Mapping[int, int], *,
                      minute: int | None = None) -> dict[str, Any]:
    """The event recording one interval's time charges (637a.17(b)(3)(iv))."""
    charges = time_charges(rule, stacks)
    return {"type": "TimeChargeAssessed",
            "data": {"basis": rule.basis, "interval_minutes": rule.interval_minutes,
                     "minute": minute,
                     "charges": {str(s): a for s, a in charges.items()},
                     "total": sum(charges.values())}}
