"""The expected band of a banked table's day: what a wager with exact paytable math should
win for the house, and how far a day's result may stray from it by chance.

For a stand-alone wager judged on one five-card hand (Lunar Poker Super Wager 589.12(b),
671a.12(b); Five Card Hi-Lo Poker Bonus Wager 579.12(d)) the result of one unit wagered is
a random variable X (the player's net): a hand paid on a line worth ``returned_per_unit``
(wager included) nets ``returned_per_unit - 1``; any other hand loses the unit, -1. From
the exact line counts over all C(52, 5) hands (``tables.domain.paytable_math``):

    E[X]   = Σ p·(r - 1) - (1 - Σ p)            = -house_edge
    Var[X] = Σ p·(r - 1)² + (1 - Σ p) - E[X]²

A day with ``n`` wagers adding up to ``W`` cents is treated as ``n`` independent, identically
distributed units of the average size ``W / n`` (the Central Limit Theorem does the rest):

    expected house win = house_edge · W
    sd of house win    = √n · (W / n) · sd(X)   (variance = Var[X] · W² / n)
    band               = expected ± z · sd       (z = 3: about 99.7 % of days inside)

Assumptions, stated once here and in the report:

* Equal sizes. With unequal wagers the true variance is Var[X]·Σwᵢ², never less than
  Var[X]·W²/n: the band is then too narrow, so big single wagers can push a day outside.
* Independence. Hands of one round come from one deck, so they are very slightly
  dependent; wagers judged on the *same* hand (671a.7(c)(3): Super Wagers on another
  player's hand and that player's own) are not independent at all — combine those with
  ``combine(..., same_hands=True)``, which adds standard deviations (the worst case,
  perfect correlation; Minkowski's inequality makes it an upper bound).
* Void rounds (589.13, 579.13) return every wager: they count as wagered but win nothing,
  which pulls the day slightly below the expectation; the band is wide enough not to care.
* The Ante, Bet, Play, Options and force fees and the Hi-Lo Tie Wager have no exact
  figures (their result depends on the player's decisions or on the dealer's hand):
  :func:`exact_paytable` returns ``None`` for them and no edge is invented.

Amounts are integer cents; figures are exact ``Fraction`` until the band's ends, which are
rounded half away from zero (the square root is a float there).

Pure Python: no Django (DESIGN §2).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

DEFAULT_Z = 3.0  # two-sided ≈ 99.73 % under the normal approximation

#: wager type (``TableResult.wager``) → the Rules Submission option naming its paytable, per
#: game; a wager not listed has no exact figures. ``None`` as the option: the chapter prints
#: one paytable only (671a.12(b)).
_EXACT_WAGERS: Mapping[str, Mapping[str, tuple[str, str | None]]] = {
    # 589.7(c)(2), 589.12(b): the optional Super Wager on the player's own five cards
    "lunar-poker-589": {"super": ("589-super-", "super_paytable")},
    # 671a.7(c)(2)-(3), 671a.12(b): own hand, the dealer's hand and another player's hand
    # (``super_on``: every Super on another position, summed by tables.services.banked)
    "lunar-poker-671a": {"super": ("671a-super", None), "super_dealer": ("671a-super", None),
                         "super_on": ("671a-super", None)},
    # 579.7(e)(2), 579.12(d), 579.11(j)(2): the Poker Bonus Wager on the player's five cards
    "five-card-hi-lo": {"poker_bonus": ("579-poker-bonus-", "poker_bonus_paytable")},
}

#: wagers judged on the players' own hands at 671a: a Super on another position rides the
#: same five cards as that position's own Super (671a.7(c)(3))
SAME_HANDS: Mapping[str, frozenset[str]] = {
    "lunar-poker-671a": frozenset({"super", "super_on"}),
}


class HoldBandError(ValueError):
    """Figures that cannot give a band (a bonus on the Ante, inconsistent inputs)."""


def exact_paytable(game: str, options: Mapping[str, Any], wager: str) -> str | None:
    """The paytable a Rules Submission's ``options`` name for ``wager`` when that wager
    has exact figures; ``None`` when it has none or the options do not offer it."""
    entry = _EXACT_WAGERS.get(game, {}).get(wager)
    if entry is None:
        return None
    prefix, option = entry
    if option is None:
        return prefix
    letter = options.get(option)
    return f"{prefix}{letter}" if letter else None


# --- one unit wagered ------------------------------------------------------------------

class _Line(Protocol):
    count: int
    returned_per_unit: Fraction


class _Figures(Protocol):
    """What :class:`tables.domain.paytable_math.ExactFigures` offers (duck-typed, so this
    module imports neither numpy nor the enumeration)."""

    table: str
    standalone: bool
    total_hands: int
    lines: Sequence[_Line]
    house_edge: Fraction | None


@dataclass(frozen=True)
class UnitFigures:
    """One unit wagered on a stand-alone paytable: exact house edge (= -E[X]) and the
    variance of the net result X."""

    paytable: str
    house_edge: Fraction
    variance: Fraction

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)


def unit_figures(paytable: str, lines: Iterable[tuple[int, Fraction | int]], total: int
                 ) -> UnitFigures:
    """From ``(count, returned per unit)`` lines out of ``total`` equally likely hands; the
    hands on no line lose the unit."""
    if total <= 0:
        raise HoldBandError(f"{paytable}: total hands must be positive, not {total}")
    hits = 0
    mean = Fraction(0)
    square = Fraction(0)
    for count, returned in lines:
        if count < 0 or returned < 0:
            raise HoldBandError(f"{paytable}: a line has a negative count or payout")
        net = Fraction(returned) - 1
        hits += count
        mean += count * net
        square += count * net * net
    misses = total - hits
    if misses < 0:
        raise HoldBandError(f"{paytable}: the lines count more hands than {total}")
    mean = (mean - misses) / total
    square = (square + misses) / total
    return UnitFigures(paytable, -mean, square - mean * mean)


def unit_figures_of(figures: _Figures) -> UnitFigures:
    """:func:`unit_figures` of a paytable's exact figures. Refused for an extra payout on
    the Ante (589.12(a), 671a.12(a), 579.12(b)): it is not a wager of its own, and the Ante
    it rides on has no exact figure."""
    if not figures.standalone:
        raise HoldBandError(f"{figures.table} is an extra payout on the Ante, not a wager "
                            "of its own: it has no house edge")
    unit = unit_figures(figures.table, ((ln.count, ln.returned_per_unit)
                                        for ln in figures.lines), figures.total_hands)
    # why: the two computations of the edge must agree, or the counts are not the ones the
    # edge came from
    if figures.house_edge is not None and figures.house_edge != unit.house_edge:
        raise HoldBandError(f"{figures.table}: house edge {figures.house_edge} from the "
                            f"figures, {unit.house_edge} from the lines")
    return unit


# --- a day's band ----------------------------------------------------------------------

def round_half_away(x: Fraction) -> int:
    """Nearest whole cent, halves away from zero (2.5 → 3, -2.5 → -3)."""
    whole = math.floor(abs(x) + Fraction(1, 2))
    return whole if x >= 0 else -whole


@dataclass(frozen=True)
class Band:
    """Expected house win and its band, in cents, for one wager type or several combined.
    ``expected`` and ``variance`` (cents²) are exact and are what :func:`combine` adds;
    the ``*_cents`` fields are rounded half away from zero."""

    expected: Fraction
    variance: Fraction
    z: float
    expected_win_cents: int
    low_cents: int
    high_cents: int

    @property
    def sd_cents(self) -> float:
        return math.sqrt(self.variance)


def _band(expected: Fraction, variance: Fraction, z: float) -> Band:
    half = Fraction(z * math.sqrt(variance))  # exact value of the float, rounded once below
    return Band(expected, variance, z, round_half_away(expected),
                round_half_away(expected - half), round_half_away(expected + half))


def _check_z(z: float) -> float:
    if not (isinstance(z, (int, float)) and not isinstance(z, bool)
            and math.isfinite(z) and z > 0):
        raise HoldBandError(f"z must be a positive number, not {z!r}")
    return float(z)


def wager_band(unit: UnitFigures, *, wagered_cents: int, wagers: int,
               z: float = DEFAULT_Z) -> Band:
    """The band of one wager type for a day: ``wagers`` i.i.d. units of the average size
    ``wagered_cents / wagers``. No wager (or nothing wagered): a band of zero width at 0."""
    z = _check_z(z)
    for name, value in (("wagered_cents", wagered_cents), ("wagers", wagers)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise HoldBandError(f"{name} must be a non-negative whole number, not {value!r}")
    if wagered_cents == 0 or wagers == 0:
        if wagered_cents:  # money with no wager behind it: the inputs are not a day's
            raise HoldBandError("wagered_cents is positive but wagers is 0")
        return _band(Fraction(0), Fraction(0), z)
    expected = unit.house_edge * wagered_cents
    # n · (W/n)² · Var[X] = Var[X] · W² / n
    variance = unit.variance * wagered_cents * wagered_cents / wagers
    return _band(expected, variance, z)


def combine(bands: Sequence[Band], *, same_hands: bool = False) -> Band:
    """Several wager types' bands as one: expectations add; variances add when the wagers
    are independent, standard deviations add when they ride the same hands
    (``same_hands``: perfect correlation, an upper bound). All bands share one ``z``."""
    if not bands:
        raise HoldBandError("nothing to combine")
    zs = {b.z for b in bands}
    if len(zs) != 1:
        raise HoldBandError(f"bands at different z cannot be combined: {sorted(zs)}")
    expected = sum((b.expected for b in bands), Fraction(0))
    if same_hands:
        sd = sum(b.sd_cents for b in bands)
        variance = Fraction(sd) ** 2
    else:
        variance = sum((b.variance for b in bands), Fraction(0))
    return _band(expected, variance, bands[0].z)


def outside(win_cents: int, band: Band) -> bool:
    """Whether the house win lies outside the band (its ends count as inside)."""
    return not band.low_cents <= win_cents <= band.high_cents


#: Each stand-alone paytable's exact figures, as :func:`unit_figures_of` works them out
#: from ``tables.domain.paytable_math`` (every one of the 2,598,960 hands): kept here so a
#: report does not enumerate the hands in each new process (about 2.5 s); the exhaustive
#: test ``test_the_kept_unit_figures_are_the_paytable_maths`` works them out again.
KEPT_UNITS: dict[str, UnitFigures] = {u.paytable: u for u in (
    UnitFigures("589-super-A", Fraction(-105699, 216580), Fraction(2393269643099, 46906896400)),
    UnitFigures("589-super-B", Fraction(-84323, 216580), Fraction(2346405798491, 46906896400)),
    UnitFigures("589-super-C", Fraction(-101123, 216580), Fraction(2379350009371, 46906896400)),
    UnitFigures("671a-super", Fraction(2731, 49980), Fraction(1420068197927, 32474005200)),
    UnitFigures("579-poker-bonus-A", Fraction(2341, 30940), Fraction(2801789899, 957283600)),
    UnitFigures("579-poker-bonus-B", Fraction(1203, 30940), Fraction(3050655611, 957283600)),
)}
