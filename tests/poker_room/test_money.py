"""Rake (§ 637a.17), jackpot contributions (§ 637a.15, § 637a.16), side pots, misdeals and
voided rounds (§ 637a.18), the event record and the chip ledger."""

from __future__ import annotations

import json
import random

import pytest

from poker_room.domain.contributions import JackpotRule, contributions
from poker_room.domain.errors import HandComplete, InvalidAction, InvalidRules
from poker_room.domain.hand import Hand, decide
from poker_room.domain.ledger import balances
from poker_room.domain.rake import (
    rake_by_pot,
    rake_for_pot,
    take_in_order,
    time_charge_event,
    time_charges,
)
from poker_room.domain.rules import TableRules
from poker_room.domain.simulate import random_hand
from tests.poker_room._helpers import C, call_down, hand, holdem_dealt, pct_rake, rules

#: 10 % capped at $4
PCT = pct_rake(1000, 400)
#: a Bad Beat fund of $1 a pot from pots of $20 and a High Hand fund of 5 % up to $2
JACKPOT_OPTIONS = {
    "bad_beat": {"contribution": {"method": "fixed", "amount_cents": 100},
                 "maximum_per_pot_cents": 100, "minimum_pot_cents": 2_000,
                 "qualifying_hand": {"losing_hand_at_least": "four-of-a-kind"},
                 "payout_shares_bp": {"losing_hand": 5000, "winning_hand": 5000}},
    "high_hand": {"contribution": {"method": "percentage", "percentage_bp": 500},
                  "maximum_per_pot_cents": 200, "minimum_pot_cents": 0,
                  "qualifying_period_minutes": 60, "collection_period": "each hour",
                  "minimum_players_dealt": 2, "tie_division": "split-equally",
                  "collection_time_limit_hours": 24,
                  "uncollected_procedure": "added to the next period"}}


def _table(game: str = "holdem", **kw) -> TableRules:
    return TableRules.from_dict(rules(game, **kw))


def _rake(rake: dict, unit: int = 100):
    """The pot rake of ``rake`` options on a table of ``unit``-cent chips."""
    return _table(chip_unit_cents=unit, rake=rake).rake


def _time_charge(**tc):
    return _table(rake={"types": ["time-charge"], "time_charge": tc}).time_charge


@pytest.mark.regulation("637a.17(a)(2)", "637a.17(a)(3)", "637a.17(b)(1)")
def test_percentage_rake_at_most_ten_percent_capped_per_round():
    """§ 637a.17(a)(1)-(3), (b)(1): a percentage of at most 10 %, with a maximum per round."""
    r = _rake(PCT)
    assert rake_for_pot(r, 2_550) == 200  # 10 % = 255, whole dollars
    assert rake_for_pot(r, 90_000) == 400  # the cap
    with pytest.raises(InvalidRules) as exc:
        _rake({**PCT, "percentage_bp": 1001})
    assert (exc.value.code, exc.value.field) == ("rake_percentage_too_high",
                                                 "rake.percentage_bp")


@pytest.mark.regulation("637a.17(b)(2)")
def test_incremental_rake_by_levels():
    """§ 637a.17(b)(2): a rake taken as predetermined pot levels are reached; each level's
    rake is added to the levels before it ($1 at $10, $1 more at $30)."""
    r = _rake({"types": ["incremental"], "collection": "end-of-round",
               "maximum_per_round_cents": 200, "incremental_levels": [
                   {"pot_at_least_cents": 1_000, "rake_cents": 100},
                   {"pot_at_least_cents": 3_000, "rake_cents": 100}]})
    assert [rake_for_pot(r, p) for p in (999, 1_000, 2_999, 3_000, 10**6)] == [0, 100, 100,
                                                                              200, 200]


@pytest.mark.regulation("637a.17(b)(2)", "637a.17(a)(3)")
def test_incremental_rake_levels_are_not_held_to_ten_percent():
    """§ 637a.17(b)(2): the 10 % limit of § 637a.17(b)(1) is for a percentage rake; a
    level of $2 at a $10 pot (20 %) is taken in full. The levels may not add up to more
    than the posted maximum per round (§ 637a.17(a)(3))."""
    levels = [{"pot_at_least_cents": 1_000, "rake_cents": 200},
              {"pot_at_least_cents": 2_000, "rake_cents": 100}]
    r = _rake({"types": ["incremental"], "collection": "end-of-round",
               "maximum_per_round_cents": 300, "incremental_levels": levels})
    assert [rake_for_pot(r, p) for p in (1_000, 1_999, 2_000)] == [200, 200, 300]
    with pytest.raises(InvalidRules) as exc:
        _rake({"types": ["incremental"], "collection": "end-of-round",
               "maximum_per_round_cents": 200, "incremental_levels": levels})
    assert exc.value.code == "rake_above_maximum"


@pytest.mark.regulation("637a.17(b)(3)(i)", "637a.17(b)(3)(ii)", "637a.17(b)(3)(iii)")
def test_time_charges_per_player_per_table_and_interval():
    """§ 637a.17(b)(3)(i)-(v): hourly by the limits, per player (inactive players too) or
    per table, assessed every 20 or 30 minutes."""
    per_player = _time_charge(basis="per-player", hourly_cents=1_200,
                              assessed_every_minutes=20)
    assert time_charges(per_player, {1: 5_000, 4: 0, 6: 300}) == {1: 400, 4: 0, 6: 300}
    per_table = _time_charge(basis="per-table", hourly_cents=1_000, assessed_every_minutes=30)
    assert time_charges(per_table, {1: 5_000, 2: 5_000, 3: 5_000}) == {1: 167, 2: 167, 3: 166}
    ev = time_charge_event(per_table, {1: 5_000, 2: 5_000, 3: 5_000}, minute=30)
    assert ev["type"] == "TimeChargeAssessed" and ev["data"]["total"] == 500
    with pytest.raises(InvalidRules) as exc:
        _time_charge(basis="per-table", hourly_cents=1_000, assessed_every_minutes=15)
    assert exc.value.field == "rake.time_charge.assessed_every_minutes"
    with pytest.raises(InvalidRules) as exc:  # $11 an hour is $5.50 a half hour: not $1 chips
        _table(chip_unit_cents=100, rake={"types": ["time-charge"], "time_charge": {
            "basis": "per-table", "hourly_cents": 1_100, "assessed_every_minutes": 30}})
    assert exc.value.code == "not_whole_chips"


@pytest.mark.regulation("637a.17(b)(1)")
def test_capped_rake_comes_from_the_main_pot_first_in_whole_chips():
    """§ 637a.17(b)(1): from the pot and each side pot, in whole chips; a capped rake is
    spread as the Rules Submission says, main pot first by default. Pots $30 and $12,
    10 % capped at $3: all $3 from the main pot (its own 10 %), none from the side pot,
    where pro rata would have taken 71 cents of the side pot's players' money. Last pot
    first: the side pot's $1.00 (10 % of $12 rounded down to the $1 chip), then $2 from
    the main pot."""
    main_first = _rake(PCT)
    assert rake_by_pot(main_first, 400, [3_000, 1_200]) == [300, 100]
    assert rake_by_pot(main_first, 300, [3_000, 1_200]) == [300, 0]
    last_first = _rake({**PCT, "spread_over_pots": "last-pot-first"})
    assert rake_by_pot(last_first, 300, [3_000, 1_200]) == [200, 100]
    assert take_in_order(150, [100, 500]) == [100, 50]


def _uncalled_hand(collection):
    h = holdem_dealt(rake={**PCT, "collection": collection})
    h.act(1, "raise")
    h.act(2, "fold")
    h.act(3, "fold")
    return h


@pytest.mark.regulation("637a.17(d)")
def test_uncalled_final_bet_not_raked():
    """§ 637a.17(d): the uncalled final bet is returned and not raked."""
    h = _uncalled_hand("end-of-round")
    returned = next(e for e in h.events if e["type"] == "UncalledBetReturned")["data"]
    assert returned == {"seat": 1, "amount": 200}
    assert h.result["pot"] == 500 and h.result["rake"] == 50


def test_rake_as_play_progresses_equals_rake_at_the_end():
    """§ 637a.17(b)(1)(i)-(ii): taken after each betting round or once at the end."""
    rng = random.Random(9)
    for _ in range(50):
        seed = rng.randrange(10**9)
        a = random_hand(rules("holdem", rake={**PCT, "collection": "as-play-progresses"}),
                        random.Random(seed))
        b = random_hand(rules("holdem", rake=PCT), random.Random(seed))
        assert a.result["rake"] == b.result["rake"]
        assert a.stacks == b.stacks


@pytest.mark.regulation("637a.17(e)")
def test_no_rake_after_the_pot_is_pushed():
    """§ 637a.17(e), § 637a.7(e)(6)(iii): rake before the push and nothing after it;
    § 637a.17(c) the rake rule is plain data for the table's sign."""
    h = _uncalled_hand("end-of-round")
    types = [e["type"] for e in h.events]
    assert types.count("RakeTaken") == 1
    assert types.index("RakeTaken") < types.index("PotAwarded")
    assert types[-1] == "HandCompleted"
    assert h.rules.to_dict()["rake"]["percentage_bp"] == 1000
    # the pot pushed, the hand is over: nothing more is taken or recorded
    before, events = h.snapshot(), list(h.events)
    with pytest.raises(HandComplete) as exc:
        h.act(1, "check")
    assert exc.value.code == "hand_complete"
    assert (h.snapshot(), h.events) == (before, events)


@pytest.mark.regulation("637a.15(a)", "637a.15(b)(1)", "637a.15(b)(2)", "637a.15(c)",
                        "637a.16(a)", "637a.16(b)(2)", "637a.16(b)(3)", "637a.16(c)")
def test_jackpot_contribution_after_rake_min_pot_and_max():
    """§ 637a.15(a) § 637a.16(a): a fund built from pot contributions; § 637a.15(b)
    § 637a.16(b) the posted minimum pot and maximum contribution; § 637a.15(c)
    § 637a.16(c) determined after the rake; § 637a.7(e)(6)(iv)."""
    bad = JackpotRule(fund="bad_beat", fixed_cents=100, max_cents=100, min_pot_cents=2_000)
    high = JackpotRule(fund="high_hand", percent_bp=500, max_cents=200)
    assert contributions([bad, high], 1_999) == [("bad_beat", 0), ("high_hand", 99)]
    assert contributions([bad, high], 10_000) == [("bad_beat", 100), ("high_hand", 200)]
    whole_dollars = JackpotRule(fund="high_hand", percent_bp=500, max_cents=200,
                                unit_cents=100)
    assert contributions([whole_dollars], 1_999) == [("high_hand", 0)]  # 99 cents: no chip
    h = Hand.start(rules("holdem", rake=PCT, **JACKPOT_OPTIONS),
                   {1: 10_000, 2: 10_000, 3: 10_000}, button=1, deck=list(range(52)))
    for _ in range(4):
        call_down(h)
    types = [e["type"] for e in h.events]
    assert types.index("RakeTaken") < types.index("JackpotContributionTaken")
    assert sum(h.stacks.values()) + h.result["rake"] + sum(
        a for _, a in h.result["contributions"]) == 30_000


def test_three_all_ins_make_side_pots():
    """§ 637a.8(b)(5)(i)-(iii): all-in players win only what they matched; betting goes
    on for side pots; all-in players still get their cards."""
    h = Hand.start(rules("holdem", structure="no-limit"),
                   {1: 1_000, 2: 2_000, 3: 3_000, 4: 9_000}, button=4)
    h.deal({1: C("AsAd"), 2: C("KsKd"), 3: C("QsQd"), 4: C("JsJd")})
    h.act(3, "raise", 3_000)
    h.act(4, "call")
    h.act(1, "call")
    h.act(2, "call")
    for board in (C("2c3h7d"), C("8c"), C("9h")):
        h.deal(board)
    awards = [e["data"] for e in h.events if e["type"] == "PotAwarded"]
    assert [(a["pot"], a["seat"], a["amount"]) for a in awards] == [
        (0, 1, 4_000), (1, 2, 3_000), (2, 3, 2_000)]
    assert h.stacks == {1: 4_000, 2: 3_000, 3: 2_000, 4: 6_000}


@pytest.mark.regulation("637a.18(g)(2)", "637a.18(g)(3)", "637a.18(g)(4)")
def test_misdeal_returns_every_chip_only_before_two_voluntary_bets():
    """§ 637a.18(g)(1)-(4): a misdeal returns the cards for a reshuffle and every chip;
    a wrong start or a missed player only before two players bet voluntarily."""
    h = holdem_dealt()
    h.act(1, "call")
    h.misdeal("wrong_starting_position")
    assert h.is_complete and h.stacks == {1: 10_000, 2: 10_000, 3: 10_000}
    h = holdem_dealt()
    h.act(1, "call")
    h.act(2, "call")
    with pytest.raises(Exception) as exc:
        h.misdeal("eligible_player_not_dealt")
    assert exc.value.code == "misdeal_too_late"
    h.misdeal("cards_face_up_in_deck")
    assert h.stacks == {1: 10_000, 2: 10_000, 3: 10_000}


@pytest.mark.regulation("637a.18(i)")
def test_void_round_returns_chips_and_rake():
    """§ 637a.18(i): missing or extra cards void the round and every chip goes back;
    § 637a.18(h) play otherwise continues."""
    h = holdem_dealt(rake={**PCT, "collection": "as-play-progresses"})
    call_down(h)
    h.deal(C("2d3d4d"))
    assert h.pot < 600  # rake taken as play progresses
    h.void()
    assert h.stacks == {1: 10_000, 2: 10_000, 3: 10_000}
    assert balances(h.events)["pot"] == 0


@pytest.mark.regulation("637a.18(e)")
def test_showdown_order_final_bettor_first_then_clockwise_and_mucking():
    """§ 637a.18(e)-(f): the player who made the final bet shows first, the others
    clockwise; a loser may muck unless the Rules Submission requires disclosure."""
    for disclose in (False, True):
        h = hand("holdem", players=4, button=4, disclose_mucked_hands=disclose)
        h.deal({1: C("2c7d"), 2: C("AsAd"), 3: C("3c8d"), 4: C("4c9d")})
        call_down(h)
        h.deal(C("KhQhJd"))
        call_down(h)
        h.deal(C("5s"))
        call_down(h)
        h.deal(C("6s"))
        h.act(1, "check")
        h.act(2, "check")
        h.act(3, "bet")
        call_down(h)
        order = next(e for e in h.events if e["type"] == "ShowdownStarted")["data"]["order"]
        assert order == [3, 4, 1, 2]
        mucked = [e["data"]["seat"] for e in h.events if e["type"] == "HandMucked"]
        assert (mucked == []) is disclose


def test_replaying_events_rebuilds_the_hand():
    """Events are the record (§ 637a.7(e)(6)): replay from JSON reproduces the state, and
    ``decide`` leaves the hand untouched."""
    rng = random.Random(2)
    h = random_hand(rules("omaha-hilo8"), rng, players=5)
    again = Hand.from_events(json.loads(json.dumps(h.events)))
    assert again.snapshot() == h.snapshot()
    h = holdem_dealt()
    before = h.snapshot()
    events = decide(h, {"type": "act", "seat": 1, "action": "fold"})
    assert events[0]["type"] == "PlayerFolded" and h.snapshot() == before


def test_ledger_every_chip_leaves_the_pot():
    """§ 637a.7(e)(6)(i)-(iv): pots to winners, the rake, the funds: the pot ends at 0."""
    rng = random.Random(5)
    for _ in range(30):
        h = random_hand(rules("stud-hilo8", rake=PCT, bad_beat=JACKPOT_OPTIONS["bad_beat"]),
                        rng, players=6)
        b = balances(h.events)
        assert b["pot"] == 0
        assert sum(v for k, v in b.items() if k.startswith("seat:")) == -(
            b.get("rake", 0) + b.get("fund:bad_beat", 0))


def test_rules_from_dict_names_the_field():
    """§ 637a.10(i)(3): stud high-low odd chips by suit only; § 637a.13(b)-(e) no straddle
    in Five-card Draw; fields are named."""
    with pytest.raises(InvalidRules) as exc:
        TableRules.from_dict(rules("stud-hilo8", odd_chip_recipient="first-left-of-button"))
    assert (exc.value.code, exc.value.field) == ("odd_chip_fixed_by_chapter",
                                                 "odd_chip_recipient")
    with pytest.raises(InvalidRules) as exc:
        TableRules.from_dict(rules("draw-high", straddle={
            "offered": True, "amount_cents": 400, "rules": "left of the blinds"}))
    assert exc.value.field == "straddle"
    with pytest.raises(InvalidRules) as exc:
        TableRules.from_dict(rules("holdem", small_bet_cents=1.5))
    assert exc.value.field == "small_bet_cents"
    r = TableRules.from_dict(rules("holdem", rake=PCT))
    assert TableRules.from_dict(r.to_dict()) == r


def test_not_participating_dealer_and_rankings():
    """§ 637a.7(b) the dealer does not play; § 637a.6(a) § 637a.6(b) high ranks,
    § 637a.6(c) § 637a.6(d) low ranks (A-5 and 2-7), § 637a.6(e) ties, § 637a.6(f) hands
    ranked by the cards held: the engine's lookups equal casino.domain.hands."""
    from casino.domain.hands import high, lowball
    from poker_room.domain import evaluate
    rng = random.Random(1)
    for _ in range(2_000):
        cs = rng.sample(range(52), 7)
        assert evaluate.high(cs) == high.best_high(cs)
        assert evaluate.a5(cs) == lowball.a5_low(cs)
        assert evaluate.d27(cs[:5]) == lowball.d27_low(cs[:5])


@pytest.mark.regulation("637a.18(l)(2)")
def test_blind_obligation_stands_when_the_player_folds():
    """§ 637a.18(l)(2): throwing away the cards does not take back a Blind Bet;
    § 637a.18(f) a folded hand cannot win."""
    h = holdem_dealt()
    h.act(1, "raise")
    h.act(2, "fold")
    h.act(3, "fold")
    assert h.stacks == {1: 10_300, 2: 9_900, 3: 9_800}


@pytest.mark.regulation("637a.17(b)(1)", "637a.17(a)(3)")
def test_capped_rake_from_the_main_pot_leaves_the_side_pot_whole():
    """§ 637a.17(b)(1), (a)(3): 10 % capped at $1, in $1 chips. Seat 3 ($6) is all in on
    the flop: main pot $18 (three × $6), side pot $8 (seats 1 and 2 on the turn). The $1
    comes from the main pot (its own 10 % is $1.80); pro rata would take 31 cents of the
    side pot, which seat 3 cannot win. Seat 3's aces take the main pot, $17; seat 1's
    kings the side pot, $8: seat 3 $6 → $17, seat 1 $100 - $10 + $8 = $98, seat 2 $90."""
    h = hand("holdem", {1: 10_000, 2: 10_000, 3: 600}, button=1, chip_unit_cents=100,
             rake=pct_rake(1000, 100))
    h.deal({3: C("AsAd"), 1: C("KsKd"), 2: C("2c7d")})
    h.act(1, "raise")
    h.act(2, "call")
    h.act(3, "call")
    h.deal(C("3h8s9c"))
    h.act(2, "bet")
    h.act(3, "call")
    h.act(1, "call")
    h.deal(C("Jd"))
    h.act(2, "bet")
    h.act(1, "call")
    h.deal(C("4s"))
    h.act(2, "check")
    h.act(1, "check")
    done = h.events[-1]["data"]
    assert (done["rake"], done["rake_by_pot"]) == (100, [100, 0])
    assert h.stacks == {1: 9_800, 2: 9_000, 3: 1_700}


@pytest.mark.regulation("637a.18(e)", "637a.18(f)")
def test_at_the_showdown_only_hands_that_won_nothing_are_discarded():
    """§ 637a.18(e): the winning hand is shown in its entirety; § 637a.18(f): a hand goes
    to the discards only once it has lost to the others. Four players, button seat 4;
    board Kh Qh Jd 5s 6s; seat 3 (3c 8d) makes the final bet and shows first although
    king high loses; seat 2's aces win and are shown, both cards; seats 4 (4c 9d) and 1
    (2c 7d), beaten, are mucked; nothing is awarded to a mucked hand."""
    h = hand("holdem", players=4, button=4)
    h.deal({1: C("2c7d"), 2: C("AsAd"), 3: C("3c8d"), 4: C("4c9d")})
    for board in (C("KhQhJd"), C("5s")):
        call_down(h)
        h.deal(board)
    call_down(h)
    h.deal(C("6s"))
    h.act(1, "check")
    h.act(2, "check")
    h.act(3, "bet")
    call_down(h)
    shown = {e["data"]["seat"]: e["data"]["cards"] for e in h.events
             if e["type"] == "HandShown"}
    assert shown == {3: C("3c8d"), 2: C("AsAd")}
    mucked = [e["data"]["seat"] for e in h.events if e["type"] == "HandMucked"]
    assert mucked == [4, 1]
    assert {e["data"]["seat"] for e in h.events if e["type"] == "PotAwarded"} == {2}


@pytest.mark.regulation("637a.18(h)")
def test_no_cards_go_on_record_for_a_player_not_dealt_in_and_the_round_goes_on():
    """§ 637a.18(h): cards given to a player who is not in the round are no hand of his and
    the round continues. Seats 1-3 are dealt in; a deal that also names seat 4 is refused
    with nothing recorded, and the deal to seats 2, 3 and 1 goes on with the first betting
    round. (The dealer records the eligible seats' cards only; the product has no record
    of the cards that went to seat 4 and were discarded.)"""
    h = hand("holdem", players=3)
    before, events = h.snapshot(), list(h.events)
    with pytest.raises(InvalidAction) as exc:
        h.deal({2: C("AsAd"), 3: C("KsKd"), 1: C("2c7d"), 4: C("QsQd")})
    assert exc.value.field == "cards"
    assert (h.snapshot(), h.events) == (before, events)
    h.deal({2: C("AsAd"), 3: C("KsKd"), 1: C("2c7d")})
    assert (h.phase, h.to_act) == ("betting", 1)


@pytest.mark.regulation("637a.15(a)", "637a.16(a)")
def test_no_fund_contribution_where_the_submission_offers_no_payout():
    """§ 637a.15(a), § 637a.16(a): a Bad Beat or High Hand payout only if the Rules
    Submission says so, from a separate fund. The same hand (three players call $2 and
    check it down: a $6 pot, 10 % rake capped at $4 = $0.60) with no jackpot options
    gives nothing to any fund; with the High Hand's 5 % it gives 5 % of the $5.40 left,
    $0.27, to the high-hand fund alone, and the players' stacks bear exactly that."""
    def play(**options):
        h = Hand.start(rules("holdem", rake=PCT, **options),
                       {1: 10_000, 2: 10_000, 3: 10_000}, button=1, deck=list(range(52)))
        while not h.is_complete:
            call_down(h)
        return h
    plain = play()
    assert not any(e["type"] == "JackpotContributionTaken" for e in plain.events)
    assert plain.result["rake"] == 60 and sum(plain.stacks.values()) == 30_000 - 60
    funded = play(high_hand=JACKPOT_OPTIONS["high_hand"])
    taken = [(e["data"]["fund"], e["data"]["amount"]) for e in funded.events
             if e["type"] == "JackpotContributionTaken"]
    assert taken == [("high_hand", 27)]
    assert sum(funded.stacks.values()) == 30_000 - 60 - 27


@pytest.mark.regulation("637a.18(g)(1)")
def test_cards_not_shuffled_and_cut_are_a_misdeal_at_any_point_of_the_deal():
    """§ 637a.18(g)(1): a failure to shuffle and cut the cards is a misdeal; unlike a wrong
    starting position or a missed player ((g)(2), (4)) it is not limited to before two
    voluntary bets. Seats 1 and 2 have called: the misdeal still returns every chip,
    $100 each, and the cards go back for a reshuffle (the hand is over, nothing awarded)."""
    h = holdem_dealt()
    h.act(1, "call")
    h.act(2, "call")
    h.misdeal("not_shuffled_or_cut")
    assert h.is_complete and h.stacks == {1: 10_000, 2: 10_000, 3: 10_000}
    assert not any(e["type"] == "PotAwarded" for e in h.events)
    assert next(e for e in h.events if e["type"] == "MisdealDeclared")["data"][
        "reason"] == "not_shuffled_or_cut"
