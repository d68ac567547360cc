"""Five Card Hi-Lo (chapter 579): point values, setting the hands, win/lose/tie, and the
Ante Bonus, Tie Wager and Poker Bonus hands.

A *setting* splits the five cards into a three-card high hand and a two-card low hand.
Points (579.6(a)): 2-10 at face value, jacks, queens and kings 10, an ace 11 in the high
hand and 1 in the low hand — so an ace's value depends on where it is placed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from numbers import Integral

from casino.domain.cards import ACE, Card, CardCountError, check_cards, format_cards
from casino.domain.errors import DomainError
from casino.domain.hands.high import CATEGORY_SHIFT, Category, high5, is_royal, ranks_of
from casino.domain.money import check_wager
from tables.domain.paytables import (
    PAYTABLES, PayHand, PaytableError, get_paytable,
)

ACE_HIGH_POINTS = 11
ACE_LOW_POINTS = 1
DEUCE = 0
SIX = 4
SEVEN = 5


class HiLoSettingError(DomainError):
    """A player's setting that 579.11(d) does not allow; ``code`` names the broken rule."""

    code = "hilo_illegal_setting"


def point_value(card: Card, *, in_low: bool) -> int:
    """579.6(a): face value 2-10, J/Q/K 10, ace 11 in the high hand and 1 in the low."""
    check_cards((card,))
    r = card >> 2
    if r == ACE:
        return ACE_LOW_POINTS if in_low else ACE_HIGH_POINTS
    return min(r + 2, 10)


@dataclass(frozen=True)
class Setting:
    high: tuple[Card, Card, Card]
    low: tuple[Card, Card]

    @property
    def high_total(self) -> int:
        return sum(point_value(c, in_low=False) for c in self.high)

    @property
    def low_total(self) -> int:
        return sum(point_value(c, in_low=True) for c in self.low)

    @property
    def totals(self) -> tuple[int, int]:
        return self.high_total, self.low_total

    def describe(self) -> str:
        return (f"high {format_cards(self.high, '-')} = {self.high_total}, "
                f"low {format_cards(self.low, '-')} = {self.low_total}")


def _five(cards: Sequence[Card]) -> list[Card]:
    if len(cards) != 5:
        raise CardCountError(f"a Five Card Hi-Lo hand is five cards, got {len(cards)}")
    return check_cards(cards)


def _hand_cards(cards: object, which: str) -> list[Card]:
    """A player's high or low hand as a list; each card must be a card number (0-51)."""
    if isinstance(cards, (str, bytes, Mapping)) or not isinstance(cards, Iterable):
        raise HiLoSettingError(f"579.11(d): the {which} hand must be a list of cards, "
                               f"not {cards!r}",
                               code="hilo_wrong_hand_sizes")
    out = list(cards)
    for c in out:
        check_cards((c,))  # one at a time: a repeated card is "not the cards dealt" below
    return out


def _canonical(high: Sequence[Card], low: Sequence[Card]) -> Setting:
    h = tuple(sorted(high, reverse=True))
    lo = tuple(sorted(low, reverse=True))
    return Setting(h, lo)  # type: ignore[arg-type]


def validate_setting(dealt: Sequence[Card], high: Sequence[Card],
                     low: Sequence[Card]) -> Setting:
    """Check a player's setting against 579.11(d) and return it.

    Every message starts with its citation, "579.11(d): ", once; callers show it as is.

    Errors (``HiLoSettingError.code``):

    * ``hilo_wrong_hand_sizes`` — the high hand is not three cards or the low hand not two
      (or either is not a list of cards at all);
    * ``hilo_cards_not_dealt`` — the two hands are not exactly the five cards dealt;
    * ``hilo_two_aces_low`` — more than one ace in the low hand (579.11(d) proviso);
    * ``hilo_low_card_above_high`` — a low-hand card is worth more points than a high-hand
      card: the three higher-valued cards must go high (579.11(d)), an ace counting 11
      where it is placed high and 1 where it is placed low.
    """
    dealt = _five(dealt)
    high = _hand_cards(high, "high")
    low = _hand_cards(low, "low")
    if len(high) != 3 or len(low) != 2:
        raise HiLoSettingError(
            f"579.11(d): the high hand is three cards and the low hand two, "
            f"not {len(high)} and {len(low)}", code="hilo_wrong_hand_sizes")
    if sorted(list(high) + list(low)) != sorted(dealt):
        raise HiLoSettingError("579.11(d): the high and low hands must be exactly the five "
                               "cards dealt "
                               f"({format_cards(sorted(dealt, reverse=True), ' ')})",
                               code="hilo_cards_not_dealt")
    if sum(1 for c in low if c >> 2 == ACE) > 1:
        raise HiLoSettingError("579.11(d): at most one ace may be placed in the low hand",
                               code="hilo_two_aces_low")
    lowest_high = min(point_value(c, in_low=False) for c in high)
    highest_low = max(point_value(c, in_low=True) for c in low)
    if highest_low > lowest_high:
        raise HiLoSettingError(
            f"579.11(d): the three higher-value cards go in the high hand, but the low hand "
            f"holds a {highest_low}-point card and the high hand a {lowest_high}-point card",
            code="hilo_low_card_above_high")
    return _canonical(high, low)


def legal_settings(dealt: Sequence[Card]) -> list[Setting]:
    """Every setting of the five cards that :func:`validate_setting` accepts.

    Cards of equal points give several settings with the same totals; all are listed
    (sorted, without duplicates), so a table can show the player every legal choice.
    """
    dealt = _five(dealt)
    out: list[Setting] = []
    for low in combinations(dealt, 2):
        high = [c for c in dealt if c not in low]
        try:
            out.append(validate_setting(dealt, high, low))
        except HiLoSettingError:
            continue
    return sorted(set(out), key=lambda s: (s.high, s.low))


def distinct_setting_totals(dealt: Sequence[Card]) -> list[tuple[int, int]]:
    """The (high total, low total) pairs a player can choose between (one or two)."""
    return sorted({s.totals for s in legal_settings(dealt)}, reverse=True)


def dealer_setting(dealt: Sequence[Card]) -> Setting:
    """579.11(e): the dealer sets the three highest-valued cards high, aces counted high
    (11) and kept in the high hand — unless dealt four aces, when the fourth ace has to go
    low, where it counts 1 (579.6(a)).

    Which of several equal-valued cards goes where does not change the totals; the higher
    rank (then suit) is put high so the result is deterministic.
    """
    dealt = _five(dealt)
    order = sorted(dealt, key=lambda c: (point_value(c, in_low=False), c), reverse=True)
    return _canonical(order[:3], order[3:])


class Result(StrEnum):
    WIN = "win"
    LOSE = "lose"
    TIE = "tie"


def _totals(s: Setting | tuple[int, int]) -> tuple[int, int]:
    """The (high, low) point totals of a Setting or of a pair of whole numbers."""
    if isinstance(s, Setting):
        return s.totals
    if (isinstance(s, Sequence) and not isinstance(s, (str, bytes)) and len(s) == 2
            and all(isinstance(t, Integral) and not isinstance(t, bool) for t in s)):
        return int(s[0]), int(s[1])
    raise HiLoSettingError(f"a setting is a Setting or a pair of whole-number point totals "
                           f"(high, low), not {s!r}", code="invalid_setting")


def ante_play_result(player: Setting | tuple[int, int],
                     dealer: Setting | tuple[int, int]) -> Result:
    """579.11(g): win when the player's high is higher **and** low is lower; lose when the
    high ties or is lower **and** the low ties or is higher; anything else is a tie."""
    ph, pl = _totals(player)
    dh, dl = _totals(dealer)
    if ph > dh and pl < dl:
        return Result.WIN
    if ph <= dh and pl >= dl:
        return Result.LOSE
    return Result.TIE


def settle_ante_play(player: Setting | tuple[int, int], dealer: Setting | tuple[int, int],
                     ante_cents: int) -> tuple[int, int]:
    """Cents returned on (Ante, Play): the Play equals the Ante (579.11(b)); winners are
    paid 1 to 1 (579.12(a)), ties returned (579.11(g)(3)), losers collected. The Ante
    is a positive whole number of cents."""
    check_wager(ante_cents, what="Ante")
    result = ante_play_result(player, dealer)
    table = PAYTABLES["579-ante-play"]
    if result is Result.WIN:
        each = table.total_returned(ante_cents, PayHand.WIN)
    elif result is Result.TIE:
        each = ante_cents
    else:
        each = 0
    return each, each


def tie_wager_hand(player: Setting | tuple[int, int],
                   dealer: Setting | tuple[int, int]) -> PayHand | None:
    """579.11(j)(1), 579.12(c): which Tie Wager line pays (both, high, low), else None."""
    ph, pl = _totals(player)
    dh, dl = _totals(dealer)
    if ph == dh and pl == dl:
        return PayHand.BOTH_HANDS_TIE
    if ph == dh:
        return PayHand.HIGH_HANDS_TIE
    if pl == dl:
        return PayHand.LOW_HANDS_TIE
    return None


def ante_bonus_hand(dealt: Sequence[Card]) -> PayHand | None:
    """579.11(h), 579.12(b): three or more aces among the player's five cards.

    Judged on the five cards dealt, whatever the setting and the outcome of the Ante and
    Play. "Four aces and one 2" is four aces with a deuce as the fifth card.
    """
    dealt = _five(dealt)
    counts = Counter(c >> 2 for c in dealt)
    aces = counts[ACE]
    if aces == 4:
        return PayHand.FOUR_ACES_AND_A_DEUCE if counts[DEUCE] == 1 else PayHand.FOUR_ACES
    if aces == 3:
        return PayHand.THREE_ACES
    return None


_POKER_BONUS = {
    Category.STRAIGHT_FLUSH: PayHand.STRAIGHT_FLUSH,
    Category.FOUR_OF_A_KIND: PayHand.FOUR_OF_A_KIND,
    Category.FULL_HOUSE: PayHand.FULL_HOUSE,
    Category.FLUSH: PayHand.FLUSH,
    Category.STRAIGHT: PayHand.STRAIGHT,
    Category.THREE_OF_A_KIND: PayHand.THREE_OF_A_KIND,
    Category.TWO_PAIR: PayHand.TWO_PAIR,
}


#: The Poker Bonus paytables of 579.12(d).
_POKER_BONUS_TABLES = tuple(name for name, t in PAYTABLES.items() if t.section == "579.12(d)")


def poker_bonus_hand(dealt: Sequence[Card], paytable: str = "579-poker-bonus-A"
                     ) -> PayHand | None:
    """579.6(b), 579.11(j)(2): the Poker Bonus hand of the player's five cards, or None.

    The lowest paying hand depends on the paytable: a pair of 7s or better on the table
    whose bottom line is ``pair_of_sevens_or_better``, of 6s or better on the other.
    ``paytable`` must name a Poker Bonus paytable (579.12(d)).
    """
    dealt = _five(dealt)
    table = get_paytable(paytable)
    if table.name not in _POKER_BONUS_TABLES:
        raise PaytableError(f"'{table.name}' is not a Poker Bonus paytable; expected one of: "
                            + ", ".join(_POKER_BONUS_TABLES), code="unknown_paytable")
    v = high5(dealt)
    cat = Category(v >> CATEGORY_SHIFT)
    if cat is Category.STRAIGHT_FLUSH and is_royal(v):
        return PayHand.ROYAL_FLUSH
    if cat in _POKER_BONUS:
        return _POKER_BONUS[cat]
    if cat is Category.ONE_PAIR:
        pair = ranks_of(v)[0]
        if PayHand.PAIR_OF_SEVENS_OR_BETTER in table.hands:
            return PayHand.PAIR_OF_SEVENS_OR_BETTER if pair >= SEVEN else None
        if PayHand.PAIR_OF_SIXES_OR_BETTER in table.hands:
            return PayHand.PAIR_OF_SIXES_OR_BETTER if pair >= SIX else None
    return None
