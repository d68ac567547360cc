"""What a table's gaming day should have left in its tray and drop box, from the events,
against what was counted (DESIGN §4 "Finance").

The tray: chips sold for cash leave it, fills come in, credits go out; at a banked table
the house's win from the rounds (wagers lost less payouts, fees included) stays in it. At a
poker table the players' chips are theirs: the rake and time charges go to the drop box,
not the tray. So

* expected closer = opener + fills − credits − chip sales (+ the banked win)
* expected drop   = chip sales for cash (+ the rake and time charges at poker)
* win             = closer − opener + credits − fills + drop

With the expected figures the win formula gives back the banked win (or the rake); with
the counted ones it is the table's reported win, and the differences are the variances.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

BANKED, POKER = "banked", "poker"
#: what a variance is found on
DROP, TRAY, POKER_REVENUE = "drop", "tray", "poker_revenue"


@dataclass(frozen=True)
class TableDayFigures:
    """The figures of one table and gaming day; ``None`` where nothing is counted yet."""

    kind: str                      # banked | poker
    opener_cents: int | None
    closer_cents: int | None
    fills_cents: int
    credits_cents: int
    chip_sales_cents: int
    banked_win_cents: int = 0      # from the rounds' events
    rake_cents: int = 0            # percentage and incremental, from the hands' events
    time_charges_cents: int = 0    # verified time charges
    drop_counted_cents: int | None = None

    @property
    def expected_drop_cents(self) -> int:
        extra = self.rake_cents + self.time_charges_cents if self.kind == POKER else 0
        return self.chip_sales_cents + extra

    @property
    def expected_closer_cents(self) -> int | None:
        if self.opener_cents is None:
            return None
        win = self.banked_win_cents if self.kind == BANKED else 0
        return (self.opener_cents + self.fills_cents - self.credits_cents
                - self.chip_sales_cents + win)

    @property
    def expected_win_cents(self) -> int:
        """The win the events say: the banked win, or the rake and time charges."""
        if self.kind == BANKED:
            return self.banked_win_cents
        return self.rake_cents + self.time_charges_cents

    def win_cents(self, *, final: bool) -> int | None:
        """Closer − opener + credits − fills + drop. ``final``: the counted drop and the
        signed closer (None until the opener, the closer and the count are all there);
        otherwise the preliminary win of :func:`preliminary_row` (the accepted count's
        drop, else the expected one)."""
        if not final:
            return preliminary_row(self).win_cents
        if self.opener_cents is None or self.closer_cents is None \
                or self.drop_counted_cents is None:
            return None
        return (self.closer_cents - self.opener_cents + self.credits_cents
                - self.fills_cents + self.drop_counted_cents)

    @classmethod
    def from_frozen(cls, figures: dict[str, Any]) -> TableDayFigures:
        """The figures back from what a close froze or a report reads
        (``finance.figures.frozen``: these fields and more)."""
        return cls(**{k: figures[k] for k in cls.__dataclass_fields__ if k in figures})

    @property
    def drop_variance_cents(self) -> int | None:
        if self.drop_counted_cents is None:
            return None
        return self.drop_counted_cents - self.expected_drop_cents

    @property
    def tray_variance_cents(self) -> int | None:
        expected = self.expected_closer_cents
        if expected is None or self.closer_cents is None:
            return None
        return self.closer_cents - expected


def preliminary_win_cents(f: TableDayFigures, *, drop_cents: int | None = None) -> int:
    """The win of a table day that is not final yet (no signed closer, or no accepted
    count), with the drop :func:`preliminary_row` decides.

    closer − opener + credits − fills + drop, with the signed closer or else the expected
    one, and ``drop_cents`` (the drop the report shows) or else the expected drop. With
    the expected closer the formula gives back the win the events say (the banked
    rounds' house win, or the rake and time charges at poker) corrected by the drop
    shown less the expected drop; so without an opener, which the formula cannot start
    from, that is the win: a day played without an opening inventory still shows what
    its rounds won (the report says it has no opener)."""
    drop = f.expected_drop_cents if drop_cents is None else drop_cents
    if f.opener_cents is None:
        return f.expected_win_cents + drop - f.expected_drop_cents
    closer = f.closer_cents if f.closer_cents is not None else f.expected_closer_cents
    assert closer is not None  # an opener gives an expected closer
    return closer - f.opener_cents + f.credits_cents - f.fills_cents + drop


@dataclass(frozen=True)
class PreliminaryRow:
    """A table day's drop and win as every report shows them before they are final, and
    what they stand on (the row's status)."""

    drop_cents: int
    win_cents: int
    drop_counted: bool    # the drop is the accepted count; else the expected drop
    closer_signed: bool   # the win took the signed closer; else the expected closer
    has_opener: bool      # False: the win is the one the events say

    @property
    def final(self) -> bool:
        """The counted drop, the signed closer and the opener: the final win."""
        return self.drop_counted and self.closer_signed and self.has_opener


def preliminary_row(f: TableDayFigures) -> PreliminaryRow:
    """The one rule for a table day's figures before they are final, shown alike by the
    Master Game Report's preliminary version and the statistical report: the drop is the
    counted drop once the cashier accepted the count, else the expected drop; the win is
    :func:`preliminary_win_cents` with that drop. With the count, the signed closer and
    the opener all there it is the final win."""
    counted = f.drop_counted_cents is not None
    drop = f.drop_counted_cents if f.drop_counted_cents is not None else f.expected_drop_cents
    return PreliminaryRow(drop_cents=drop, win_cents=preliminary_win_cents(f, drop_cents=drop),
                          drop_counted=counted, closer_signed=f.closer_cents is not None,
                          has_opener=f.opener_cents is not None)


def hold_percent(win_cents: int | None, drop_cents: int | None) -> float | None:
    """Win as a percentage of the drop, to two places; None without a drop."""
    if win_cents is None or not drop_cents:
        return None
    return round(100.0 * win_cents / drop_cents, 2)


@dataclass(frozen=True)
class Variance:
    """A difference the count found: counted − expected (negative: a shortage)."""

    figure: str
    expected_cents: int
    counted_cents: int

    @property
    def variance_cents(self) -> int:
        return self.counted_cents - self.expected_cents

    def as_data(self) -> dict[str, Any]:
        return {**asdict(self), "variance_cents": self.variance_cents}


def variance_now(f: TableDayFigures, figure: str) -> Variance | None:
    """The figure's variance as the figures stand now, whatever its size (None while
    nothing is counted for it): to revise an exception recorded on older figures."""
    if figure == DROP and f.drop_counted_cents is not None:
        return Variance(DROP, f.expected_drop_cents, f.drop_counted_cents)
    if figure == TRAY and f.expected_closer_cents is not None and f.closer_cents is not None:
        return Variance(TRAY, f.expected_closer_cents, f.closer_cents)
    win = f.win_cents(final=True)
    if figure == POKER_REVENUE and win is not None:
        return Variance(POKER_REVENUE, f.expected_win_cents, win)
    return None


def exceptions(f: TableDayFigures, *, tolerance_cents: int) -> list[Variance]:
    """The variances beyond ``tolerance_cents`` (either way), and a poker table whose
    counted win is below zero (always an exception: a written investigation)."""
    found: list[Variance] = []
    if f.drop_counted_cents is not None \
            and abs(f.drop_counted_cents - f.expected_drop_cents) > tolerance_cents:
        found.append(Variance(DROP, f.expected_drop_cents, f.drop_counted_cents))
    expected_closer = f.expected_closer_cents
    if expected_closer is not None and f.closer_cents is not None \
            and abs(f.closer_cents - expected_closer) > tolerance_cents:
        found.append(Variance(TRAY, expected_closer, f.closer_cents))
    if f.kind == POKER:
        win = f.win_cents(final=True)
        if win is not None and win < 0:
            found.append(Variance(POKER_REVENUE, f.expected_win_cents, win))
    return found
