"""What the poker table's sign posts (the amounts and rules the chapter says are "posted on
a sign at each Poker table"): the Ante, Forced Bet, Blind and Straddle Bets (§ 637a.10(b),
(d), § 637a.11(b), (d), (e) and the same in each game), the Kill option and its qualifying
pot (§ 637a.12(n), § 637a.19(l)(3)), the rake (§ 637a.17(c)), and the Bad Beat and High
Hand notices and rules (§ 637a.15(b), § 637a.16(b)). Each amount is this test's own input,
read back in dollars as a player reads it; domain only."""

from __future__ import annotations

from typing import Any

import pytest

from tables.domain.rules_options import example_options, validate_options
from tables.domain.signage import signage_for

BAD_BEAT = {"fund": "bad-beat", "contribution": {"method": "fixed", "amount_cents": 100},
            "maximum_per_pot_cents": 100, "minimum_pot_cents": 2_000,
            "qualifying_hand": {"losing_hand_at_least": "four-of-a-kind", "rank_at_least": "8",
                                "both_hole_cards_must_play": True,
                                "minimum_players_dealt": 4},
            "payout_shares_bp": {"losing_hand": 5_000, "winning_hand": 2_500,
                                 "table_share": 2_500}}
HIGH_HAND = {"fund": "high-hand", "qualifying_period_minutes": 60,
             "collection_period": "each clock hour",
             "contribution": {"method": "fixed", "amount_cents": 100},
             "maximum_per_pot_cents": 100, "minimum_pot_cents": 1_000,
             "minimum_players_dealt": 4, "tie_division": "split-equally",
             "collection_time_limit_hours": 24,
             "uncollected_procedure": "added to the next qualifying period's payout",
             "identification_required": True}
RAKE = {"types": ["percentage"], "methodology": None, "percentage_bp": 1_000,
        "collection": "end-of-round", "maximum_per_round_cents": 500, "minimum_pot_cents": 0,
        "spread_over_pots": "main-pot-first"}


def _sign(game: str, **options: Any) -> dict[str, dict[str, str]]:
    """The sign's sections by title, each its lines as label -> value."""
    o = validate_options(game, {**example_options(game), "rake": RAKE, **options})
    return {s["title"]: {ln["label"]: ln["value"] for ln in s["lines"]}
            for s in signage_for(game, o)["sections"]}


@pytest.mark.regulation("637a.10(b)", "637a.10(d)", "637a.14(b)", "637a.14(d)")
@pytest.mark.parametrize("game", ["stud-high", "five-card-stud"])
def test_stud_sign_posts_the_ante_and_the_forced_bet(game: str) -> None:
    """§ 637a.10(b), § 637a.14(b): a $1 Ante posted by each player; § 637a.10(d),
    § 637a.14(d): the $3 Forced Bet."""
    betting = _sign(game, ante_cents=100, forced_bet_cents=300)["Betting"]
    assert betting["Ante"] == "$1.00, posted by each player dealt in"
    assert betting["Forced Bet"] == "$3.00"
    assert "Blind Bets" not in betting


@pytest.mark.regulation(
    "637a.11(b)", "637a.11(d)", "637a.11(e)", "637a.12(b)", "637a.12(d)", "637a.12(e)",
    "637a.19(b)", "637a.19(d)", "637a.19(e)", "637a.20(b)", "637a.20(d)", "637a.20(e)",
    "637a.21(b)", "637a.21(d)", "637a.21(e)")
@pytest.mark.parametrize("game", ["holdem", "omaha-high", "five-card-omaha-high",
                                  "triple-draw-27", "badugi"])
def test_button_game_sign_posts_the_ante_blinds_and_straddle(game: str) -> None:
    """(b) a $1 Ante by each player, (d) Blind Bets of $2 and $4, (e) one Straddle Bet of
    $8 with the house's rule for it, in Hold'em, Omaha, Five-card Omaha, Triple Draw and
    Badugi."""
    betting = _sign(game, ante_cents=100, blinds_cents=[200, 400], straddle={
        "offered": True, "amount_cents": 800, "rules": "left of the big blind only"})[
        "Betting"]
    assert betting["Ante"] == "$1.00, posted by each player dealt in"
    assert betting["Blind Bets"] == "$2.00, $4.00"
    assert betting["Straddle Bet"] == "$8.00 — left of the big blind only"


@pytest.mark.regulation("637a.13(b)", "637a.13(e)")
def test_five_card_draw_sign_posts_the_ante_and_blinds() -> None:
    """§ 637a.13(b) a $1 Ante; § 637a.13(e) Blind Bets of $2 and $4 (no straddle in the
    section)."""
    betting = _sign("draw-high", ante_cents=100, blinds_cents=[200, 400])["Betting"]
    assert (betting["Ante"], betting["Blind Bets"]) == (
        "$1.00, posted by each player dealt in", "$2.00, $4.00")
    assert "Straddle Bet" not in betting


@pytest.mark.regulation("637a.12(n)", "637a.19(l)(3)", "637a.20(b)", "637a.21(b)")
@pytest.mark.parametrize("game,option,shown,source", [
    ("omaha-hilo8", "half-kill", "Half kill", "637a.12(n)"),
    ("five-card-omaha-hilo8", "kill", "Kill", "637a.19(l)(3)"),
    ("triple-draw-27", "kill", "Kill", "637a.20(b)"),
    ("badugi", "half-kill", "Half kill", "637a.21(b)")])
def test_the_sign_posts_the_kill_option_and_its_qualifying_pot(game, option, shown,
                                                                source) -> None:
    """§ 637a.12(n), § 637a.19(l)(3): which option is used and the minimum qualifying pot,
    $300, posted at the table; § 637a.20(b), § 637a.21(b) the same where offered. The
    section cites the game's own subsection (it cited Omaha's 637a.12(n) for every game)."""
    options = {**example_options(game), "rake": RAKE,
               "kill": {"option": option, "qualifying_pot_cents": 30_000}}
    [kill] = [s for s in signage_for(game, validate_options(game, options))["sections"]
              if s["title"] == "Kill option"]
    assert {ln["label"]: ln["value"] for ln in kill["lines"]} == {
        "Option": shown, "Qualifying pot": "$300.00"}
    assert kill["source"] == source


@pytest.mark.regulation("637a.17(a)(1)", "637a.17(a)(3)", "637a.17(c)", "637a.17(d)")
def test_the_sign_describes_the_type_and_amount_of_rake() -> None:
    """§ 637a.17(c): the type (a percentage of the pot and side pots) and amount (10 %, at
    most $5 a round) of the rake; § 637a.17(d): the uncalled final bet is not raked."""
    rake = _sign("holdem")["Rake"]
    assert rake["Percentage rake"] == "10% of the pot and any side pots"
    assert rake["Maximum rake per round"] == "$5.00"
    assert "An uncalled final bet is not raked." in rake


@pytest.mark.regulation("637a.15(b)", "637a.15(b)(1)", "637a.15(b)(2)", "637a.15(b)(3)")
def test_the_sign_gives_notice_of_the_bad_beat_and_its_rules() -> None:
    """§ 637a.15(b): the notice of eligibility; (b)(1) the $1 contribution and its $1
    maximum; (b)(2) the $20 minimum pot; (b)(3) the qualifying hand and the payouts."""
    bad = _sign("holdem", bad_beat=BAD_BEAT)["Bad Beat payout"]
    assert "This table offers a Bad Beat payout." in bad
    assert bad["Contribution"] == "$1.00 from each qualifying pot"
    assert bad["Maximum contribution per pot"] == "$1.00"
    assert bad["Minimum pot before a contribution is collected"] == "$20.00"
    assert bad["Qualifying Bad Beat"] == ("a losing hand of four of a kind, eights or "
                                          "better; both hole cards must play; at least 4 "
                                          "players dealt in")
    assert bad["Payout shares"] == ("losing hand 50%, winning hand 25%, other players dealt "
                                    "in 25%")


@pytest.mark.regulation("637a.16(b)", "637a.16(b)(1)", "637a.16(b)(2)", "637a.16(b)(3)",
                        "637a.16(b)(4)", "637a.16(b)(5)", "637a.16(b)(6)", "637a.16(b)(7)")
def test_the_sign_gives_notice_of_the_high_hand_and_its_rules() -> None:
    """§ 637a.16(b): the notice; (b)(1) the 60-minute qualifying and hourly collection
    periods; (b)(2) the $1 maximum contribution; (b)(3) the $10 minimum pot; (b)(4) four
    players dealt in; (b)(5) ties split equally; (b)(6) 24 hours to collect, and no need
    to be present at the period's end; (b)(7) identification."""
    high = _sign("holdem", high_hand=HIGH_HAND)["High Hand Jackpot payout"]
    assert ("This table offers a High Hand Jackpot payout; tracking starts at a full "
            "house.") in high
    assert (high["Qualifying period"], high["Collection period"]) == ("60 minutes",
                                                                      "each clock hour")
    assert high["Maximum contribution per pot"] == "$1.00"
    assert high["Minimum pot before a contribution is collected"] == "$10.00"
    assert high["Minimum players dealt in"] == "4"
    assert high["Tied qualifying high hands"] == "split equally"
    assert high["Time limit to collect"] == ("24 hours; you need not be present at the end "
                                             "of the qualifying period to win")
    assert "Valid identification must be presented for a hand to qualify." in high
