"""Hold vs theory: rounds played through the banked-round domain with the documented simple
strategy (:class:`tables.domain.banked.simulate.SimpleStrategy`) hold, per wager type, what
an *independent* computation says they should.

The theoretical figures come from :mod:`tables.domain.paytable_math` (what
``manage.py paytable_report`` prints): exact, by enumerating all 2,598,960 five-card hands
with its own vectorised classifiers — not from the simulator under test. They exist for the
wagers judged on one five-card hand only:

* Lunar Poker Super Wager, 589.12(b) (the player's own hand) and 671a.12(b) (the player's
  own hand and the dealer's hand, 671a.7(c)(3)): house edge;
* Five Card Hi-Lo Poker Bonus Wager, 579.12(d): house edge;
* the Five Card Hi-Lo Ante Bonus, 579.12(b): not a wager of its own, so the figure is the
  expected bonus per unit of Ante, read off the Ante line (see the test).

The Lunar instant payout (589.12(a), 671a.12(a)) has an exact figure too, but it hits once
in about 65,000 hands: a minute of simulation sees a handful, so a comparison would test
nothing; the fixtures under tests/tables/banked/scripts/ cover it hand by hand.

The Ante / Bet (Lunar) and Ante / Play / Tie (Hi-Lo) results depend on the dealer's hand and
paytable_math only simulates them, so they are not compared with a "theory" here — except
the Lunar Ante + Bet, which is compared with paytable_math's *independent* numpy
simulation under the same strategy (a two-sample check, both sampling errors counted).

Statistics: for an exact figure the interval is the theoretical one, theory ± z·σ/√n with σ
from the exact distribution of one hand's payout (a sample's own spread understates the
rare big lines it has not seen). For the Lunar Ante + Bet a round is the sampling unit
(positions share the dealer's hand) and the standard error is the delta-method one of the
ratio estimator over rounds. The checks use a
99.9 % interval (z = 3.29) because this module makes about ten comparisons and a 95 % one
would fail one of them by chance one run in three; the ``..._rejected`` tests show the
interval is still narrow enough to fail on a wrong paytable or on "to 1" paid "for 1".
Seeds are fixed, so the module is repeatable.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache

import pytest

from tables.domain.paytable_math import (
    ExactFigures,
    exact_figures,
    figures_from_counts,
    line_counts,
    simulate,
)
from tables.domain.paytables import for1, get_paytable
from tables.domain.banked.simulate import play_round
from tables.domain.rules_options import example_options

Z = 3.29  # two-sided 99.9 %

LUNAR_589, LUNAR_671A, HILO = "lunar-poker-589", "lunar-poker-671a", "five-card-hi-lo"
#: rounds per game for the slow tests (max positions each: 5 Lunar, 6 Hi-Lo), ~12-18 s each
SLOW_ROUNDS = {LUNAR_589: 12_000, LUNAR_671A: 8_000, HILO: 6_000}
POSITIONS = {LUNAR_589: 5, LUNAR_671A: 5, HILO: 6}
SEED = {LUNAR_589: 589_12, LUNAR_671A: 671_12, HILO: 579_12}


# --- the sample -------------------------------------------------------------------------

@dataclass
class Sample:
    """Per round (lists aligned by round): cents wagered and won by the house on each
    wager type, and the extra payouts read off the Ante line."""

    game: str
    rounds: int
    wagered: dict[str, list[int]] = field(default_factory=dict)
    house: dict[str, list[int]] = field(default_factory=dict)
    placed: dict[str, int] = field(default_factory=dict)  # how many wagers of each type
    ante: list[int] = field(default_factory=list)
    ante_bonus: list[int] = field(default_factory=list)  # Hi-Lo: Ante line minus Play line
    ante_bet_net: list[int] = field(default_factory=list)  # Lunar: player's net on Ante + Bet


def play(game: str, rounds: int, seed: int, positions: int) -> Sample:
    rng = random.Random(seed)
    options = example_options(game)
    s = Sample(game, rounds)
    kinds: set[str] = set()
    rows: list[tuple[dict[str, int], dict[str, int], int, int, int]] = []
    for _ in range(rounds):
        state = play_round(game, options, rng, positions=positions).state
        w: dict[str, int] = {}
        h: dict[str, int] = {}
        ante = bonus = net = 0
        for p in state.positions.values():
            for wager, amount in p.wagered.items():
                back = p.returned.get(wager, 0)
                w[wager] = w.get(wager, 0) + amount
                s.placed[wager] = s.placed.get(wager, 0) + 1
                h[wager] = h.get(wager, 0) + amount - back
            ante += p.wagered["ante"]
            if state.lunar:
                net += sum(p.returned.get(k, 0) - p.wagered.get(k, 0) for k in ("ante", "bet"))
            else:
                # 579.11(g): Ante and Play are settled alike (the simple strategy always
                # plays, and the Play equals the Ante), so what the Ante line returns beyond
                # the Play line is the Ante Bonus of 579.11(h)
                assert p.decision == "play" and p.wagered["play"] == p.wagered["ante"]
                bonus += p.returned["ante"] - p.returned["play"]
        kinds |= set(w)
        rows.append((w, h, ante, bonus, net))
    for k in kinds:
        s.wagered[k] = [r[0].get(k, 0) for r in rows]
        s.house[k] = [r[1].get(k, 0) for r in rows]
    s.ante = [r[2] for r in rows]
    s.ante_bonus = [r[3] for r in rows]
    s.ante_bet_net = [r[4] for r in rows]
    return s


@cache
def slow_sample(game: str) -> Sample:
    return play(game, SLOW_ROUNDS[game], SEED[game], POSITIONS[game])


@cache
def exact(name: str) -> ExactFigures:
    return exact_figures(name)


def ratio(num: list[int], den: list[int]) -> tuple[float, float]:
    """Σnum / Σden over rounds and its standard error (delta method for a ratio of means:
    Var(R) ≈ Σ(num_r - R·den_r)² / (n (n - 1) · mean(den)²))."""
    n = len(den)
    total = sum(den)
    r = sum(num) / total
    resid = sum((a - r * b) ** 2 for a, b in zip(num, den, strict=True))
    se = math.sqrt(resid / (n * (n - 1))) / (total / n)
    return r, se


def theory_spread(fig: ExactFigures) -> float:
    """Standard deviation, per unit wagered, of what one hand returns (stand-alone wager)
    or of the bonus one hand is paid (extra payout on the Ante), from the exact line
    counts: √(Σ p·x² − (Σ p·x)²)."""
    mean = sum(Fraction(ln.count, fig.total_hands) * ln.returned_per_unit for ln in fig.lines)
    square = sum(Fraction(ln.count, fig.total_hands) * ln.returned_per_unit ** 2
                 for ln in fig.lines)
    return math.sqrt(square - mean * mean)


def assert_in_theory_interval(value: float, theory: float, spread: float, hands: int,
                              what: str) -> None:
    """``value`` (a mean over ``hands`` hands) lies in the interval of the exact figure:
    theory ± z·σ/√n, σ from the exact distribution. (Hands of one round come from one deck;
    their slight negative dependence makes this a little conservative.)"""
    half = Z * spread / math.sqrt(hands)
    assert abs(value - theory) <= half, (
        f"{what}: simulated {value:+.5f}, theory {theory:+.5f} ± {half:.5f} (99.9 %, "
        f"{hands:,} hands)")


def check_hold(s: Sample, wager: str, fig: ExactFigures) -> None:
    """The simulated hold of ``wager`` lies in the interval of the exact house edge."""
    value = sum(s.house[wager]) / sum(s.wagered[wager])
    assert_in_theory_interval(value, float(fig.house_edge), theory_spread(fig),
                              s.placed[wager], f"{s.game} {wager} vs {fig.table}")


# --- the machinery itself (fast) ----------------------------------------------------------

def test_ratio_standard_error_matches_a_hand_worked_sample() -> None:
    # num 1, 3, 2 over den 2, 2, 4: R = 6/8, residuals -1/2, 3/2, -1 -> Σ² = 7/2,
    # Var = (7/2) / (3 · 2) / (8/3)²
    r, se = ratio([1, 3, 2], [2, 2, 4])
    assert r == 0.75
    assert se == pytest.approx(math.sqrt(3.5 / 6 / (8 / 3) ** 2))


def test_a_short_run_of_671a_super_wagers_holds_the_exact_house_edge() -> None:
    """§ 671a.12(b): a short seeded run (the slow tests run long ones)."""
    check_hold(play(LUNAR_671A, 600, 1, 5), "super", exact("671a-super"))


# --- own-hand wagers against their exact figures (slow) -----------------------------------

@pytest.mark.slow
def test_589_super_wager_hold_matches_the_exact_house_edge() -> None:
    """§ 589.12(b) Paytable B (the example Rules Submission), § 589.11(c)(2)(ii): judged on
    the player's own five cards, a royal or straight flush counting as a same colored
    straight."""
    paytable = example_options(LUNAR_589)["super_paytable"]
    check_hold(slow_sample(LUNAR_589), "super", exact(f"589-super-{paytable}"))


@pytest.mark.slow
@pytest.mark.parametrize("wager", ["super", "super_dealer"])
def test_671a_super_wager_hold_matches_the_exact_house_edge(wager: str) -> None:
    """§ 671a.12(b), § 671a.7(c)(3): the Super Wager on the player's own hand and on the
    dealer's hand are judged on that hand's five cards by the same paytable."""
    check_hold(slow_sample(LUNAR_671A), wager, exact("671a-super"))


@pytest.mark.slow
def test_poker_bonus_hold_matches_the_exact_house_edge() -> None:
    """§ 579.12(d), § 579.11(j)(2): the Poker Bonus Wager is judged on the player's five
    cards alone."""
    paytable = example_options(HILO)["poker_bonus_paytable"]
    check_hold(slow_sample(HILO), "poker_bonus", exact(f"579-poker-bonus-{paytable}"))


@pytest.mark.slow
def test_ante_bonus_paid_per_unit_ante_matches_the_exact_figure() -> None:
    """§ 579.11(h), § 579.12(b): three or more aces pay "X for 1" on the Ante whatever the
    hand's outcome; expected bonus per unit Ante from the enumeration. Four aces (with a
    deuce: 500 for 1 on Paytable B) dominate the spread, so the interval reaches down to
    nothing paid: this check catches overpaying, e.g. every line paid "to 1"."""
    s = slow_sample(HILO)
    fig = exact(f"579-ante-bonus-{example_options(HILO)['ante_bonus_paytable']}")
    assert_in_theory_interval(sum(s.ante_bonus) / sum(s.ante), float(fig.bonus_per_unit),
                              theory_spread(fig), s.placed["ante"], "Ante Bonus")


# --- the power of the check (slow) ---------------------------------------------------------

def misread_as_for_1(name: str) -> ExactFigures:
    """Paytable ``name`` had every "X to 1" been paid "X for 1" (the wager not handed
    back): the mistake DESIGN §4 warns about."""
    table = get_paytable(name)
    wrong = replace(table, lines=tuple((h, for1(o.amount)) for h, o in table.lines))
    return figures_from_counts(wrong, line_counts(name), standalone=True)


@pytest.mark.slow
@pytest.mark.parametrize("game,wager,paytable", [
    (LUNAR_589, "super", "589-super-" + example_options(LUNAR_589)["super_paytable"]),
    (HILO, "poker_bonus", "579-poker-bonus-" + example_options(HILO)["poker_bonus_paytable"]),
])
def test_the_check_rejects_to_1_odds_paid_for_1(game: str, wager: str, paytable: str
                                                ) -> None:
    """§ 589.12(b), § 671a.12(b), § 579.12(d) print "X to 1": the same rounds must not pass
    for a paytable paid "X for 1" — the interval is narrow enough to fail."""
    with pytest.raises(AssertionError, match="simulated"):
        check_hold(slow_sample(game), wager, misread_as_for_1(paytable))


@pytest.mark.slow
def test_the_other_poker_bonus_paytable_is_rejected() -> None:
    """§ 579.12(d): Paytable B (pair of sixes or better, bigger top lines) is not what
    rounds under Paytable A hold."""
    assert example_options(HILO)["poker_bonus_paytable"] == "A"
    with pytest.raises(AssertionError, match="simulated"):
        check_hold(slow_sample(HILO), "poker_bonus", exact("579-poker-bonus-B"))


# --- dealer-dependent: an independent simulation (slow) -------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("game,name", [(LUNAR_589, "589-ante-bet"),
                                       (LUNAR_671A, "671a-ante-bet")])
def test_lunar_ante_and_bet_agree_with_the_independent_simulation(game: str, name: str
                                                                 ) -> None:
    """§ 589.12(c)-(d), § 671a.12(c)-(d), § 589.11(e), § 671a.11(f): Ante + Bet per unit
    Ante under the same strategy (bet ace-king or better, instant hands declared, no draws,
    no forcing) as paytable_math's numpy simulation. Both are samples, so the test is
    two-sample: |difference| ≤ z · √(se₁² + se₂²)."""
    s = slow_sample(game)
    ours, se_ours = ratio(s.ante_bet_net, s.ante)
    peer = simulate(name, rounds=1_000_000, seed=20261121)
    se_peer = (peer.ci95[1] - peer.ci95[0]) / (2 * 1.96)
    diff = ours - float(peer.mean_net)
    assert abs(diff) <= Z * math.hypot(se_ours, se_peer), (
        f"{name}: domain {ours:+.5f} ± {se_ours:.5f}, paytable_math "
        f"{float(peer.mean_net):+.5f} ± {se_peer:.5f}")
