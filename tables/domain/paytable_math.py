"""Paytable mathematics: exact figures by enumerating every five-card hand, and seeded
simulations for the wagers that depend on the dealer's hand.

Exact (all C(52, 5) = 2,598,960 hands, integer counts, ``Fraction`` results) for every
paytable judged only on the five cards of one hand:

* Lunar Poker Super Wager (589.12(b) A-C, 671a.12(b)) — a stand-alone wager: RTP and
  house edge. (The 671a Super Wager on the dealer's or another player's hand is judged the
  same way on that hand's five cards, so its figures are the same.)
* Lunar Poker instant payout (589.12(a) A-H, 671a.12(a) A-C) and Five Card Hi-Lo Ante Bonus
  (579.12(b) A-D) — not wagers of their own but extra payouts on the Ante, so the figure is
  the expected extra amount paid per unit of Ante (``bonus_per_unit``), with the hit
  frequency; RTP / house edge do not apply.
* Five Card Hi-Lo Poker Bonus (579.12(d) A/B) — a stand-alone wager judged on the
  player's five cards (579.11(j)(2)), settled even if the player folds (579.11(b)(2)).

Simulated (seeded, with a 95 % confidence interval) — they need the dealer's cards:

* ``589-ante-bet`` / ``671a-ante-bet``: Lunar Ante + Bet under the strategy of
  :func:`lunar_strategy_doc`;
* ``579-ante-play``: Hi-Lo Ante + Play, and ``579-tie``: the Tie Wager, both under the
  strategy of :func:`hilo_strategy_doc`.

Everything is per unit of the initial wager; all payouts are whole multiples of it, so the
per-round results are integers and the mean is an exact fraction of the sample.
"""

from __future__ import annotations

import itertools
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache

import numpy as np
from tqdm import tqdm

from casino.domain.errors import DomainError
from casino.domain.hands.fast import high_batch
from tables.domain.hands.lunar import LunarCategory
from tables.domain.paytables import PAYTABLES, OddsKind, Paytable, PayHand, get_paytable

TOTAL_HANDS = math.comb(52, 5)  # 2,598,960
_CHUNK = 1 << 18

_ACE, _KING, _QUEEN, _JACK = 12, 11, 10, 9


class ReportError(DomainError):
    code = "invalid_report_option"


# --------------------------------------------------------------------------- hands

@cache
def all_five_card_hands() -> np.ndarray:
    """Every five-card hand once, as an ``(2598960, 5)`` uint8 array (cards ascending)."""
    a = np.fromiter(itertools.combinations(range(52), 5), dtype=np.dtype((np.uint8, 5)),
                    count=TOTAL_HANDS)
    a.setflags(write=False)
    return a


@cache
def all_five_card_values() -> np.ndarray:
    """``high_batch`` of :func:`all_five_card_hands` (computed once per process)."""
    v = high_batch(all_five_card_hands())
    v.setflags(write=False)
    return v


def _cat(v: np.ndarray) -> np.ndarray:
    return v >> 20


def _top(v: np.ndarray, i: int) -> np.ndarray:
    """The i-th packed rank of a high value (0 = most significant)."""
    return (v >> (16 - 4 * i)) & 0xF


def _has_rank(ranks: np.ndarray, r: int) -> np.ndarray:
    return (ranks == r).any(axis=1)


def _same_color(suits: np.ndarray) -> np.ndarray:
    red = (suits == 1) | (suits == 2)  # diamonds, hearts
    n = red.sum(axis=1)
    return (n == 0) | (n == 5)


# --------------------------------------------------------------------------- classifiers
# Each classifier maps an (n, 5) card array and its high values to a PayHand per row
# (index into the table's lines, -1 for no payout). They mirror, vectorised, the scalar
# rules in lunar.py / hilo.py; the tests check that they agree on samples.

def _lines_index(table: Paytable, masks: list[tuple[PayHand, np.ndarray]], n: int
                 ) -> np.ndarray:
    """First matching mask in priority order → that hand's line index in the table."""
    out = np.full(n, -1, dtype=np.int16)
    hands = table.hands
    for hand, mask in masks:
        out = np.where((out < 0) & mask, hands.index(hand), out)
    return out


def _classify_instant(table: Paytable, cards: np.ndarray, v: np.ndarray) -> np.ndarray:
    sf = _cat(v) == 8
    royal = sf & (_top(v, 0) == _ACE)
    return _lines_index(table, [(PayHand.ROYAL_FLUSH, royal), (PayHand.STRAIGHT_FLUSH, sf)],
                        len(v))


def _classify_589_super(table: Paytable, cards: np.ndarray, v: np.ndarray) -> np.ndarray:
    c = _cat(v)
    ranks, suits = cards >> 2, cards & 3
    same = _same_color(suits)
    ak = _has_rank(ranks, _ACE) & _has_rank(ranks, _KING)
    return _lines_index(table, [
        (PayHand.FOUR_OF_A_KIND, c == 7),
        # 589.11(c)(2)(ii): a royal or straight flush counts as a same-colored straight
        (PayHand.SAME_COLORED_STRAIGHT, (c == 8) | ((c == 4) & same)),
        (PayHand.FULL_HOUSE, c == 6),
        (PayHand.FLUSH, c == 5),
        (PayHand.STRAIGHT, c == 4),
        (PayHand.THREE_OF_A_KIND, c == 3),
        (PayHand.ACE_KING, ak),
        (PayHand.SAME_COLORED_FIVE, same),
    ], len(v))


def _classify_671a_super(table: Paytable, cards: np.ndarray, v: np.ndarray) -> np.ndarray:
    c = _cat(v)
    ranks, suits = cards >> 2, cards & 3
    same = _same_color(suits)
    pictures = ((ranks >= _JACK) & (ranks <= _KING)).all(axis=1)
    akq = _has_rank(ranks, _ACE) & _has_rank(ranks, _KING) & _has_rank(ranks, _QUEEN)
    return _lines_index(table, [
        (PayHand.FOUR_OF_A_KIND, c == 7),
        (PayHand.FIVE_PICTURE_CARDS, pictures),
        (PayHand.FULL_HOUSE, c == 6),
        (PayHand.FLUSH, c == 5),  # literal 671a.6(d)(4): straight flushes are not flushes
        (PayHand.STRAIGHT, c == 4),
        (PayHand.THREE_OF_A_KIND, c == 3),
        (PayHand.ACE_KING_QUEEN, akq),
        (PayHand.SAME_COLORED_FIVE, same),
    ], len(v))


def _classify_ante_bonus(table: Paytable, cards: np.ndarray, v: np.ndarray) -> np.ndarray:
    ranks = cards >> 2
    aces = (ranks == _ACE).sum(axis=1)
    deuce = _has_rank(ranks, 0)
    return _lines_index(table, [
        (PayHand.FOUR_ACES_AND_A_DEUCE, (aces == 4) & deuce),
        (PayHand.FOUR_ACES, aces == 4),
        (PayHand.THREE_ACES, aces == 3),
    ], len(v))


def _classify_poker_bonus(table: Paytable, cards: np.ndarray, v: np.ndarray) -> np.ndarray:
    c = _cat(v)
    sevens = PayHand.PAIR_OF_SEVENS_OR_BETTER in table.hands
    pair_hand = PayHand.PAIR_OF_SEVENS_OR_BETTER if sevens else PayHand.PAIR_OF_SIXES_OR_BETTER
    min_pair = 5 if sevens else 4  # rank 5 = seven, 4 = six
    return _lines_index(table, [
        (PayHand.ROYAL_FLUSH, (c == 8) & (_top(v, 0) == _ACE)),
        (PayHand.STRAIGHT_FLUSH, c == 8),
        (PayHand.FOUR_OF_A_KIND, c == 7),
        (PayHand.FULL_HOUSE, c == 6),
        (PayHand.FLUSH, c == 5),
        (PayHand.STRAIGHT, c == 4),
        (PayHand.THREE_OF_A_KIND, c == 3),
        (PayHand.TWO_PAIR, c == 2),
        (pair_hand, (c == 1) & (_top(v, 0) >= min_pair)),
    ], len(v))


@dataclass(frozen=True)
class _ExactSpec:
    classify: Callable[[Paytable, np.ndarray, np.ndarray], np.ndarray]
    standalone: bool  # a wager of its own (RTP applies) or an extra payout on the Ante
    note: str


def _spec(name: str) -> _ExactSpec:
    if "-instant-" in name:
        return _ExactSpec(_classify_instant, False,
                          "instant payout on the Ante for a royal/straight flush in the first "
                          "five cards; figure = expected instant winnings per unit Ante")
    if name.startswith("589-super-"):
        return _ExactSpec(_classify_589_super, True, "Super Wager on the player's five cards")
    if name == "671a-super":
        return _ExactSpec(_classify_671a_super, True,
                          "Super Wager on one five-card hand (player's own, dealer's or "
                          "another player's)")
    if name.startswith("579-ante-bonus-"):
        return _ExactSpec(_classify_ante_bonus, False,
                          "Ante Bonus paid on the Ante regardless of the outcome (579.11(h)); "
                          "figure = expected bonus per unit Ante ('for 1' odds paid as X x "
                          "Ante)")
    if name.startswith("579-poker-bonus-"):
        return _ExactSpec(_classify_poker_bonus, True,
                          "Poker Bonus Wager on the player's five cards")
    raise ReportError(f"paytable '{name}' depends on more than one hand's five cards; "
                      "it is simulated, not enumerated", code="not_enumerable")


#: Paytables whose figures are exact by enumeration, in report order.
EXACT_TABLES: tuple[str, ...] = tuple(
    n for n in PAYTABLES
    if "-instant-" in n or "-super" in n or "ante-bonus" in n or "poker-bonus" in n)


# --------------------------------------------------------------------------- exact

@dataclass(frozen=True)
class LineCount:
    hand: PayHand
    odds: str  # as written, e.g. "150 to 1"
    count: int  # number of the 2,598,960 hands paid on this line
    returned_per_unit: Fraction  # total handed back per unit wagered when this line hits


@dataclass(frozen=True)
class ExactFigures:
    table: str
    title: str
    section: str
    wager: str
    standalone: bool
    note: str
    total_hands: int
    lines: tuple[LineCount, ...]
    hit_frequency: Fraction
    #: stand-alone wagers: expected total returned per unit wagered; None otherwise
    rtp: Fraction | None
    house_edge: Fraction | None
    #: extra payouts on the Ante: expected amount paid per unit Ante; None otherwise
    bonus_per_unit: Fraction | None
    seconds: float = field(compare=False, default=0.0)


def pay_lines(name: str, cards: np.ndarray) -> np.ndarray:
    """Index into ``get_paytable(name).lines`` of the line each five-card row pays
    (-1: none), for the enumerable paytables."""
    table = get_paytable(name)
    a = np.asarray(cards, dtype=np.uint8)
    return _spec(name).classify(table, a, high_batch(a))


def line_counts(name: str, *, progress: bool = False) -> dict[PayHand, int]:
    """How many of the 2,598,960 five-card hands each line of the table pays."""
    table = get_paytable(name)
    spec = _spec(name)
    hands = all_five_card_hands()
    values = all_five_card_values()
    counts = np.zeros(len(table.lines), dtype=np.int64)
    with tqdm(total=TOTAL_HANDS, unit="hands", unit_scale=True, desc=name, file=sys.stderr,
              disable=not progress, leave=False) as bar:
        for i in range(0, TOTAL_HANDS, _CHUNK):
            idx = spec.classify(table, hands[i:i + _CHUNK], values[i:i + _CHUNK])
            counts += np.bincount(idx[idx >= 0], minlength=len(table.lines))
            bar.update(min(_CHUNK, TOTAL_HANDS - i))
    return {h: int(n) for h, n in zip(table.hands, counts)}


def figures_from_counts(table: Paytable, counts: dict[PayHand, int], *,
                        standalone: bool, note: str = "",
                        total: int = TOTAL_HANDS) -> ExactFigures:
    """Exact figures from line counts: RTP = Σ count × returned / total (stand-alone), or
    bonus per unit = Σ count × paid / total (extra payouts on the Ante)."""
    lines = []
    hits = 0
    returned = Fraction(0)
    for hand, odds in table.lines:
        n = counts.get(hand, 0)
        per_unit = Fraction(odds.total_returned(1))
        lines.append(LineCount(hand, str(odds), n, per_unit))
        hits += n
        if standalone:
            returned += n * per_unit
        elif odds.kind is OddsKind.FOR:
            returned += n * odds.amount  # the bonus itself is X x Ante (579.12(b))
        else:
            returned += n * odds.winnings(1)  # X to 1 on the Ante: X paid, Ante stays put
    hit = Fraction(hits, total)
    if standalone:
        rtp = returned / total
        return ExactFigures(table.name, table.title, table.section, table.wager, True, note,
                            total, tuple(lines), hit, rtp, 1 - rtp, None)
    return ExactFigures(table.name, table.title, table.section, table.wager, False, note,
                        total, tuple(lines), hit, None, None, returned / total)


def exact_figures(name: str, *, progress: bool = False) -> ExactFigures:
    """Exact RTP / house edge (or bonus per unit Ante) and hit frequency of a paytable."""
    started = time.perf_counter()
    table = get_paytable(name)
    spec = _spec(name)
    counts = line_counts(name, progress=progress)
    fig = figures_from_counts(table, counts, standalone=spec.standalone, note=spec.note)
    return replace(fig, seconds=time.perf_counter() - started)


def category_counts() -> dict[str, int]:
    """Standard high-category distribution of all five-card hands (a self-check)."""
    v = all_five_card_values()
    cats = np.bincount(_cat(v), minlength=9)
    royal = int(((_cat(v) == 8) & (_top(v, 0) == _ACE)).sum())
    names = ["high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
             "full_house", "four_of_a_kind", "straight_flush"]
    out = {n: int(c) for n, c in zip(names, cats)}
    out["royal_flush"] = royal
    return out


# --------------------------------------------------------------------------- simulation

@dataclass(frozen=True)
class SimulatedFigures:
    name: str
    title: str
    section: str
    strategy: str
    rounds: int
    seed: int
    mean_net: Fraction  # mean net result per unit of the initial wager (player's view)
    ci95: tuple[float, float]  # 95 % confidence interval of mean_net (normal approx.)
    house_edge: float  # -mean_net
    mean_wagered: Fraction  # average total staked per unit of the initial wager
    element_of_risk: float  # -mean_net / mean_wagered
    hit_frequency: float  # share of rounds with a net win
    seconds: float = field(compare=False, default=0.0)


def lunar_strategy_doc(rulebook: str) -> str:
    instant = "589-instant-A" if rulebook == "589" else "671a-instant-A"
    text = (f"royal/straight flush in the first five cards: instant payout ({instant}), no "
            "Bet; otherwise Bet (2 x Ante) with ace-king or better, fold below; never buy "
            "a card or exchange; Super Wager not included")
    if rulebook == "589":
        text += "; never force the dealer"
    return text


def hilo_strategy_doc() -> str:
    return ("set the hand by choosing, among the legal settings, the one with the best "
            "expected Ante+Play result against the dealer's setting over a full 52-card "
            "deck (card removal ignored); fold only when that expectation is below -1/2 "
            "(losing the Ante is then cheaper); Ante Bonus not included")


SIMULATIONS: dict[str, tuple[str, str]] = {
    "589-ante-bet": ("Lunar Poker (589) Ante and Bet", "589.11(b)-(e), 589.12(a),(c),(d)"),
    "671a-ante-bet": ("Lunar Poker (671a) Ante and Bet", "671a.11(b)-(f), 671a.12(a),(c),(d)"),
    "579-ante-play": ("Five Card Hi-Lo Ante and Play", "579.11(b),(d)-(g), 579.12(a)"),
    "579-tie": ("Five Card Hi-Lo Tie Wager", "579.11(j)(1), 579.12(c)"),
}


def _deal(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """``n`` independent deals of the top ``k`` cards of a shuffled deck."""
    keys = rng.random((n, 52))
    top = np.argpartition(keys, k, axis=1)[:, :k]
    # argpartition leaves the k smallest keys in no particular order; sort them by key so
    # the split between the hands (player first, dealer next) is itself random
    order = np.argsort(np.take_along_axis(keys, top, axis=1), axis=1)
    return np.take_along_axis(top, order, axis=1).astype(np.uint8)


def _lunar_qualifies(v: np.ndarray) -> np.ndarray:
    # ace-king or better (589.6(b)(10)): any pair or better, or A-K on top of a no-pair hand
    return (_cat(v) >= 1) | ((_top(v, 0) == _ACE) & (_top(v, 1) == _KING))


def lunar_second_ak_batch(cards: np.ndarray, v: np.ndarray) -> np.ndarray:
    """For five-card hands: does a winning hand also pay a second (ace-king) combination?

    With five cards the only possible second combination is an ace-king with at least one
    of its two cards outside the winning combination (589.11(e)(1)(ii)): one pair, two
    pairs (unless the aces and the kings are the two pairs), three- or four-of-a-kind
    holding an ace and a king. Straights, flushes and full houses use all five cards.
    The tests check this against :func:`lunar.bet_payout` on samples.
    """
    c = _cat(v)
    ranks = cards >> 2
    ak = _has_rank(ranks, _ACE) & _has_rank(ranks, _KING)
    aces_kings_paired = (c == 2) & (_top(v, 0) == _ACE) & (_top(v, 1) == _KING)
    return ak & np.isin(c, (1, 2, 3, 7)) & ~aces_kings_paired


def _bet_odds_by_high_category() -> tuple[np.ndarray, int]:
    """Bet payout 'X to 1' per high category (0..8, pair..straight flush) and for royals."""
    table = PAYTABLES["589-bet"]  # identical to 671a.12(d)
    lc_for_high = [LunarCategory.ACE_KING, LunarCategory.ONE_PAIR, LunarCategory.TWO_PAIR,
                   LunarCategory.THREE_OF_A_KIND, LunarCategory.STRAIGHT,
                   LunarCategory.FLUSH, LunarCategory.FULL_HOUSE,
                   LunarCategory.FOUR_OF_A_KIND, LunarCategory.STRAIGHT_FLUSH]
    odds = np.array([table.odds_for(lc.pay_hand).amount for lc in lc_for_high],
                    dtype=np.int64)
    return odds, table.odds_for(PayHand.ROYAL_FLUSH).amount


def lunar_rounds(rulebook: str, cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Net result and total staked per round, in units of the Ante, for ``(n, 10)`` deals
    (player's five cards, then the dealer's), under :func:`lunar_strategy_doc`."""
    player, dealer = cards[:, :5], cards[:, 5:10]
    pv, dv = high_batch(player), high_batch(dealer)
    instant = get_paytable("589-instant-A" if rulebook == "589" else "671a-instant-A")
    rf = instant.odds_for(PayHand.ROYAL_FLUSH).amount
    sf = instant.odds_for(PayHand.STRAIGHT_FLUSH).amount
    bet_odds, royal_bet = _bet_odds_by_high_category()
    pc = _cat(pv)
    is_sf = pc == 8
    is_royal = is_sf & (_top(pv, 0) == _ACE)
    plays = _lunar_qualifies(pv) & ~is_sf
    dq = _lunar_qualifies(dv)

    net = np.full(len(pv), -1, dtype=np.int64)  # fold: Ante lost
    staked = np.ones(len(pv), dtype=np.int64)
    net[is_sf] = np.where(is_royal[is_sf], rf, sf)
    staked[plays] = 3

    x = np.where(is_royal, royal_bet, bet_odds[np.minimum(pc, 8)])
    second = lunar_second_ak_batch(player, pv).astype(np.int64)  # ace-king pays 1 to 1
    win = plays & dq & (pv > dv)
    lose = plays & dq & (pv < dv)
    push = plays & dq & (pv == dv)
    net[win] = 2 * (x[win] + second[win])  # Ante returned; Bet (2 units) paid X (+ 1)
    net[lose] = -3
    net[push] = 0
    noq = plays & ~dq
    if rulebook == "589":
        net[noq] = 1  # 589.12(d): Ante 1 to 1, Bet returned
    else:
        net[noq] = np.where(pc[noq] >= 4, 4, 1)  # 671a.12(c): 4 to 1 with a straight or better
    return net, staked


# Hi-Lo -----------------------------------------------------------------------------

def _points_high(ranks: np.ndarray) -> np.ndarray:
    return np.where(ranks == _ACE, 11, np.minimum(ranks + 2, 10))


def _hilo_dealer_totals(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """579.11(e): three highest-valued cards high, aces high (11); four aces → one ace low (1)."""
    pts = np.sort(_points_high(cards.astype(np.int64) >> 2), axis=1)[:, ::-1]
    high = pts[:, :3].sum(axis=1)
    low = pts[:, 3:].sum(axis=1)
    four_aces = ((cards >> 2) == _ACE).sum(axis=1) == 4
    return high, np.where(four_aces, low - 10, low)


def _hilo_player_options(cards: np.ndarray) -> tuple[np.ndarray, ...]:
    """The (at most two) distinct legal settings of 579.11(d), as totals.

    Option A: no ace low (needs at most three aces): top three points high, aces 11.
    Option B: one ace low (needs an ace): that ace counts 1 and the lowest other card joins
    it; the other three go high.
    Returns (a_ok, a_high, a_low, b_ok, b_high, b_low).
    """
    ranks = cards.astype(np.int64) >> 2
    pts = np.sort(_points_high(ranks), axis=1)[:, ::-1]
    aces = (ranks == _ACE).sum(axis=1)
    a_ok = aces <= 3
    a_high, a_low = pts[:, :3].sum(axis=1), pts[:, 3:].sum(axis=1)
    # drop one ace (the first column is an ace whenever there is one)
    rest = pts[:, 1:]
    b_ok = aces >= 1
    b_high = rest[:, :3].sum(axis=1)
    b_low = 1 + rest[:, 3]
    return a_ok, a_high, a_low, b_ok, b_high, b_low


@cache
def _dealer_distribution() -> tuple[np.ndarray, np.ndarray]:
    """P(win) and P(lose) tables indexed [player high, player low] against the dealer's
    setting over all 2,598,960 hands (579.11(e), (g))."""
    dh, dl = _hilo_dealer_totals(all_five_card_hands())
    counts = np.zeros((34, 34), dtype=np.int64)
    np.add.at(counts, (dh, dl), 1)
    # win: dealer high < H and dealer low > L; lose: dealer high >= H and dealer low <= L
    cum = counts.cumsum(axis=0).cumsum(axis=1)  # cum[h, l] = #(dh <= h, dl <= l)
    total = counts.sum()
    h = np.arange(34)[:, None]
    l_ = np.arange(34)[None, :]
    below_h = np.where(h >= 1, cum[np.maximum(h - 1, 0), -1], 0)  # dh <= H-1
    below_h_low_le = np.where(h >= 1, cum[np.maximum(h - 1, 0), l_], 0)
    win = below_h - below_h_low_le  # dh <= H-1 and dl > L
    lose = cum[-1, l_] - below_h_low_le  # dl <= L and dh >= H
    return win / total, lose / total


def hilo_rounds(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                             np.ndarray]:
    """For ``(n, 10)`` deals: the player's chosen (high, low) totals, the dealer's (high,
    low) totals and whether the player makes the Play wager (:func:`hilo_strategy_doc`)."""
    player, dealer = cards[:, :5], cards[:, 5:10]
    pwin, plose = _dealer_distribution()
    a_ok, ah, al, b_ok, bh, bl = _hilo_player_options(player)
    ev_a = np.where(a_ok, pwin[ah, al] - plose[ah, al], -np.inf)
    ev_b = np.where(b_ok, pwin[bh, bl] - plose[bh, bl], -np.inf)
    use_b = ev_b > ev_a
    ph = np.where(use_b, bh, ah)
    pl = np.where(use_b, bl, al)
    plays = 2 * np.maximum(ev_a, ev_b) >= -1
    dh, dl = _hilo_dealer_totals(dealer)
    return ph, pl, dh, dl, plays


def _hilo_ante_play(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ph, pl, dh, dl, plays = hilo_rounds(cards)
    win = (ph > dh) & (pl < dl)
    lose = (ph <= dh) & (pl >= dl)
    per_wager = np.where(win, 1, np.where(lose, -1, 0))
    net = np.where(plays, 2 * per_wager, -1).astype(np.int64)
    staked = np.where(plays, 2, 1).astype(np.int64)
    return net, staked


def _hilo_tie(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ph, pl, dh, dl, plays = hilo_rounds(cards)
    table = PAYTABLES["579-tie"]
    both = table.odds_for(PayHand.BOTH_HANDS_TIE).amount
    high = table.odds_for(PayHand.HIGH_HANDS_TIE).amount
    low = table.odds_for(PayHand.LOW_HANDS_TIE).amount
    hi_eq, lo_eq = ph == dh, pl == dl
    net = np.where(hi_eq & lo_eq, both, np.where(hi_eq, high, np.where(lo_eq, low, -1)))
    net = np.where(plays, net, -1).astype(np.int64)  # 579.11(b)(1): folding forfeits it
    return net, np.ones(len(net), dtype=np.int64)


def simulate(name: str, *, rounds: int, seed: int, progress: bool = False
             ) -> SimulatedFigures:
    """Seeded simulation of a dealer-dependent wager (see :data:`SIMULATIONS`)."""
    if name not in SIMULATIONS:
        raise ReportError(f"no simulation '{name}'; known: {', '.join(SIMULATIONS)}",
                          code="unknown_paytable")
    if not isinstance(rounds, int) or rounds < 2:
        raise ReportError(f"rounds must be at least 2, not {rounds}", code="invalid_rounds")
    if not isinstance(seed, int) or seed < 0:
        raise ReportError(f"seed must be a non-negative integer, not {seed}",
                          code="invalid_seed")
    started = time.perf_counter()
    title, section = SIMULATIONS[name]
    if name.endswith("ante-bet"):
        rb = name.split("-")[0]
        fn: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] = \
            lambda c: lunar_rounds(rb, c)
        strategy = lunar_strategy_doc(rb)
    elif name == "579-ante-play":
        fn, strategy = _hilo_ante_play, hilo_strategy_doc()
    else:
        fn, strategy = _hilo_tie, hilo_strategy_doc() + "; the Tie Wager is lost on a fold"
    rng = np.random.default_rng(seed)
    s = s2 = wagered = wins = 0
    chunk = 1 << 16
    with tqdm(total=rounds, unit="rounds", unit_scale=True, desc=name, file=sys.stderr,
              disable=not progress, leave=False) as bar:
        done = 0
        while done < rounds:
            n = min(chunk, rounds - done)
            net, staked = fn(_deal(rng, n, 10))
            s += int(net.sum())
            s2 += int((net * net).sum())
            wagered += int(staked.sum())
            wins += int((net > 0).sum())
            done += n
            bar.update(n)
    mean = Fraction(s, rounds)
    var = (s2 - s * s / rounds) / (rounds - 1)
    half = 1.96 * math.sqrt(max(var, 0.0) / rounds)
    m = float(mean)
    mean_wagered = Fraction(wagered, rounds)
    return SimulatedFigures(name, title, section, strategy, rounds, seed, mean,
                            (m - half, m + half), -m, mean_wagered,
                            -m / float(mean_wagered), wins / rounds,
                            time.perf_counter() - started)
