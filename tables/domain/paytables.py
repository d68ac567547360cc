"""Every paytable of 589.12 (Lunar Poker 2013), 671a.12 (Lunar Poker 2016) and 579.12
(Five Card Hi-Lo) as data.

Odds are kept exactly as the chapter writes them, because "to 1" and "for 1" pay
different amounts:

* ``X to 1`` — the player gets the wager back plus X times the wager
  (total returned = (X + 1) × wager);
* ``X for 1`` — the player gets X times the wager in total, the wager included
  (total returned = X × wager). Only the Ante Bonus of 579.12(b) is written this way.

The Ante Bonus is an *additional* payout "based on the amount of the player's Ante Wager"
(579.11(h)); the Ante itself is settled separately under 579.11(g). So for the Ante Bonus
the amount computed here (X × Ante) is the bonus paid on top of whatever the Ante does.

Money is integer cents; nothing here ever becomes a float.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from casino.domain.errors import DomainError
from casino.domain.money import WagerError, check_wager  # noqa: F401  WagerError re-exported


class PaytableError(DomainError):
    code = "unknown_paytable"


class OddsKind(StrEnum):
    TO = "to"
    FOR = "for"


class PayHand(StrEnum):
    """The hand (or event) a paytable line pays for, named as the chapters name it."""

    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    SAME_COLORED_STRAIGHT = "same_colored_straight"  # 589.6(d)(2)
    FIVE_PICTURE_CARDS = "five_picture_cards"  # 671a.6(d)(2)
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    ONE_PAIR = "one_pair"
    ACE_KING = "ace_king"  # 589.6(b)(10), 589.6(d)(7), 671a.6(b)(10)
    ACE_KING_QUEEN = "ace_king_queen"  # 671a.6(d)(7)
    SAME_COLORED_FIVE = "same_colored_five"  # 589.6(d)(8), 671a.6(d)(8)
    # 579.12(b) Ante Bonus
    FOUR_ACES_AND_A_DEUCE = "four_aces_and_a_deuce"
    FOUR_ACES = "four_aces"
    THREE_ACES = "three_aces"
    # 579.12(c) Tie Wager
    BOTH_HANDS_TIE = "both_hands_tie"
    HIGH_HANDS_TIE = "high_hands_tie"
    LOW_HANDS_TIE = "low_hands_tie"
    # 579.12(d) Poker Bonus bottom lines
    PAIR_OF_SEVENS_OR_BETTER = "pair_of_sevens_or_better"
    PAIR_OF_SIXES_OR_BETTER = "pair_of_sixes_or_better"
    # 671a.12(c): the Ante when the dealer does not qualify
    STRAIGHT_OR_BETTER = "straight_or_better"
    # a plain winning wager (579.12(a), 589.12(d), 671a.12(c) below a straight)
    WIN = "win"

    @property
    def label(self) -> str:
        return _LABELS.get(self, self.value.replace("_", " ").capitalize())


_LABELS = {
    PayHand.FOUR_OF_A_KIND: "Four-of-a-kind",
    PayHand.SAME_COLORED_STRAIGHT: "Same-colored straight",
    PayHand.THREE_OF_A_KIND: "Three-of-a-kind",
    PayHand.ACE_KING: "Ace-king",
    PayHand.ACE_KING_QUEEN: "Ace-king-queen",
    PayHand.FOUR_ACES_AND_A_DEUCE: "Four aces and one 2",
    PayHand.PAIR_OF_SEVENS_OR_BETTER: "Pair of 7s or better",
    PayHand.PAIR_OF_SIXES_OR_BETTER: "Pair of 6s or better",
    PayHand.WIN: "Winning wager",
}


@dataclass(frozen=True)
class Odds:
    """``amount`` to 1 or ``amount`` for 1, as written in the chapter."""

    amount: int
    kind: OddsKind = OddsKind.TO

    def total_returned(self, wager_cents: int) -> int:
        """Cents handed back to the player on a winning wager, the wager included."""
        check_wager(wager_cents, allow_zero=True)
        if self.kind is OddsKind.TO:
            return wager_cents * (self.amount + 1)
        return wager_cents * self.amount

    def winnings(self, wager_cents: int) -> int:
        """What the player gains over the wager: ``X`` × wager for "to", (X-1) × for "for"."""
        return self.total_returned(wager_cents) - wager_cents

    def __str__(self) -> str:
        return f"{self.amount:,} {self.kind.value} 1"


def to1(x: int) -> Odds:
    return Odds(x, OddsKind.TO)


def for1(x: int) -> Odds:
    return Odds(x, OddsKind.FOR)


@dataclass(frozen=True)
class Paytable:
    """One paytable: its lines in the order the chapter lists them (best hand first)."""

    name: str  # stable key, e.g. "589-instant-A"
    title: str  # as the chapter names it, e.g. "Instant payout Paytable A"
    section: str  # where it is, e.g. "589.12(a)"
    wager: str  # the wager it pays: "Ante", "Super Wager", "Bet Wager", ...
    lines: tuple[tuple[PayHand, Odds], ...]

    def odds_for(self, hand: PayHand | str | None) -> Odds | None:
        if hand is None:
            return None
        try:
            key = PayHand(hand)
        except ValueError:
            raise PaytableError(f"'{hand}' is not a paytable hand", code="unknown_hand") from None
        for h, odds in self.lines:
            if h is key:
                return odds
        return None

    @property
    def hands(self) -> tuple[PayHand, ...]:
        return tuple(h for h, _ in self.lines)

    def total_returned(self, wager_cents: int, hand: PayHand | str | None) -> int:
        """Cents returned for ``hand`` (0 when the hand is not on this table: a loss)."""
        check_wager(wager_cents, allow_zero=True)
        odds = self.odds_for(hand)
        return 0 if odds is None else odds.total_returned(wager_cents)


def _table(name: str, title: str, section: str, wager: str,
           lines: list[tuple[PayHand, Odds]]) -> Paytable:
    return Paytable(name, title, section, wager, tuple(lines))


_H = PayHand

# --- 589.12 (Lunar Poker, 2013) --------------------------------------------------------
# 589.12(a): instant payout on the Ante for a royal or straight flush in the first five.
_589_INSTANT = {"A": (1500, 500), "B": (1500, 400), "C": (1500, 300), "D": (1200, 400),
                "E": (1200, 300), "F": (1000, 300), "G": (800, 300), "H": (600, 300)}
# 589.12(b): Super Wager paytables A-C; they differ only in three-of-a-kind and ace-king.
_589_SUPER = {"A": (8, 6), "B": (8, 5), "C": (7, 6)}

_BET_LINES = [(_H.ROYAL_FLUSH, to1(100)), (_H.STRAIGHT_FLUSH, to1(50)),
              (_H.FOUR_OF_A_KIND, to1(20)), (_H.FULL_HOUSE, to1(7)), (_H.FLUSH, to1(5)),
              (_H.STRAIGHT, to1(4)), (_H.THREE_OF_A_KIND, to1(3)), (_H.TWO_PAIR, to1(2)),
              (_H.ONE_PAIR, to1(1)), (_H.ACE_KING, to1(1))]

_tables: list[Paytable] = []
for _k, (_rf, _sf) in _589_INSTANT.items():
    _tables.append(_table(f"589-instant-{_k}", f"Instant payout Paytable {_k}", "589.12(a)",
                          "Ante", [(_H.ROYAL_FLUSH, to1(_rf)), (_H.STRAIGHT_FLUSH, to1(_sf))]))
for _k, (_trips, _ak) in _589_SUPER.items():
    _tables.append(_table(f"589-super-{_k}", f"Super Wager Paytable {_k}", "589.12(b)",
                          "Super Wager",
                          [(_H.FOUR_OF_A_KIND, to1(250)), (_H.SAME_COLORED_STRAIGHT, to1(150)),
                           (_H.FULL_HOUSE, to1(100)), (_H.FLUSH, to1(60)), (_H.STRAIGHT, to1(30)),
                           (_H.THREE_OF_A_KIND, to1(_trips)), (_H.ACE_KING, to1(_ak)),
                           (_H.SAME_COLORED_FIVE, to1(2))]))
_tables.append(_table("589-bet", "Bet Wager payouts", "589.12(c)", "Bet Wager", _BET_LINES))
_tables.append(_table("589-ante", "Ante Wager payout", "589.12(d)", "Ante",
                      [(_H.WIN, to1(1))]))

# --- 671a.12 (Lunar Poker, 2016) -------------------------------------------------------
_671A_INSTANT = {"A": (1500, 250), "B": (1000, 300), "C": (1000, 250)}
for _k, (_rf, _sf) in _671A_INSTANT.items():
    _tables.append(_table(f"671a-instant-{_k}", f"Instant payout Paytable {_k}",
                          "671a.12(a)", "Ante",
                          [(_H.ROYAL_FLUSH, to1(_rf)), (_H.STRAIGHT_FLUSH, to1(_sf))]))
_tables.append(_table("671a-super", "Super Wager payouts", "671a.12(b)", "Super Wager",
                      [(_H.FOUR_OF_A_KIND, to1(200)), (_H.FIVE_PICTURE_CARDS, to1(150)),
                       (_H.FULL_HOUSE, to1(100)), (_H.FLUSH, to1(60)), (_H.STRAIGHT, to1(30)),
                       (_H.THREE_OF_A_KIND, to1(8)), (_H.ACE_KING_QUEEN, to1(5)),
                       (_H.SAME_COLORED_FIVE, to1(2))]))
_tables.append(_table("671a-ante-no-qualify", "Ante Wager when the dealer does not qualify",
                      "671a.12(c)", "Ante",
                      [(_H.STRAIGHT_OR_BETTER, to1(4)), (_H.WIN, to1(1))]))
_tables.append(_table("671a-bet", "Bet Wager payouts", "671a.12(d)", "Bet Wager", _BET_LINES))

# --- 579.12 (Five Card Hi-Lo) ----------------------------------------------------------
_tables.append(_table("579-ante-play", "Ante and Play Wager payouts", "579.12(a)",
                      "Ante and Play Wagers", [(_H.WIN, to1(1))]))
# 579.12(b): the only "for 1" odds in these chapters.
_579_ANTE_BONUS = {"A": (1000, 100, 10), "B": (500, 50, 5), "C": (200, 50, 5),
                   "D": (100, 50, 5)}
for _k, (_a4d, _a4, _a3) in _579_ANTE_BONUS.items():
    _tables.append(_table(f"579-ante-bonus-{_k}", f"Ante Bonus Paytable {_k}", "579.12(b)",
                          "Ante (bonus payout)",
                          [(_H.FOUR_ACES_AND_A_DEUCE, for1(_a4d)), (_H.FOUR_ACES, for1(_a4)),
                           (_H.THREE_ACES, for1(_a3))]))
_tables.append(_table("579-tie", "Tie Wager payouts", "579.12(c)", "Tie Wager",
                      [(_H.BOTH_HANDS_TIE, to1(20)), (_H.HIGH_HANDS_TIE, to1(4)),
                       (_H.LOW_HANDS_TIE, to1(4))]))
# 579.12(d): the flattened table prints "Pair of 7s or better 1 to 1" first and
# "Pair of 6s or better 1 to 1" second, one value each; we read them in column order
# (A pays 7s or better, B pays 6s or better). See the report's ambiguity notes.
_tables.append(_table("579-poker-bonus-A", "Poker Bonus Paytable A", "579.12(d)",
                      "Poker Bonus Wager",
                      [(_H.ROYAL_FLUSH, to1(250)), (_H.STRAIGHT_FLUSH, to1(50)),
                       (_H.FOUR_OF_A_KIND, to1(25)), (_H.FULL_HOUSE, to1(15)),
                       (_H.FLUSH, to1(10)), (_H.STRAIGHT, to1(8)), (_H.THREE_OF_A_KIND, to1(5)),
                       (_H.TWO_PAIR, to1(3)), (_H.PAIR_OF_SEVENS_OR_BETTER, to1(1))]))
_tables.append(_table("579-poker-bonus-B", "Poker Bonus Paytable B", "579.12(d)",
                      "Poker Bonus Wager",
                      [(_H.ROYAL_FLUSH, to1(500)), (_H.STRAIGHT_FLUSH, to1(100)),
                       (_H.FOUR_OF_A_KIND, to1(40)), (_H.FULL_HOUSE, to1(15)),
                       (_H.FLUSH, to1(8)), (_H.STRAIGHT, to1(6)), (_H.THREE_OF_A_KIND, to1(4)),
                       (_H.TWO_PAIR, to1(3)), (_H.PAIR_OF_SIXES_OR_BETTER, to1(1))]))

#: Every paytable by name.
PAYTABLES: Mapping[str, Paytable] = MappingProxyType({t.name: t for t in _tables})
del _tables


def get_paytable(name: str) -> Paytable:
    """The paytable called ``name`` (e.g. ``"589-super-A"``); unknown → PaytableError."""
    if not isinstance(name, str) or name not in PAYTABLES:
        raise PaytableError(f"no paytable {name!r}; known: {', '.join(PAYTABLES)}")
    return PAYTABLES[name]


def total_returned(table: Paytable | str, hand: PayHand | str | None, wager_cents: int) -> int:
    """Total cents returned to the player for ``wager_cents`` on ``table`` with ``hand``.

    ``hand`` None, or a hand the table does not list, is a losing wager: 0 returned.
    """
    pt = table if isinstance(table, Paytable) else get_paytable(table)
    return pt.total_returned(wager_cents, hand)
