"""Low rankings: A-5 (§ 637a.6(c)-(d), § 637a.20(k)(4)), eight-or-better (§ 637a.10(j),
§ 637a.12(l)) and 2-7 (§ 637a.6(c), § 637a.20(k)(3))."""

from __future__ import annotations

import itertools

import pytest

from casino.domain.cards import CardCountError, CardError, parse_cards
from casino.domain.hands import fast, lowball
from tests.casino.domain._hands import deal


def a5(text: str) -> int:
    return lowball.a5_low(parse_cards(text))


def d27(text: str) -> int:
    return lowball.d27_low(parse_cards(text))


@pytest.mark.regulation("637a.6(c)", "637a.6(d)")
@pytest.mark.regulation("637a.20(k)(4)")
def test_a5_ace_low_straights_and_flushes_ignored():
    """§ 637a.20(k)(4)(i)-(iii): ace low, best 5-4-3-2-A regardless of suit; straights
    and flushes are not considered (637a.6(d))."""
    assert a5("As2s3s4s5s") == a5("Ad2c3h4s5s")
    assert a5("As2d3h4c5s") > a5("As2d3h4c6s") > a5("2s3d4h5c6s")
    assert lowball.describe_a5(a5("As2s3s4s5s")) == "5-4-3-2-A low"
    assert a5("Ks2d3h4c5s") < a5("Qs2d3h4c5s")  # king is the worst card (637a.6(c))


@pytest.mark.regulation("637a.6(e)")
def test_a5_higher_card_not_in_other_hand_decides():
    """§ 637a.6(e) applied to low: compare from the top card down."""
    assert a5("8s6d4h3c2s") > a5("8s7d3h2cAs")
    assert a5("8s6d5h4c3s") < a5("8s6d4h3c2s")
    assert a5("7s5d4h3c2s") == a5("7d5s4c3h2d")


@pytest.mark.regulation("637a.6(d)")
def test_a5_pairs_count_against_the_hand():
    """§ 637a.6(d): the low ranking is the inverse of the high ranking, so any no-pair
    hand beats a pair, a pair beats two pair, and the lower pair is better."""
    assert a5("Ks Qd Jh Tc 9s") > a5("As Ad 2h 3c 4s")
    assert a5("As Ad 2h 3c 4s") > a5("2s 2d 3h 4c 5s")
    assert a5("2s2d3h4c5s") > a5("As Ad 2h 2c 3s")
    assert lowball.describe_a5(a5("AsAd2h3c4s")) == "One pair, aces, 4-3-2"


@pytest.mark.regulation("637a.10(i)(2)")
def test_a5_best_five_of_seven():
    """§ 637a.10(i)(2): razz, the best five-card low from seven cards."""
    assert a5("As Ad 2h 3c 4s Kd Ks") == a5("As2h3c4sKd")
    # only three ranks: two pair beats a full house; the lowest top pair wins
    # (deuces and aces, three kicker) over threes and aces / threes and deuces
    v = a5("As Ad Ah 2c 2s 3d 3s")
    assert v == a5("As Ad 2c 2s 3d")
    assert v > a5("As Ad 3c 3s 2d") > a5("3s 3d 2c 2s Ad")
    assert lowball.describe_a5(v) == "Two pair, deuces and aces"


@pytest.mark.regulation("637a.10(j)", "637a.12(l)", "637a.19(l)(1)")
def test_eight_or_better_qualifier():
    """§ 637a.10(j), § 637a.12(l), § 637a.19(l)(1): no pair, trips or quads and no 9, 10,
    jack, queen or king."""
    assert lowball.a5_eight(parse_cards("8s7d6h5c4s")) is not None
    assert lowball.a5_eight(parse_cards("9s4d3h2cAs")) is None
    assert lowball.a5_eight(parse_cards("8s8d3h2cAs")) is None
    assert lowball.a5_eight(parse_cards("8s8d3h2cAs 4c")) == a5("8d4c3h2cAs")
    # a 7-card hand whose best low has a pair qualifies only through another five
    assert lowball.a5_eight(parse_cards("AsAd2h2c3s3d4h")) is None
    assert lowball.qualifies_eight(a5("8s7d6h5c4s"))
    assert not lowball.qualifies_eight(a5("9s7d6h5c4s"))


@pytest.mark.regulation("637a.6(c)")
@pytest.mark.regulation("637a.20(k)(3)")
def test_deuce7_rules():
    """§ 637a.20(k)(3)(i)-(iii): ace high only; straights, flushes and pairs count;
    best 7-5-4-3-2 not all of one suit."""
    best = d27("7s5d4h3c2s")
    assert best > d27("7s6d4h3c2s") > d27("8s5d4h3c2s")
    assert d27("7s5s4s3s2s") < d27("Ks Qd Jh 9c 8s")          # a flush is bad
    assert d27("6s5d4h3c2s") < d27("Ks Qd Jh 9c 8s")          # a straight is bad
    assert d27("As2d3h4c5s") > d27("2s2d3h4c5s")              # ace high, no wheel
    assert d27("As2d3h4c5s") < d27("Ks2d3h4c5s")              # ace is the highest card
    assert lowball.describe_d27(d27("As2d3h4c5s")) == "A-5-4-3-2 low"
    assert lowball.describe_d27(d27("6s5d4h3c2s")) == "Straight, six high"
    assert lowball.describe_d27(best) == "7-5-4-3-2 low"


@pytest.mark.regulation("637a.20(k)(3)(iii)")
def test_deuce7_best_five_avoids_flush_when_it_can():
    """§ 637a.20(k)(3)(iii) with more than five cards: the best five need not be suited."""
    # 7-5-4-3-2 all spades is a flush; with the 6d the best is 7-6-4-3-2
    assert d27("7s5s4s3s2s 6d") == d27("7s6d4s3s2s")
    assert lowball.describe_d27(d27("7s5s4s3s2s 6d")) == "7-6-4-3-2 low"
    assert d27("7s5s4s3s2s 8d") == d27("8d5s4s3s2s")
    cards = parse_cards("7s5s4s3s2s8d")
    brute = max(lowball.d27_value5([c >> 2 for c in f], flush=len({c & 3 for c in f}) == 1)
                for f in itertools.combinations(cards, 5))
    assert lowball.d27_low(cards) == brute


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_equals_scalar(k):
    a = deal(100 + k, 20_000, k).tolist()
    assert fast.a5_low_batch(a).tolist() == [lowball.a5_low(r) for r in a]
    assert fast.deuce7_low_batch(a).tolist() == [lowball.d27_low(r) for r in a]
    eight = fast.a5_eight_batch(a).tolist()
    assert eight == [lowball.a5_eight(r) if lowball.a5_eight(r) is not None else fast.NO_LOW
                     for r in a]


def test_deuce7_batch_on_flush_heavy_hands():
    """Seven cards with five or more of one suit go through the flush-aware path."""
    import numpy as np
    rng = np.random.default_rng(5)
    rows = []
    while len(rows) < 3000:
        suited = rng.choice(13, size=5, replace=False) * 4 + 3   # five spades
        others = rng.choice([c for c in range(52) if c & 3 != 3], size=2, replace=False)
        rows.append(list(suited) + list(others))
    assert fast.deuce7_low_batch(np.array(rows)).tolist() == [lowball.d27_low(r) for r in rows]


def test_bad_counts():
    with pytest.raises(CardCountError):
        lowball.a5_low(parse_cards("AsKs2d3d"))
    with pytest.raises(CardCountError):
        lowball.d27_low(parse_cards("AsKs2d3d4d5d6d7d"))


@pytest.mark.parametrize("bad", [52, -1, "As", True])
def test_raw_card_values_are_checked_637a_6_c(bad):
    """§ 637a.6(c): the low ranks are the 13 ranks of the 52 cards — card numbers 0-51
    only (52 used to be ranked as a fourteenth rank)."""
    four = parse_cards("Kh 9d 8c 4c")
    for fn in (lowball.a5_low, lowball.a5_low_five, lowball.d27_low, lowball.d27_low_five,
               lowball.a5_eight):
        with pytest.raises(CardError) as exc:
            fn(four + [bad])
        assert exc.value.code == "invalid_card"
