"""Five Card Hi-Lo decisions, settings and the order of settlement (579.7(f), 579.11)."""

from __future__ import annotations

import pytest

from tables.domain.banked import Phase

from .drive import Table, cards


def _round(hands: dict[int, str], dealer: str, antes: dict[int, int] | None = None,
           players: dict[int, str] | None = None, side: tuple[str, ...] = ()) -> Table:
    t = Table("five-card-hi-lo")
    for n in hands:
        t.wager(n, "ante", (antes or {}).get(n, 1000), player=(players or {}).get(n))
        for w in side:
            t.wager(n, w, 500)
    t.deal(hands, dealer)
    return t


@pytest.mark.regulation("579.11(b)")
def test_play_or_forfeit_is_asked_clockwise_579_11_b() -> None:
    """§ 579.11(b): beginning with the player farthest to the dealer's left."""
    t = _round({1: "2c 3d 5h 8s Tc", 2: "4c 6d 7h 9s Jc"}, "Kd Kh Qs 2d 3h")
    t.refuse("out_of_turn", "decision", position=2, decision="forfeit")
    t.decide(1, "forfeit")
    t.decide(2, "play")
    t.refuse("decision_already_made", "decision", position=2, decision="forfeit")


@pytest.mark.regulation("579.11(b)")
def test_play_wager_equals_the_ante_579_11_b() -> None:
    t = _round({1: "2c 3d 5h 8s Tc"}, "Kd Kh Qs 2d 3h")
    t.refuse("play_not_equal_ante", "decision", position=1, decision="play", amount=2000)
    t.refuse("unknown_decision", "decision", position=1, decision="bet")


@pytest.mark.regulation("579.11(d)", "579.6(a)")
def test_a_setting_is_checked_against_579_11_d() -> None:
    """§ 579.11(d): the three higher-value cards high; at most one ace low."""
    t = _round({1: "As Ad Kc 9h 2s"}, "Kd Kh Qs 2d 3h")
    err = t.refuse("invalid_setting", "decision", position=1, decision="play",
                   high=["Kc", "9h", "2s"], low=["As", "Ad"])
    assert err.reason == "hilo_two_aces_low"
    t.decide(1, "play")
    err = t.refuse("invalid_setting", "set_hands", position=1, high=["As", "Ad", "2s"],
                   low=["Kc", "9h"])
    assert err.reason == "hilo_low_card_above_high"
    err = t.refuse("invalid_setting", "set_hands", position=1, high=["As", "Ad", "Kc"],
                   low=["9h", "3h"])
    assert err.reason == "hilo_cards_not_dealt"
    t.do("set_hands", position=1, high=["As", "Kc", "9h"], low=["Ad", "2s"])
    assert t.events[-1]["data"]["high_total"] == 30  # 11 + 10 + 9
    assert t.events[-1]["data"]["low_total"] == 3   # an ace low counts 1 (579.6(a))


@pytest.mark.regulation("579.11(a)(3)", "579.7(f)")
def test_a_hand_once_set_is_not_changed_579_11_a_3() -> None:
    """§ 579.11(a)(3), § 579.7(f)."""
    t = _round({1: "2c 3d 5h 8s Tc", 2: "4c 6d 7h 9s Jc"}, "Kd Kh Qs 2d 3h")
    t.refuse("play_first", "set_hands", position=1, high=["Tc", "8s", "5h"], low=["3d", "2c"])
    t.decide(1, "play", high=["Tc", "8s", "5h"], low=["3d", "2c"])
    t.refuse("hands_already_set", "set_hands", position=1, high=["Tc", "8s", "5h"],
             low=["3d", "2c"])
    t.decide(2, "forfeit")
    t.refuse("position_folded", "set_hands", position=2, high=["Jc", "9s", "7h"],
             low=["6d", "4c"])


@pytest.mark.regulation("579.11(e)")
def test_lock_waits_for_every_setting_579_11_e() -> None:
    """§ 579.11(e): the dealer's cards are turned over after all players set their hands."""
    t = _round({1: "2c 3d 5h 8s Tc"}, "Kd Kh Qs 2d 3h")
    t.refuse("decisions_pending", "lock_decisions")
    t.decide(1, "play")
    err = t.refuse("decisions_pending", "lock_decisions")
    assert "set its hands" in err.message
    t.do("set_hands", position=1, high=["Tc", "8s", "5h"], low=["3d", "2c"])
    t.do("lock_decisions")
    assert t.state.phase is Phase.CLOSED


def test_lunar_hands_are_not_set() -> None:
    t = Table("lunar-poker-589")
    t.wager(1, "ante", 1000)
    t.deal({1: "2c 3d 5h 8s Tc"}, "Kd Kh Qs 2d 3h")
    t.refuse("no_setting_in_game", "set_hands", position=1, high=[], low=[])


@pytest.mark.regulation("579.11(b)(1)", "579.11(b)(2)", "579.11(c)")
def test_forfeited_wagers_collected_once_everyone_answered_579_11_c() -> None:
    """§ 579.11(b)(1)-(2), § 579.11(c): Ante and Tie forfeited; the Poker Bonus stays."""
    t = _round({1: "2c 3d 5h 8s Tc", 2: "4c 6d 7h 9s Jc"}, "Kd Kh Qs 2d 3h",
               side=("tie", "poker_bonus"))
    t.decide(1, "forfeit")
    assert t.settled() == []  # the dealer has still to ask position 2
    t.decide(2, "play", high=["Jc", "9s", "7h"], low=["6d", "4c"])
    assert t.settled() == [(1, "ante", "forfeited", 0), (1, "tie", "forfeited", 0)]
    assert "poker_bonus" not in t.state.positions[1].settled


@pytest.mark.regulation("579.11(f)", "579.11(j)")
def test_settlement_goes_counterclockwise_from_the_dealers_right_579_11_f() -> None:
    """§ 579.11(f), § 579.11(j), § 579.11(k): per position, Ante and Play, then the
    optional wagers."""
    t = _round({1: "2c 3d 5h 8s Tc", 2: "4c 6d 7h 9s Jc"}, "Kd Kh Qs 2d 3h",
               side=("tie", "poker_bonus"))
    t.decide(1, "play", high=["Tc", "8s", "5h"], low=["3d", "2c"])
    t.decide(2, "play", high=["Jc", "9s", "7h"], low=["6d", "4c"])
    t.do("lock_decisions")
    assert [(n, w) for n, w, _, _ in t.settled()] == [
        (2, "ante"), (2, "play"), (2, "tie"), (2, "poker_bonus"),
        (1, "ante"), (1, "play"), (1, "tie"), (1, "poker_bonus")]


@pytest.mark.regulation("579.7(f)")
def test_adjacent_hands_with_equal_wagers_set_counterclockwise_579_7_f() -> None:
    """§ 579.7(f): equal wagers: played in a counterclockwise rotation, so the hand at
    position 3 (nearer the dealer's right) is set before the one at position 2."""
    t = _round({2: "2c 3d 5h 8s Tc", 3: "4c 6d 7h 9s Jc"}, "Kd Kh Qs 2d 3h",
               players={2: "ann", 3: "ann"})
    t.refuse("set_other_hand_first", "decision", position=2, decision="play",
             high=["Tc", "8s", "5h"], low=["3d", "2c"])
    t.decide(2, "play")
    t.decide(3, "play")
    t.refuse("set_other_hand_first", "set_hands", position=2, high=["Tc", "8s", "5h"],
             low=["3d", "2c"])
    t.do("set_hands", position=3, high=["Jc", "9s", "7h"], low=["6d", "4c"])
    t.do("set_hands", position=2, high=["Tc", "8s", "5h"], low=["3d", "2c"])


@pytest.mark.regulation("579.7(f)")
def test_adjacent_hands_the_larger_wager_is_set_first_579_7_f() -> None:
    """§ 579.7(f): "the player shall rank and set the hand with the larger wager" first."""
    t = _round({2: "2c 3d 5h 8s Tc", 3: "4c 6d 7h 9s Jc"}, "Kd Kh Qs 2d 3h",
               antes={2: 2000, 3: 1000}, players={2: "ann", 3: "ann"})
    t.decide(2, "play", high=["Tc", "8s", "5h"], low=["3d", "2c"])
    t.decide(3, "play", high=["Jc", "9s", "7h"], low=["6d", "4c"])
    assert [e["data"]["position"] for e in t.events if e["type"] == "HandsSet"] == [2, 3]


def test_a_forfeited_adjacent_hand_does_not_hold_up_the_other() -> None:
    t = _round({2: "2c 3d 5h 8s Tc", 3: "4c 6d 7h 9s Jc"}, "Kd Kh Qs 2d 3h",
               players={2: "ann", 3: "ann"})
    t.decide(2, "play")
    t.decide(3, "forfeit")
    t.do("set_hands", position=2, high=["Tc", "8s", "5h"], low=["3d", "2c"])


@pytest.mark.regulation("579.11(h)", "579.11(g)(2)", "579.12(b)")
def test_ante_bonus_is_paid_even_when_the_ante_loses_579_11_h() -> None:
    """§ 579.11(h): three or more aces, regardless of the outcome of the Ante and Play.
    The player sets A-A-5 high (27) and A-4 low (5); the dealer K-K-Q (30) and 2-2 (4):
    high lower and low higher, so Ante and Play lose (579.11(g)(2)). Paytable B: three
    aces 5 for 1 on the 1,000 Ante (579.12(b)) = 5,000 on the Ante line."""
    t = _round({1: "As Ad Ac 4c 5c"}, "2d 2h Kd Kh Qs")
    t.decide(1, "play", high=["As", "Ad", "5c"], low=["Ac", "4c"])
    t.do("lock_decisions")
    assert t.settled() == [(1, "ante", "lost", 0), (1, "play", "lost", 0),
                           (1, "ante", "ante_bonus", 5000)]
    assert t.returned(1) == {"ante": 5000, "play": 0}


@pytest.mark.regulation("579.11(b)")
def test_a_forfeited_hand_gets_no_ante_bonus_579_11_b() -> None:
    """§ 579.11(b): forfeiting the Ante ends the player's participation, so no Ante Bonus
    (579.11(h) is paid "based on the amount of the player's Ante Wager")."""
    t = _round({1: "As Ad Ac 4c 5c"}, "2d 2h Kd Kh Qs")
    t.decide(1, "forfeit")
    t.do("lock_decisions")
    assert t.settled() == [(1, "ante", "forfeited", 0)]


@pytest.mark.regulation("579.11(e)")
def test_dealer_sets_aces_high_579_11_e() -> None:
    """§ 579.11(e): aces in the dealer's high hand unless four aces were dealt."""
    t = _round({1: "2c 3d 5h 8s Tc"}, "Ah Ad 2d 3h 4s")
    t.decide(1, "play", high=["Tc", "8s", "5h"], low=["3d", "2c"])
    t.do("lock_decisions")
    dealer = next(e["data"] for e in t.events if e["type"] == "DealerHandsSet")
    assert sorted(dealer["high"]) == sorted(cards("Ah Ad 4s"))
    assert (dealer["high_total"], dealer["low_total"]) == (26, 5)


def test_an_invalid_setting_cites_579_11_d_once() -> None:
    """§ 579.11(d): the refusal names its subsection once ("579.11(d): 579.11(d): …" was
    shown before), whichever part of the rule the setting breaks."""
    t = _round({1: "As Ad Kc 9h 2s"}, "Kd Kh Qs 2d 3h")
    t.decide(1, "play")
    for high, low in ((["Kc", "9h", "2s"], ["As", "Ad"]),           # two aces low
                      (["As", "Ad", "2s"], ["Kc", "9h"]),           # a low card above a high
                      (["As", "Ad", "Kc"], ["9h", "3h"]),           # cards not dealt
                      (["As", "Ad"], ["Kc", "9h", "2s"])):          # wrong sizes
        err = t.refuse("invalid_setting", "set_hands", position=1, high=high, low=low)
        assert err.message.count("579.11(d)") == 1, err.message
        assert err.message.startswith("579.11(d): ")
