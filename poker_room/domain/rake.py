"""Rake arithmetic (637a.17): the percentage rake, the incremental rake, time charges,
and the split of a hand's rake over the main pot and the side pots.

All amounts are integer cents and percentages are basis points (1000 bp = 10 %), so no
float ever touches money.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


#: 637a.17(b)(1): a percentage rake may not exceed 10 %.
MAX_PERCENT_BP = 1000
PERCENTAGE, INCREMENTAL = "percentage", "incremental"
#: 637a.17(b)(1)(i)/(2)(i) "as play progresses" vs (b)(1)(ii)/(2)(ii) at the end.
PROGRESSIVE, AT_END = "progressive", "end"
#: a capped rake comes from the main pot first, or from the last side pot first
MAIN_POT_FIRST, LAST_POT_FIRST = "main-pot-first", "last-pot-first"


@dataclass(frozen=True)
class PotRake:
    """How much of a pot the house takes (637a.17(a)-(b)).

    ``percentage``: ``percent_bp`` of each pot, rounded down to ``unit_cents`` (the
    smallest chip the dealer drops). ``incremental``: ``levels`` of (pot reached, rake
    added), each level's rake added once the pot reaches it. Both are capped per round of
    play by ``cap_cents`` (637a.17(a)(3)), skip pots under ``min_pot_cents``, and a capped
    rake is taken from the pots as ``spread`` says (:func:`rake_by_pot`).
    """

    kind: str = PERCENTAGE
    percent_bp: int = 0
    levels: tuple[tuple[int, int], ...] = ()
    cap_cents: int | None = None
    unit_cents: int = 1
    min_pot_cents: int = 0
    timing: str = AT_END
    spread: str = MAIN_POT_FIRST

    @classmethod
    def from_options(cls, rake: Mapping[str, Any], unit: int) -> PotRake | None:
        """The pot rake of a Rules Submission's canonical ``rake`` options (None when the
        table takes only time charges)."""
        if "percentage" in rake["types"]:
            kind = PERCENTAGE
        elif "incremental" in rake["types"]:
            kind = INCREMENTAL
        else:
            return None
        return cls(kind=kind, percent_bp=rake.get("percentage_bp") or 0,
                   levels=tuple((lv["pot_at_least_cents"], lv["rake_cents"])
                                for lv in rake.get("incremental_levels") or ()),
                   cap_cents=rake["maximum_per_round_cents"], unit_cents=unit,
                   min_pot_cents=rake["minimum_pot_cents"],
                   timing=PROGRESSIVE if rake["collection"] == "as-play-progresses"
                   else AT_END, spread=rake["spread_over_pots"])


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
    else:  # 637a.17(b)(2): each level's rake is added as the pot reaches it
        rake = sum(level_rake for level_pot, level_rake in rule.levels
                   if pot_cents >= level_pot)
    if rule.cap_cents is not None:
        rake = min(rake, rule.cap_cents)
    return rake - rake % rule.unit_cents


def rake_by_pot(rule: PotRake, total: int, pots: Sequence[int]) -> list[int]:
    """Where the hand's rake ``total`` (:func:`rake_for_pot` of all pots together, whole
    chips) comes from: the pot and each side pot (637a.17(b)(1)), in whole chips.

    A percentage rake takes each pot's own percentage, rounded down to the chip; what
    that leaves of ``total`` (the rounding, or nothing) and every incremental rake is
    taken pot by pot in the order ``rule.spread`` names, main pot first unless the Rules
    Submission says otherwise, no pot giving more than it holds. So a capped rake never
    takes a player's side pot to spare a pot the player is not in, unless posted so.
    """
    order = list(range(len(pots)))
    if rule.spread == LAST_POT_FIRST:
        order.reverse()
    unit = rule.unit_cents
    taken = [0] * len(pots)
    left = total
    if rule.kind == PERCENTAGE:
        for i in order:
            own = pots[i] * rule.percent_bp // 10_000
            taken[i] = min(own - own % unit, left)
            left -= taken[i]
    return take_in_order(left, pots, order, taken)


def take_in_order(total: int, pots: Sequence[int], order: Sequence[int] | None = None,
                  taken: list[int] | None = None) -> list[int]:
    """``total`` taken from ``pots`` one after another (main pot first unless ``order``
    says otherwise), on top of what is ``taken`` already, no pot giving more than it
    holds: how a capped rake's rest and the jackpot contributions (637a.15(c),
    637a.16(c)) leave the pots, so the players of a pot pay only for their own pot."""
    taken = list(taken) if taken is not None else [0] * len(pots)
    left = total
    for i in order if order is not None else range(len(pots)):
        more = min(pots[i] - taken[i], left)
        taken[i] += more
        left -= more
    if left:
        raise ValueError("cannot take more than the pots hold")
    return taken


# ----------------------------------------------------------------------- time charges

PER_PLAYER, PER_TABLE = "per-player", "per-table"


@dataclass(frozen=True)
class TimeCharge:
    """A rake by time (637a.17(b)(3)): an hourly fee for the table's betting limits,
    charged per player (inactive seated players too) or per table, in parts every 20 or
    30 minutes."""

    basis: str
    hourly_cents: int
    interval_minutes: int = 30

    @classmethod
    def from_options(cls, tc: Mapping[str, Any] | None) -> TimeCharge | None:
        """The time charge of a Rules Submission's canonical ``rake.time_charge``."""
        if tc is None:
            return None
        return cls(basis=PER_PLAYER if tc["basis"] == "per-player" else PER_TABLE,
                   hourly_cents=tc["hourly_cents"],
                   interval_minutes=tc["assessed_every_minutes"])

    @property
    def per_interval_cents(self) -> int:
        return self.hourly_cents * self.interval_minutes // 60

    def to_dict(self) -> dict[str, Any]:
        return {"basis": self.basis, "hourly_cents": self.hourly_cents,
                "interval_minutes": self.interval_minutes}


def time_charges(rule: TimeCharge, stacks: Mapping[int, int], *, unit_cents: int = 1
                 ) -> dict[int, int]:
    """What each seated player pays for one interval (637a.17(b)(3)(i)-(iii)).

    ``stacks`` are the table stakes of every seated player, playing or not (inactive
    players are assessed too). Per table, the interval's fee is shared equally in whole
    chips of ``unit_cents`` and the odd chips fall on the lowest seats. Nobody pays more
    than they have on the table.
    """
    seats = sorted(stacks)
    if not seats:
        return {}
    fee = rule.per_interval_cents
    if rule.basis == PER_PLAYER:
        due = {s: fee for s in seats}
    else:
        each, odd = divmod(fee // unit_cents, len(seats))
        due = {s: (each + (1 if i < odd else 0)) * unit_cents for i, s in enumerate(seats)}
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
