"""The house edge of each paytable a Rules Submission selects (601a.2), for the approver
to read before approving it.

The figures are the exact results of :func:`tables.domain.paytable_math.exact_figures`
(every one of the 2,598,960 five-card hands), written down here once so that showing a
submission or approving it never enumerates a hand; a test checks each one against the
enumeration, so the table cannot drift from the paytables.

A paytable whose house edge is negative pays back more than is wagered on it: the
589.12(b) Super Wager paytables A-C are, with "an ace-king" read as the letter of
589.6(d)(7) has it (any five cards holding an ace and a king, paired or not). Approving a
submission that selects one takes the approver's explicit acknowledgement
(:func:`tables.services.rules.rules_approve`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from tables.domain.catalogue import Family, get_table_game
from tables.domain.paytables import get_paytable

#: Exact house edge (1 - return per unit wagered) of the stand-alone wagers judged on
#: one five-card hand: 589.12(b), 671a.12(b), 579.12(d).
HOUSE_EDGES: Mapping[str, Fraction] = MappingProxyType({
    "589-super-A": Fraction(-105699, 216580),
    "589-super-B": Fraction(-84323, 216580),
    "589-super-C": Fraction(-101123, 216580),
    "671a-super": Fraction(2731, 49980),
    "579-poker-bonus-A": Fraction(2341, 30940),
    "579-poker-bonus-B": Fraction(1203, 30940),
})

#: Exact expected amount paid per unit of Ante by the extra payouts on the Ante, which
#: are not wagers of their own and so have no house edge: 589.12(a), 671a.12(a),
#: 579.12(b).
BONUS_PER_UNIT: Mapping[str, Fraction] = MappingProxyType({
    "589-instant-A": Fraction(100, 10829), "589-instant-B": Fraction(5, 637),
    "589-instant-C": Fraction(10, 1547), "589-instant-D": Fraction(80, 10829),
    "589-instant-E": Fraction(5, 833), "589-instant-F": Fraction(185, 32487),
    "589-instant-G": Fraction(25, 4641), "589-instant-H": Fraction(55, 10829),
    "671a-instant-A": Fraction(125, 21658), "671a-instant-B": Fraction(185, 32487),
    "671a-instant-C": Fraction(25, 4998),
    "579-ante-bonus-A": Fraction(223, 10829), "579-ante-bonus-B": Fraction(223, 21658),
    "579-ante-bonus-C": Fraction(213, 21658), "579-ante-bonus-D": Fraction(37, 3822),
})

EXACT_BASIS = "exact, over all 2,598,960 five-card hands"
BONUS_BASIS = ("an extra payout on the Ante, not a wager of its own: no house edge; "
               "exact expected payout per unit of Ante shown")
SIMULATED_BASIS = ("depends on the dealer's hand: no exact figure (see manage.py "
                   "paytable_report for a simulation)")


def percent(value: Fraction) -> str:
    """``value`` as a percentage to three decimals (half to even), e.g. ``-38.934 %``:
    the one way a house edge is written, in the API and on the console alike."""
    thousandths = round(value * 100_000)
    whole, part = divmod(abs(thousandths), 1000)
    return f"{'-' if thousandths < 0 else ''}{whole}.{part:03d} %"


@dataclass(frozen=True)
class PaytableEdge:
    """One selected paytable and what it returns."""

    paytable: str
    title: str
    section: str
    wager: str
    house_edge: Fraction | None
    bonus_per_unit: Fraction | None
    basis: str

    @property
    def negative_house_edge(self) -> bool:
        """It pays back more than is wagered on it."""
        return self.house_edge is not None and self.house_edge < 0

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape (API answer and approval event): the exact edge as a fraction
        ``"p/q"`` and as a percentage."""
        edge, bonus = self.house_edge, self.bonus_per_unit
        return {"paytable": self.paytable, "title": self.title, "section": self.section,
                "wager": self.wager,
                "house_edge": None if edge is None else str(edge),
                "house_edge_percent": None if edge is None else percent(edge),
                "negative_house_edge": self.negative_house_edge,
                "bonus_per_unit_ante_percent": None if bonus is None else percent(bonus),
                "basis": self.basis}


def edge_of(name: str) -> PaytableEdge:
    """The figures of paytable ``name`` (unknown → ``unknown_paytable``)."""
    table = get_paytable(name)
    if name in HOUSE_EDGES:
        return PaytableEdge(name, table.title, table.section, table.wager,
                            HOUSE_EDGES[name], None, EXACT_BASIS)
    if name in BONUS_PER_UNIT:
        return PaytableEdge(name, table.title, table.section, table.wager,
                            None, BONUS_PER_UNIT[name], BONUS_BASIS)
    return PaytableEdge(name, table.title, table.section, table.wager, None, None,
                        SIMULATED_BASIS)


def selected_paytables(game: str, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The paytables the canonical ``options`` of a Rules Submission for ``game`` select:
    589.12(a)-(b), 671a.12(a)-(b) (the 671a Super Wager is required, 671a.7(c)(2)) and
    579.12(b)-(d). The fixed payouts every table of the game pays are not a choice."""
    family = get_table_game(game).family
    if family is Family.LUNAR_589:
        chosen = [f"589-instant-{options['instant_paytable']}"]
        if options.get("super_paytable"):
            chosen.append(f"589-super-{options['super_paytable']}")
        return tuple(chosen)
    if family is Family.LUNAR_671A:
        return (f"671a-instant-{options['instant_paytable']}", "671a-super")
    if family is Family.HILO:
        chosen = [f"579-ante-bonus-{options['ante_bonus_paytable']}"]
        if options.get("tie_wager_offered"):
            chosen.append("579-tie")
        if options.get("poker_bonus_paytable"):
            chosen.append(f"579-poker-bonus-{options['poker_bonus_paytable']}")
        return tuple(chosen)
    return ()  # poker: no paytable


def submission_edges(game: str, options: Mapping[str, Any]) -> tuple[PaytableEdge, ...]:
    """The figures of every paytable a Rules Submission selects, in the chapter's order."""
    return tuple(edge_of(name) for name in selected_paytables(game, options))


def negative_edges(game: str, options: Mapping[str, Any]) -> tuple[PaytableEdge, ...]:
    """The selected paytables that pay back more than is wagered on them."""
    return tuple(e for e in submission_edges(game, options) if e.negative_house_edge)
