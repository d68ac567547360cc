"""Lunar Poker: ranking with *ace-king*, dealer qualification, Super Wager and instant-payout
hands, the second Bet combination, and the Ante/Bet settlement of a showdown.

Two rulebooks: chapter 589 (2013, temporary) and chapter 671a (2016). They share the
ranking (589.6(a)-(c), 671a.6(a)-(c)) and the Bet paytable, but differ in the Super Wager
hands (589.6(d) vs 671a.6(d)), the instant paytables, and what happens when the dealer
does not qualify (589.11(e)(2) vs 671a.11(f)(1), 671a.12(c)).

A Lunar *value* is an ``int``, larger is better, equal values tie:
``value >> 20`` is the :class:`LunarCategory` and the low 20 bits are the compared ranks of
:mod:`casino.domain.hands.high`. Adding *ace-king* below one pair does not change the order
of the standard ranking (every ace-king hand already beats every other no-pair hand), so
the comparison of 589.6(c) is the standard one; the category only names the hand.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from itertools import combinations

from casino.domain.cards import (
    ACE, RANK_NAMES, RANK_PLURALS, Card, CardCountError, check_cards, format_cards,
)
from casino.domain.errors import DomainError
from casino.domain.hands.high import CATEGORY_SHIFT, Category, high5, ranks_of
from casino.domain.money import check_wager, format_money
from tables.domain.paytables import PAYTABLES, Odds, PayHand

KING = 11
QUEEN = 10
JACK = 9
_LOW_BITS = (1 << CATEGORY_SHIFT) - 1


class Rulebook(StrEnum):
    """Which chapter governs the table: the 2013 temporary rules or the 2016 chapter."""

    CH589 = "589"
    CH671A = "671a"


class LunarCategory(IntEnum):
    """589.6(b) / 671a.6(b), lowest first; NO_HAND is anything below ace-king."""

    NO_HAND = 0
    ACE_KING = 1
    ONE_PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9
    ROYAL_FLUSH = 10

    @property
    def pay_hand(self) -> PayHand | None:
        """The line of the Bet paytable (589.12(c), 671a.12(d)) for this category."""
        return None if self is LunarCategory.NO_HAND else PayHand(self.name.lower())

    @property
    def label(self) -> str:
        return "No hand" if self is LunarCategory.NO_HAND else self.pay_hand.label


_FROM_HIGH = {
    Category.ONE_PAIR: LunarCategory.ONE_PAIR,
    Category.TWO_PAIR: LunarCategory.TWO_PAIR,
    Category.THREE_OF_A_KIND: LunarCategory.THREE_OF_A_KIND,
    Category.STRAIGHT: LunarCategory.STRAIGHT,
    Category.FLUSH: LunarCategory.FLUSH,
    Category.FULL_HOUSE: LunarCategory.FULL_HOUSE,
    Category.FOUR_OF_A_KIND: LunarCategory.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH: LunarCategory.STRAIGHT_FLUSH,
}


class LunarError(DomainError):
    code = "lunar_invalid"


def _rulebook(rulebook: Rulebook | str) -> Rulebook:
    """The :class:`Rulebook` named by ``rulebook``; anything else is a LunarError."""
    try:
        return Rulebook(rulebook)
    except (ValueError, TypeError):
        raise LunarError(f"unknown rulebook {rulebook!r}; expected one of: "
                         + ", ".join(r.value for r in Rulebook),
                         code="unknown_rulebook") from None


# --- ranking ----------------------------------------------------------------------------

def lunar_value_from_high(high_value: int) -> int:
    """Re-label a standard high value (from ``high5``) with its Lunar category."""
    cat = Category(high_value >> CATEGORY_SHIFT)
    low = high_value & _LOW_BITS
    if cat is Category.HIGH_CARD:
        r = ranks_of(high_value)
        # 589.6(b)(10): an ace and a king; with no pair they are the two top ranks
        lc = LunarCategory.ACE_KING if r[0] == ACE and r[1] == KING else LunarCategory.NO_HAND
    elif cat is Category.STRAIGHT_FLUSH and ranks_of(high_value)[0] == ACE:
        lc = LunarCategory.ROYAL_FLUSH  # 589.6(b)(1)
    else:
        lc = _FROM_HIGH[cat]
    return (int(lc) << CATEGORY_SHIFT) | low


def lunar_value(cards: Sequence[Card]) -> int:
    """Value of exactly five cards under 589.6(b)-(c) / 671a.6(b)-(c)."""
    return lunar_value_from_high(high5(cards))


def lunar_category(value: int) -> LunarCategory:
    return LunarCategory(value >> CATEGORY_SHIFT)


def lunar_ranks(value: int) -> list[int]:
    """The compared ranks of a Lunar value, most significant first (as ``high.ranks_of``)."""
    high = (int(_to_high_category(lunar_category(value))) << CATEGORY_SHIFT) | (value & _LOW_BITS)
    return ranks_of(high)


def best_lunar(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """Best five-card hand of five or six cards (a bought sixth card, 589.11(d)(2)(ii)).

    Returns (value, the five cards). With six cards several fives can share the best value;
    the first in card order is returned (use :func:`bet_payout` for the payout, which
    considers all of them).
    """
    _check_count(cards, (5, 6))
    best = max(combinations(cards, 5), key=lunar_value)
    return lunar_value(best), tuple(best)


def describe_lunar(value: int) -> str:
    """"Ace-king, queen high", "One pair, aces", "Royal flush", "No hand, queen high"."""
    lc = lunar_category(value)
    r = lunar_ranks(value)
    if lc is LunarCategory.ROYAL_FLUSH:
        return "Royal flush"
    if lc is LunarCategory.ACE_KING:
        return f"Ace-king, {RANK_NAMES[r[2]]} kicker"
    if lc is LunarCategory.NO_HAND:
        return f"No hand, {RANK_NAMES[r[0]]} high"
    if lc is LunarCategory.STRAIGHT_FLUSH:
        return f"Straight flush, {RANK_NAMES[r[0]]} high"
    if lc is LunarCategory.FOUR_OF_A_KIND:
        return f"Four-of-a-kind, {RANK_PLURALS[r[0]]}"
    if lc is LunarCategory.FULL_HOUSE:
        return f"Full house, {RANK_PLURALS[r[0]]} over {RANK_PLURALS[r[1]]}"
    if lc is LunarCategory.FLUSH:
        return f"Flush, {RANK_NAMES[r[0]]} high"
    if lc is LunarCategory.STRAIGHT:
        return f"Straight, {RANK_NAMES[r[0]]} high"
    if lc is LunarCategory.THREE_OF_A_KIND:
        return f"Three-of-a-kind, {RANK_PLURALS[r[0]]}"
    if lc is LunarCategory.TWO_PAIR:
        return f"Two pairs, {RANK_PLURALS[r[0]]} and {RANK_PLURALS[r[1]]}"
    return f"One pair, {RANK_PLURALS[r[0]]}"


def _to_high_category(lc: LunarCategory) -> Category:
    if lc in (LunarCategory.NO_HAND, LunarCategory.ACE_KING):
        return Category.HIGH_CARD
    if lc is LunarCategory.ROYAL_FLUSH:
        return Category.STRAIGHT_FLUSH
    return next(h for h, l in _FROM_HIGH.items() if l is lc)


def dealer_qualifies(value: int) -> bool:
    """The dealer plays with ace-king or better (589.11(e)(1), 671a.11(f)(2))."""
    return lunar_category(value) >= LunarCategory.ACE_KING


def forced_dealer_discard(dealer_cards: Sequence[Card]) -> Card:
    """589.11(e)(2)(ii): when forced, the dealer swaps the highest-ranking card.

    Only a non-qualifying hand is forced, and such a hand has five different ranks, so the
    highest card is unique.
    """
    _check_count(dealer_cards, (5,))
    if dealer_qualifies(lunar_value(dealer_cards)):
        raise LunarError("the dealer qualifies; only a non-qualifying dealer can be forced",
                         code="dealer_qualified")
    return max(dealer_cards, key=lambda c: c >> 2)


# --- Super Wager and instant payout ---------------------------------------------------

def _is_red(c: Card) -> bool:
    return (c & 3) in (1, 2)  # diamonds and hearts; clubs and spades are black


def _same_color(cards: Sequence[Card]) -> bool:
    return len({_is_red(c) for c in cards}) == 1


def super_hand_589(cards: Sequence[Card]) -> PayHand | None:
    """The 589.6(d) hand a five-card hand pays on the Super Wager (589.12(b)), else None.

    The best-paying hand counts (589.11(c)(2)(ii)); a royal or straight flush is a
    same-colored straight (same paragraph). Ace-king (589.6(d)(7)) means the five cards
    hold an ace and a king, paired or not — the worked example of 589.11(e)(1)(ii) finds an
    ace-king inside A-A-K-8-9.
    """
    _check_count(cards, (5,))
    cat = Category(high5(cards) >> CATEGORY_SHIFT)
    ranks = {c >> 2 for c in cards}
    if cat is Category.FOUR_OF_A_KIND:
        return PayHand.FOUR_OF_A_KIND
    if cat is Category.STRAIGHT_FLUSH or (cat is Category.STRAIGHT and _same_color(cards)):
        return PayHand.SAME_COLORED_STRAIGHT
    if cat is Category.FULL_HOUSE:
        return PayHand.FULL_HOUSE
    if cat is Category.FLUSH:
        return PayHand.FLUSH
    if cat is Category.STRAIGHT:
        return PayHand.STRAIGHT
    if cat is Category.THREE_OF_A_KIND:
        return PayHand.THREE_OF_A_KIND
    if ACE in ranks and KING in ranks:
        return PayHand.ACE_KING
    if _same_color(cards):
        return PayHand.SAME_COLORED_FIVE
    return None


def super_hand_671a(cards: Sequence[Card]) -> PayHand | None:
    """The 671a.6(d) hand a five-card hand pays on the Super Wager (671a.12(b)), else None.

    Read literally: a flush is five of a suit *not in consecutive order* and a straight is
    *more than one suit* (671a.6(d)(4)-(5)), and unlike 589.11(c)(2)(ii) the 2016 chapter
    does not promote a straight flush, so a straight flush pays as ace-king-queen (royal)
    or same colored five; the instant payout covers it on the Ante. Five picture cards is
    five of J/Q/K (it outranks the full houses it contains).
    """
    _check_count(cards, (5,))
    cat = Category(high5(cards) >> CATEGORY_SHIFT)
    ranks = {c >> 2 for c in cards}
    if cat is Category.FOUR_OF_A_KIND:
        return PayHand.FOUR_OF_A_KIND
    if ranks <= {JACK, QUEEN, KING}:
        return PayHand.FIVE_PICTURE_CARDS
    if cat is Category.FULL_HOUSE:
        return PayHand.FULL_HOUSE
    if cat is Category.FLUSH:
        return PayHand.FLUSH
    if cat is Category.STRAIGHT:
        return PayHand.STRAIGHT
    if cat is Category.THREE_OF_A_KIND:
        return PayHand.THREE_OF_A_KIND
    if {ACE, KING, QUEEN} <= ranks:
        return PayHand.ACE_KING_QUEEN
    if _same_color(cards):
        return PayHand.SAME_COLORED_FIVE
    return None


def super_hand(rulebook: Rulebook | str, cards: Sequence[Card]) -> PayHand | None:
    """Super Wager hand of five cards under the given rulebook (589.6(d) or 671a.6(d))."""
    if _rulebook(rulebook) is Rulebook.CH589:
        return super_hand_589(cards)
    return super_hand_671a(cards)


def instant_payout_hand(cards: Sequence[Card]) -> PayHand | None:
    """Royal or straight flush in the first five cards (589.11(c)(1), 671a.11(b)(2))."""
    _check_count(cards, (5,))
    lc = lunar_category(lunar_value(cards))
    if lc is LunarCategory.ROYAL_FLUSH:
        return PayHand.ROYAL_FLUSH
    if lc is LunarCategory.STRAIGHT_FLUSH:
        return PayHand.STRAIGHT_FLUSH
    return None


# --- combinations and the second Bet payout -------------------------------------------

@dataclass(frozen=True)
class Combination:
    """A 589.6(b) hand formed by some of the player's cards: the cards that make it.

    A pair is its two cards, two pairs four, three-of-a-kind three, four-of-a-kind four,
    ace-king its ace and king; straights, flushes and full houses are five cards.
    ``ranks`` order combinations of one category (higher is better).
    """

    category: LunarCategory
    cards: tuple[Card, ...]
    ranks: tuple[int, ...]

    @property
    def pay_hand(self) -> PayHand:
        return self.category.pay_hand  # type: ignore[return-value]

    def bet_odds(self, rulebook: Rulebook | str = Rulebook.CH589) -> Odds:
        return _bet_table(rulebook).odds_for(self.pay_hand)  # type: ignore[return-value]

    def describe(self) -> str:
        return f"{self.category.label} ({format_cards(self.cards, ' ')})"

    def _key(self) -> tuple:
        return (self.category, self.ranks)


def _bet_table(rulebook: Rulebook | str):
    return PAYTABLES["589-bet" if _rulebook(rulebook) is Rulebook.CH589 else "671a-bet"]


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, reverse=True))


def combinations_in(cards: Sequence[Card]) -> list[Combination]:
    """Every 589.6(b) combination that some of ``cards`` (five or six) form."""
    _check_count(cards, (5, 6))
    by_rank: dict[int, list[Card]] = defaultdict(list)
    for c in cards:
        by_rank[c >> 2].append(c)
    out: list[Combination] = []
    pairs: list[tuple[int, tuple[Card, ...]]] = []
    trips: list[tuple[int, tuple[Card, ...]]] = []
    for r, cs in by_rank.items():
        for p in combinations(cs, 2):
            pairs.append((r, p))
            out.append(Combination(LunarCategory.ONE_PAIR, _sorted(p), (r,)))
        for t in combinations(cs, 3):
            trips.append((r, t))
            out.append(Combination(LunarCategory.THREE_OF_A_KIND, _sorted(t), (r,)))
        if len(cs) == 4:
            out.append(Combination(LunarCategory.FOUR_OF_A_KIND, _sorted(cs), (r,)))
    for (r1, p1), (r2, p2) in combinations(pairs, 2):
        if r1 != r2:
            hi, lo = max(r1, r2), min(r1, r2)
            out.append(Combination(LunarCategory.TWO_PAIR, _sorted(p1 + p2), (hi, lo)))
    for rt, t in trips:
        for rp, p in pairs:
            if rp != rt:
                out.append(Combination(LunarCategory.FULL_HOUSE, _sorted(t + p), (rt, rp)))
    for a in by_rank.get(ACE, ()):
        for k in by_rank.get(KING, ()):
            out.append(Combination(LunarCategory.ACE_KING, _sorted((a, k)), (ACE, KING)))
    for five in combinations(cards, 5):
        v = lunar_value(five)
        lc = lunar_category(v)
        if lc in (LunarCategory.STRAIGHT, LunarCategory.FLUSH, LunarCategory.STRAIGHT_FLUSH,
                  LunarCategory.ROYAL_FLUSH):
            out.append(Combination(lc, _sorted(five), tuple(lunar_ranks(v))))
    return out


def combination_of_five(cards: Sequence[Card]) -> Combination | None:
    """The combination a five-card hand is ranked by (None below ace-king)."""
    _check_count(cards, (5,))
    v = lunar_value(cards)
    lc = lunar_category(v)
    if lc is LunarCategory.NO_HAND:
        return None
    ranks = tuple(lunar_ranks(v))
    if lc in (LunarCategory.STRAIGHT, LunarCategory.FLUSH, LunarCategory.FULL_HOUSE,
              LunarCategory.STRAIGHT_FLUSH, LunarCategory.ROYAL_FLUSH):
        used = tuple(cards)
        key = ranks if lc is not LunarCategory.FULL_HOUSE else ranks[:2]
    elif lc is LunarCategory.ACE_KING:
        used = tuple(c for c in cards if c >> 2 in (ACE, KING))
        key = (ACE, KING)
    else:
        counts: dict[int, int] = defaultdict(int)
        for c in cards:
            counts[c >> 2] += 1
        used = tuple(c for c in cards if counts[c >> 2] >= 2)
        key = ranks[:2] if lc is LunarCategory.TWO_PAIR else ranks[:1]
    return Combination(lc, _sorted(used), key)


@dataclass(frozen=True)
class BetPayout:
    """What a winning Bet is paid for: the winning combination and the second one."""

    value: int  # Lunar value of the player's best five cards
    five: tuple[Card, ...]  # those five cards
    winning: Combination
    second: Combination | None

    def odds(self, rulebook: Rulebook | str) -> tuple[Odds, Odds | None]:
        return (self.winning.bet_odds(rulebook),
                None if self.second is None else self.second.bet_odds(rulebook))

    def bet_returned(self, rulebook: Rulebook | str, bet_cents: int) -> int:
        """Bet returned plus X × Bet for the winning and Y × Bet for the second combination.

        The second payout is a further *winning Bet Wager* (589.11(e)(1)(ii),
        671a.11(f)(2)(ii)): its winnings are added, the Bet is not returned twice.
        """
        win_odds, second_odds = self.odds(rulebook)
        total = win_odds.total_returned(bet_cents)
        if second_odds is not None:
            total += second_odds.winnings(bet_cents)
        return total


def bet_payout(cards: Sequence[Card]) -> BetPayout | None:
    """The winning and second combinations of a player's five or six cards.

    589.11(e)(1)(ii), 671a.11(f)(2)(ii): the winning combination is the one the best
    five-card hand is ranked by; a second combination is any 589.6(b) combination among all
    the player's cards (all six after a bought sixth card) with at least one card outside the
    winning combination. The best-paying one is paid (then the higher ranking). When several
    five-card selections give the same best hand, the one leaving the best second
    combination is used. None when the player has less than ace-king (such a hand cannot
    beat a qualifying dealer).
    """
    _check_count(cards, (5, 6))
    fives = list(combinations(cards, 5))
    values = [lunar_value(f) for f in fives]
    best_value = max(values)
    if lunar_category(best_value) is LunarCategory.NO_HAND:
        return None
    all_combos = combinations_in(cards)
    best: BetPayout | None = None
    for five, v in zip(fives, values):
        if v != best_value:
            continue
        win = combination_of_five(five)
        if win is None:  # cannot happen: the best value is ace-king or better
            raise RuntimeError("internal error: a best five of ace-king or better "
                               "has no combination")
        used = set(win.cards)
        seconds = [c for c in all_combos if not set(c.cards) <= used]
        second = max(seconds, key=_second_key, default=None)
        candidate = BetPayout(best_value, _sorted(five), win, second)
        if best is None or _second_key(second) > _second_key(best.second):
            best = candidate
    return best


def _second_key(c: Combination | None) -> tuple:
    if c is None:
        return (-1,)
    # the Bet paytable pays more for every higher category except pair = ace-king (1 to 1),
    # where the category order settles it; same for both rulebooks
    return (c.bet_odds().amount, c.category, c.ranks)


# --- settlement of the Ante and Bet ---------------------------------------------------

class Outcome(StrEnum):
    PLAYER_WINS = "player_wins"
    DEALER_WINS = "dealer_wins"
    TIE = "tie"
    DEALER_DOES_NOT_QUALIFY = "dealer_does_not_qualify"


@dataclass(frozen=True)
class AnteBetSettlement:
    outcome: Outcome
    ante_returned: int  # cents handed back on the Ante (0 = lost)
    bet_returned: int  # cents handed back on the Bet (0 = lost)
    payout: BetPayout | None  # winning/second combinations when the player wins


def settle_ante_and_bet(rulebook: Rulebook | str, player_cards: Sequence[Card],
                        dealer_cards: Sequence[Card], ante_cents: int, bet_cents: int, *,
                        dealer_was_forced: bool = False) -> AnteBetSettlement:
    """Settle a player who made the Bet against the dealer's five cards.

    * dealer qualifies (ace-king or better): higher player → Ante returned, Bet paid by
      589.12(c) / 671a.12(d) plus the second combination; lower → both lost; equal → both
      returned (589.11(e)(1), 671a.11(f)(2)).
    * dealer does not qualify: Bet returned; Ante paid 1 to 1 (589.12(d)), or under 671a
      1 to 1 or 4 to 1 with a straight or better (671a.12(c)). Under 589, a player may
      instead force the dealer (589.11(e)(2)(ii)): call again with the dealer's new cards
      and ``dealer_was_forced=True``; if the dealer still does not qualify, Ante and Bet
      are returned ((e)(2)(ii)(A)).

    The Ante and the Bet are positive whole cents and the Bet must be twice the Ante
    (589.11(b)(2), 671a.11(b)(2)). ``player_cards`` are the player's final cards (after
    any exchange or bought sixth card). Refusing a Bet on a dealt royal or straight flush
    (589.11(b)(2), 671a.11(b)(2)) is the round's job: only the round knows which cards
    were dealt and which were drawn, and a straight flush made by a draw is paid here.
    """
    check_wager(ante_cents, what="Ante")
    check_wager(bet_cents, what="Bet")
    if bet_cents != 2 * ante_cents:
        raise LunarError(f"the Bet must be twice the Ante ({format_money(2 * ante_cents)}), "
                         f"not {format_money(bet_cents)}", code="bet_not_twice_ante")
    rb = _rulebook(rulebook)
    player_cards = _check_count(player_cards, (5, 6))
    dealer_cards = _check_count(dealer_cards, (5,))
    check_cards(player_cards + dealer_cards)
    if dealer_was_forced and rb is not Rulebook.CH589:
        raise LunarError("forcing the dealer exists only under chapter 589",
                         code="force_not_offered")
    player_value, _ = best_lunar(player_cards)
    dealer_value = lunar_value(dealer_cards)
    if not dealer_qualifies(dealer_value):
        if dealer_was_forced:
            return AnteBetSettlement(Outcome.DEALER_DOES_NOT_QUALIFY, ante_cents, bet_cents,
                                     None)
        if rb is Rulebook.CH589:
            ante = PAYTABLES["589-ante"].total_returned(ante_cents, PayHand.WIN)
        else:
            hand = (PayHand.STRAIGHT_OR_BETTER
                    if lunar_category(player_value) >= LunarCategory.STRAIGHT else PayHand.WIN)
            ante = PAYTABLES["671a-ante-no-qualify"].total_returned(ante_cents, hand)
        return AnteBetSettlement(Outcome.DEALER_DOES_NOT_QUALIFY, ante, bet_cents, None)
    if player_value > dealer_value:
        payout = bet_payout(player_cards)
        if payout is None:  # cannot happen: it beats ace-king or better
            raise RuntimeError("internal error: a hand beating a qualifying dealer "
                               "has no Bet payout")
        return AnteBetSettlement(Outcome.PLAYER_WINS, ante_cents,
                                 payout.bet_returned(rb, bet_cents), payout)
    if player_value < dealer_value:
        return AnteBetSettlement(Outcome.DEALER_WINS, 0, 0, None)
    return AnteBetSettlement(Outcome.TIE, ante_cents, bet_cents, None)


def _check_count(cards: Sequence[Card], allowed: tuple[int, ...]) -> list[Card]:
    if len(cards) not in allowed:
        want = " or ".join(str(n) for n in allowed)
        raise CardCountError(f"expected {want} cards, got {len(cards)}")
    return check_cards(cards)
