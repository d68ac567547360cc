"""Irregularities (589.13, 671a.13, 579.13) and abandoned wagers (589.7(b))."""

from __future__ import annotations

import pytest

from tables.domain.banked import Phase

from .drive import Table

HANDS = {1: "2c 2d 8h 9s Jc", 2: "Ac Kd 5d 8c 9c"}
DEALER = "Qh Js 4h 5s 7d"


def _lunar(game: str = "lunar-poker-589") -> Table:
    t = Table(game)
    for n in HANDS:
        t.wager(n, "ante", 1000)
        t.wager(n, "super", 1000)
    return t


def _assert_void(t: Table, reason: str, cite: str) -> None:
    assert t.state.phase is Phase.CLOSED
    assert t.state.void == {"reason": reason, "cite": cite}
    for p in t.state.positions.values():
        assert p.returned == p.wagered  # every wager returned, fees included
    assert t.state.totals["house_win"] == 0
    voided = next(e for e in t.events if e["type"] == "RoundVoided")
    assert voided["data"]["lines"] == [
        {"position": n, "wager": w, "wagered": a}
        for n in sorted(t.state.positions) for w, a in t.state.positions[n].wagered.items()]


@pytest.mark.parametrize(("game", "cite"), [
    pytest.param("lunar-poker-589", "589.13(a)", marks=pytest.mark.regulation("589.13(a)")),
    pytest.param("lunar-poker-671a", "671a.13(a)",
                 marks=pytest.mark.regulation("671a.13(a)"))])
def test_two_cards_face_up_void_the_round_589_13_a(game: str, cite: str) -> None:
    """§ 589.13(a), § 671a.13(a): more than one card face up: all hands void, all wagers
    returned."""
    t = _lunar(game)
    t.do("no_more_bets")
    t.do("report_irregularity", kind="card_face_up", card="3h")
    assert t.state.phase is Phase.DEALING  # one card: not used, the deal goes on
    t.refuse("already_reported", "report_irregularity", kind="card_face_up", card="3h")
    t.do("report_irregularity", kind="card_face_up", card="3s")
    _assert_void(t, "card_face_up", cite)


@pytest.mark.regulation("671a.13(a)")
def test_a_card_face_up_during_the_draws_671a_13_a() -> None:
    """§ 671a.13(a): while the cards are being dealt, the draws included."""
    t = _lunar("lunar-poker-671a")
    t.deal(HANDS, DEALER)
    t.decide(1, "exchange")
    t.decide(2, "bet")
    t.do("lock_decisions")
    t.refuse("card_already_dealt", "report_irregularity", kind="card_face_up", card="Qh")
    t.do("report_irregularity", kind="card_face_up", card="Th")
    t.refuse("card_not_in_deck", "draw", position=1, discard=["8h", "9s"], cards=["Th", "Ts"])
    t.do("draw", position=1, discard=["8h", "9s"], cards=["Tc", "Ts"])


@pytest.mark.regulation("579.13(a)")
def test_hilo_no_card_face_up_after_the_deal_579_13_a() -> None:
    """§ 579.13(a): only while the cards are being dealt; Hi-Lo deals nothing later."""
    t = Table("five-card-hi-lo")
    t.wager(1, "ante", 500)
    t.deal({1: HANDS[1]}, DEALER)
    t.refuse("irregularity_not_applicable", "report_irregularity", kind="card_face_up",
             card="3h")


@pytest.mark.parametrize(("game", "cite"), [
    pytest.param("lunar-poker-589", "589.13(c)", marks=pytest.mark.regulation("589.13(c)")),
    pytest.param("lunar-poker-671a", "671a.13(c)",
                 marks=pytest.mark.regulation("671a.13(c)")),
    pytest.param("five-card-hi-lo", "579.13(c)", marks=pytest.mark.regulation("579.13(c)"))])
def test_wrong_number_of_cards_voids_the_round(game: str, cite: str) -> None:
    """§ 589.13(c), § 671a.13(c), § 579.13(c)."""
    t = Table(game)
    t.wager(1, "ante", 1000)
    if game == "lunar-poker-671a":
        t.wager(1, "super", 1000)
    t.refuse("irregularity_not_applicable", "report_irregularity", kind="wrong_card_count")
    t.do("no_more_bets")
    t.do("deal", hands={"1": HANDS[1].split()}, dealer=DEALER.split())
    t.do("report_irregularity", kind="wrong_card_count", position=1)
    _assert_void(t, "wrong_card_count", cite)


@pytest.mark.regulation("589.13(c)")
def test_a_misdeal_seen_before_the_cards_are_recorded_voids_589_13_c() -> None:
    t = _lunar()
    t.do("no_more_bets")
    t.do("report_irregularity", kind="wrong_card_count")
    _assert_void(t, "wrong_card_count", "589.13(c)")


@pytest.mark.regulation("589.13(d)")
def test_dealer_card_exposed_before_decisions_voids_589_13_d() -> None:
    """§ 589.13(d): exposed before each player has folded or placed a Bet Wager."""
    t = _lunar()
    t.deal(HANDS, DEALER)
    t.decide(1, "bet")
    t.do("report_irregularity", kind="dealer_card_exposed")
    _assert_void(t, "dealer_card_exposed", "589.13(d)")


@pytest.mark.regulation("671a.13(d)")
def test_dealer_card_exposed_while_a_player_draws_voids_after_supers_paid_671a_13_d() -> None:
    """§ 671a.13(d): a player who paid an Options fee has not yet folded or bet, so the
    round is void even though the Super Wagers were settled at the lock: every wager is
    returned, the Super already paid included."""
    t = _lunar("lunar-poker-671a")
    t.deal({1: HANDS[1], 2: "Ac Kc Qd 8c 9c"}, DEALER)
    t.decide(2, "declare_super")
    t.decide(1, "buy")
    t.decide(2, "bet")
    t.do("lock_decisions")
    assert t.returned(2)["super"] == 6000  # ace-king-queen, 5 to 1 (671a.12(b))
    t.do("report_irregularity", kind="dealer_card_exposed")
    _assert_void(t, "dealer_card_exposed", "671a.13(d)")


@pytest.mark.regulation("589.13(d)")
def test_dealer_card_exposed_after_everyone_decided_is_only_recorded() -> None:
    t = _lunar()
    t.deal(HANDS, DEALER)
    t.decide(1, "bet")
    t.decide(2, "fold")
    t.do("report_irregularity", kind="dealer_card_exposed")
    assert t.events[-1]["type"] == "IrregularityRecorded"
    assert t.state.void is None
    h = Table("five-card-hi-lo")
    h.wager(1, "ante", 500)
    h.deal({1: HANDS[1]}, DEALER)
    h.refuse("irregularity_not_applicable", "report_irregularity", kind="dealer_card_exposed")


@pytest.mark.regulation("589.13(e)")
def test_shuffler_jam_reshuffles_without_voiding_589_13_e() -> None:
    """§ 589.13(e), § 579.13(d): the cards are reshuffled; the wagers stand."""
    t = _lunar()
    t.do("report_irregularity", kind="shuffler_jam")
    assert t.events[-1]["data"] == {"kind": "shuffler_jam", "cite": "589.13(e)",
                                    "action": "reshuffle"}
    t.deal(HANDS, DEALER)
    t.refuse("irregularity_not_applicable", "report_irregularity", kind="shuffler_jam")


@pytest.mark.parametrize(("game", "cite"), [
    pytest.param("lunar-poker-589", "589.13(f)", marks=pytest.mark.regulation("589.13(f)")),
    pytest.param("lunar-poker-671a", "671a.13(f)",
                 marks=pytest.mark.regulation("671a.13(f)")),
    pytest.param("five-card-hi-lo", "579.13(e)", marks=pytest.mark.regulation("579.13(e)"))])
def test_shoe_jam_voids_the_round(game: str, cite: str) -> None:
    """§ 589.13(f), § 671a.13(f), § 579.13(e): the round of play is void."""
    t = Table(game)
    t.wager(1, "ante", 1000)
    if game == "lunar-poker-671a":
        t.wager(1, "super", 1000)
    t.refuse("irregularity_not_applicable", "report_irregularity", kind="shoe_jam")
    t.do("no_more_bets")
    t.do("report_irregularity", kind="shoe_jam")
    _assert_void(t, "shoe_jam", cite)
    t.refuse("round_closed", "report_irregularity", kind="shoe_jam")


def test_wrong_stub_count_voids_579_8_h() -> None:
    """§ 579.8(h): void, and the deck is removed. A misdeal keeps the deck only with 52
    remaining counted, so the floor's report of one, without the count, is refused
    (misdealt_needs_count); it is recorded with the stub count
    (test_stub_count_and_attestations_579.py)."""
    t = Table("five-card-hi-lo")
    t.wager(1, "ante", 500)
    t.deal({1: HANDS[1]}, DEALER)
    t.refuse("misdealt_needs_count", "report_irregularity", kind="stub_count_wrong",
             misdealt=True)
    t.do("report_irregularity", kind="stub_count_wrong", misdealt=False)
    _assert_void(t, "stub_count_wrong", "579.8(h)")
    voided = next(e for e in t.events if e["type"] == "RoundVoided")
    assert voided["data"]["deck_removed"] is True


def test_lunar_has_no_stub_count_irregularity() -> None:
    t = _lunar()
    t.refuse("irregularity_not_applicable", "report_irregularity", kind="stub_count_wrong")
    t.refuse("unknown_irregularity", "report_irregularity", kind="spilled_drink")


@pytest.mark.regulation("589.7(b)")
def test_abandoned_wagers_are_losing_wagers_589_7_b() -> None:
    """§ 589.7(b): a player who leaves during the round: wagers treated as losing."""
    t = _lunar()
    t.do("no_more_bets")
    t.refuse("irregularity_not_applicable", "report_irregularity", kind="abandoned",
             position=1)
    t.do("deal", hands={"1": HANDS[1].split(), "2": HANDS[2].split()}, dealer=DEALER.split())
    t.decide(1, "bet")
    t.do("report_irregularity", kind="abandoned", position=1)
    assert t.settled() == [(1, "ante", "abandoned", 0), (1, "super", "abandoned", 0),
                           (1, "bet", "abandoned", 0)]
    t.refuse("position_abandoned", "decision", position=1, decision="declare_super")
    t.refuse("already_reported", "report_irregularity", kind="abandoned", position=1)
    t.decide(2, "fold")
    t.do("lock_decisions")  # the abandoned position holds up nothing
    assert t.state.phase is Phase.CLOSED
    # position 1: Ante, Super and Bet lost; position 2: Ante folded, Super not declared
    assert t.state.totals["house_win"] == 4000 + 2000


def test_abandoning_the_last_draw_moves_the_round_on() -> None:
    t = _lunar()
    t.deal(HANDS, DEALER)
    t.decide(1, "buy")
    t.decide(2, "bet")
    t.do("lock_decisions")
    t.do("report_irregularity", kind="abandoned", position=1)
    assert t.state.phase is Phase.FORCING  # the dealer's queen high does not qualify


@pytest.mark.regulation("579.7(b)")
def test_hilo_abandoned_position_is_skipped_579_7_b() -> None:
    t = Table("five-card-hi-lo")
    t.wager(1, "ante", 500)
    t.wager(2, "ante", 500)
    t.deal({1: HANDS[1], 2: HANDS[2]}, DEALER)
    t.do("report_irregularity", kind="abandoned", position=1)
    t.decide(2, "forfeit")  # position 1 is no longer asked
    assert t.settled()[-1] == (2, "ante", "forfeited", 0)


def test_wrong_stub_count_after_stacks_from_an_automated_shoe_cites_579_10_f() -> None:
    """§ 579.10(f): dealt in stacks from an automated dealing shoe, the wrong stub count
    is the automated shoe's rule; the outcome is the same as under § 579.8(h)."""
    t = Table("five-card-hi-lo")
    t.wager(1, "ante", 500)
    t.do("no_more_bets")
    t.do("deal", deck=list(range(52)), method="stacks")
    t.do("report_irregularity", kind="stub_count_wrong", misdealt=False)
    _assert_void(t, "stub_count_wrong", "579.10(f)")
    voided = next(e for e in t.events if e["type"] == "RoundVoided")
    assert voided["data"]["deck_removed"] is True
