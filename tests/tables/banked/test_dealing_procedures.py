"""The dealer's recorded steps of the deal by the table's dealing method (579.8-579.10,
589.8, 671a.8), the stub (579.8(e)-(g), 579.9(c)-(e), 579.10(c)-(e)), the cards to the
discard rack after settlement (579.11(c), (i), (k)), a card drawn in error (x.13(b)) and
the wagering instruments (x.7(a)). No database: the domain alone."""

from __future__ import annotations

import pytest

from tables.domain.banked import Phase

from .drive import ORDERED_DECK, Table, cards, ids

GAME = "five-card-hi-lo"
MANUAL = {"dealing_method": "manual-shoe", "shuffler": "none"}
HAND = {"dealing_method": "hand", "shuffler": "automated"}
AUTO = {"dealing_method": "automated-shoe", "shuffler": "automated"}
#: two positions and the dealer: 15 cards out of the deck, a stub of 37
HANDS = {"1": "2c 3d 5h 8s Tc", "2": "4c 6d 7h 9s Jc"}
DEALER = "Kd Kh Qs 2d 3h"
#: the dealer's statements a manual shoe's deal records (x.8(a), 579.8(c)), never assumed
STATED = {"placed_by": "dealer", "card_hand": "closest_to_shoe"}


def _hilo(equipment: dict[str, str] | None, positions: tuple[int, ...] = (1, 2)) -> Table:
    t = Table(GAME, equipment=equipment)
    for n in positions:
        t.wager(n, "ante", 500)
    t.do("no_more_bets")
    return t


def _recorded(t: Table, **fields: object) -> list[dict]:
    if t.state.dealing_method == "manual-shoe":
        fields = {**STATED, **fields}
    return t.do("deal", hands={k: cards(v) for k, v in HANDS.items()},
                dealer=cards(DEALER), **fields)


def _lunar(game: str, equipment: dict[str, str] | None = None) -> Table:
    t = Table(game, equipment=equipment)
    for n in (1, 2):
        t.wager(n, "ante", 1000)
        t.wager(n, "super", 1000)
    t.do("no_more_bets")
    return t


# --- the deal by the table's dealing method ---------------------------------------------

@pytest.mark.parametrize(("game", "cite"), [(GAME, "§ 579.8(a)"),
                                            ("lunar-poker-589", "§ 589.8(a)"),
                                            ("lunar-poker-671a", "§ 671a.8(a)")])
def test_the_deck_is_placed_in_the_manual_shoe_by_the_dealer_or_a_working_shuffler(
        game: str, cite: str) -> None:
    """x.8(a): the stacked deck is placed in the manual shoe by the dealer or by the
    automated shuffler: recorded on the deal; the shuffler only where the table has a
    working one."""
    t = _lunar(game, MANUAL) if game != GAME else _hilo(MANUAL)
    t.refuse("no_working_shuffler", "deal", deck=ORDERED_DECK, placed_by="shuffler",
             card_hand="closest_to_shoe")
    t.refuse("invalid_placed_by", "deal", deck=ORDERED_DECK, placed_by="floorperson",
             card_hand="closest_to_shoe")
    (dealt,) = t.do("deal", deck=ORDERED_DECK, **STATED)
    assert dealt["data"]["placed_by"] == "dealer", cite
    assert dealt["data"]["dealing_method"] == "manual-shoe", cite

    with_shuffler = {"dealing_method": "manual-shoe", "shuffler": "automated"}
    t = _lunar(game, with_shuffler) if game != GAME else _hilo(with_shuffler)
    (dealt,) = t.do("deal", deck=ORDERED_DECK, placed_by="shuffler",
                    card_hand="closest_to_shoe")
    assert dealt["data"]["placed_by"] == "shuffler", cite


def test_each_card_comes_out_of_the_manual_shoe_one_at_a_time_with_the_near_hand() -> None:
    """§ 579.8(c): each card removed from the shoe with the hand closest to it, one at a
    time (by_card): the dealer's attestation is recorded on the deal; a deal attesting the
    far hand is refused (wrong_dealing_hand), nothing recorded; stacks are refused at a
    manual shoe."""
    t = _hilo(MANUAL)
    t.refuse("deal_mode_ambiguous", "deal", deck=ORDERED_DECK, hands={})
    t.refuse("deal_method_mismatch", "deal", deck=ORDERED_DECK, method="stacks")
    err = t.refuse("wrong_dealing_hand", "deal", deck=ORDERED_DECK, placed_by="dealer",
                   card_hand="farthest_from_shoe")
    assert err.field == "card_hand" and "579.8(c)" in str(err)
    (dealt,) = t.do("deal", deck=ORDERED_DECK, **STATED)
    assert dealt["data"]["card_hand"] == "closest_to_shoe"
    assert dealt["data"]["method"] == "by_card"
    # one card per pass: 1 gets the 1st, 4th, 7th ... cards of the deck
    assert t.state.positions[1].dealt == ids("2c 2s 3h 4d 5c")
    assert t.state.dealer_cards == ids("2h 3d 4c 4s 5h")


@pytest.mark.regulation("579.10(b)")
def test_the_table_method_wins_stacks_from_an_automated_shoe() -> None:
    """§ 579.10(b): an automated shoe dispenses stacks of five; a deal naming one card
    at a time is refused there, and one naming nothing is dealt in stacks."""
    t = _hilo(AUTO)
    t.refuse("deal_method_mismatch", "deal", deck=ORDERED_DECK, method="by_card")
    t.refuse("placed_by_not_applicable", "deal", deck=ORDERED_DECK, placed_by="dealer")
    t.refuse("card_hand_not_applicable", "deal", deck=ORDERED_DECK,
             card_hand="closest_to_shoe")
    (dealt,) = t.do("deal", deck=ORDERED_DECK)
    assert dealt["data"]["method"] == "stacks"
    assert "placed_by" not in dealt["data"] and "card_hand" not in dealt["data"]
    assert t.state.positions[1].dealt == ids("2c 2d 2h 2s 3c")
    assert t.state.positions[2].dealt == ids("3d 3h 3s 4c 4d")
    assert t.state.dealer_cards == ids("4h 4s 5c 5d 5h")


@pytest.mark.regulation("579.9(b)")
def test_by_hand_the_cards_come_one_at_a_time() -> None:
    """§ 579.9(b): dealt from the hand one card at a time; stacks refused."""
    t = _hilo(HAND)
    t.refuse("deal_method_mismatch", "deal", deck=ORDERED_DECK, method="stacks")
    _recorded(t)
    assert t.state.method == "by_card"


# --- the stub --------------------------------------------------------------------------

@pytest.mark.parametrize(("equipment", "cite"), [(MANUAL, "579.8(e)"), (HAND, "579.9(c)"),
                                                 (AUTO, "579.10(c)")])
@pytest.mark.regulation("579.8(e)", "579.9(c)", "579.10(c)")
def test_the_stub_goes_to_the_discard_rack_after_the_deal(equipment, cite) -> None:
    """§ 579.8(e), § 579.9(c), § 579.10(c): after five cards to each player and the
    dealer, the stub is placed in the discard rack without exposing the cards."""
    t = _hilo(equipment)
    t.refuse("stub_before_deal", "stub_discard")
    _recorded(t)
    (ev,) = t.do("stub_discard")
    assert ev == {"type": "StubDiscarded", "data": {"cite": cite}}
    assert t.state.stub == "discarded"
    t.refuse("stub_already_discarded", "stub_discard")
    t.refuse("stub_already_discarded", "stub_count", cards=37)


@pytest.mark.parametrize(("equipment", "count", "right"),
                         [(MANUAL, "579.8(f)", "579.8(g)"), (HAND, "579.9(d)", "579.9(e)"),
                          (AUTO, "579.10(d)", "579.10(e)")])
@pytest.mark.regulation("579.8(g)", "579.9(d)", "579.9(e)", "579.10(d)", "579.10(e)")
def test_a_stub_that_makes_52_goes_to_the_discard_rack(equipment, count, right) -> None:
    """§ 579.8(f)-(g), § 579.9(d)-(e), § 579.10(d)-(e): no counting shuffler: the stub is
    counted face down; 37 in the stub and 15 cards out (two players and the dealer, five
    each) make 52, and the stub goes to the discard rack."""
    t = _hilo(equipment)
    _recorded(t)
    t.refuse("invalid_stub_count", "stub_count", cards=53)
    evs = t.do("stub_count", cards=37)
    assert evs == [
        {"type": "StubCounted", "data": {"cards": 37, "deck_cards": 52, "correct": True,
                                         "cite": count}},
        {"type": "StubDiscarded", "data": {"cite": right}}]
    assert t.state.phase is Phase.DECISIONS  # the round goes on


@pytest.mark.regulation("579.13(a)")
def test_a_card_found_face_up_is_one_of_the_cards_out_for_the_count() -> None:
    """§ 579.8(f)-(g) with § 579.13(a): 2c found face up went to the discard rack: 16
    cards out, so a stub of 36 makes 52."""
    t = _hilo(MANUAL)
    t.do("report_irregularity", kind="card_face_up", card="2c")
    t.do("deal", deck=ORDERED_DECK, **STATED)
    evs = t.do("stub_count", cards=36)
    assert evs[0]["data"] == {"cards": 36, "deck_cards": 52, "correct": True,
                              "cite": "579.8(f)"}


def test_a_wrong_stub_count_voids_the_round_and_removes_the_deck() -> None:
    """§ 579.8(f), (h): 36 in the stub and 15 out make 51: every hand void, every wager
    returned, the deck removed (not a misdeal)."""
    t = _hilo(MANUAL)
    _recorded(t)
    evs = t.do("stub_count", cards=36)
    assert evs[0]["data"]["correct"] is False and evs[0]["data"]["deck_cards"] == 51
    voided = next(e for e in evs if e["type"] == "RoundVoided")
    assert voided["data"]["cite"] == "579.8(h)"
    assert voided["data"]["deck_removed"] is True
    assert t.state.phase is Phase.CLOSED
    assert {n: p.returned for n, p in t.state.positions.items()} == {
        1: {"ante": 500}, 2: {"ante": 500}}


def test_the_stub_uncounted_where_a_counting_shuffler_counts_nor_at_lunar() -> None:
    """§ 579.8(f): the dealer counts the stub if a counting shuffler is not used; with one
    the stub may go to the rack uncounted (§ 579.8(e); a count there is allowed, tested in
    test_stub_count_and_attestations_579.py). Lunar Poker has no stub step."""
    t = _hilo({"dealing_method": "manual-shoe", "shuffler": "automated-counting"})
    _recorded(t)
    assert t.do("stub_discard")[0]["data"]["cite"] == "579.8(e)"
    t = _lunar("lunar-poker-671a", MANUAL)
    t.do("deal", deck=ORDERED_DECK, **STATED)
    t.refuse("no_stub_in_game", "stub_count", cards=37)


# --- the player's cards to the discard rack (579.11(c), (i), (k)) ------------------------

@pytest.mark.regulation("579.11(c)", "579.11(i)", "579.11(k)", "579.11(f)")
def test_cards_go_to_the_discard_rack_after_the_ante_and_play_or_the_optional_wagers() -> None:
    """§ 579.11(i): after the Ante and Play Wagers are settled the player's cards go to the
    discard rack; with a Tie Wager only after it is settled (579.11(j)-(k)); a forfeited
    hand's with its forfeited Ante (579.11(c)).

    Dealer Kd Kh Qs / 2d 3h: 30 high, 5 low. Position 1 (Ante only) Tc 8s 5h / 3d 2c:
    23 and 5, loses. Position 2 (Ante and Tie) Jc 9s 7h / 6d 4c: 26 and 10, loses; no hand
    ties the dealer's, the Tie Wager is collected. Position 3 forfeits."""
    t = Table(GAME, equipment=MANUAL)
    t.wager(1, "ante", 500)
    t.wager(2, "ante", 500)
    t.wager(2, "tie", 500)
    t.wager(3, "ante", 500)
    t.do("no_more_bets")
    t.do("deal", hands={"1": cards(HANDS["1"]), "2": cards(HANDS["2"]),
                        "3": cards("4d 6h 7s 9c Jd")}, dealer=cards(DEALER), **STATED)
    t.decide(1, "play", high=["Tc", "8s", "5h"], low=["3d", "2c"])
    t.decide(2, "play", high=["Jc", "9s", "7h"], low=["6d", "4c"])
    forfeit = t.decide(3, "forfeit")
    assert [(e["type"], e["data"].get("wager"), e["data"].get("cite")) for e in forfeit] == [
        ("DecisionMade", None, None), ("WagerSettled", "ante", "579.11(c)"),
        ("CardsToDiscardRack", None, "579.11(c)")]
    evs = t.do("lock_decisions")
    steps = [(e["type"], e["data"].get("position"), e["data"].get("wager"))
             for e in evs if e["type"] in ("WagerSettled", "CardsToDiscardRack")]
    # counterclockwise from the dealer's right (579.11(f)): position 2, then 1
    assert steps == [("WagerSettled", 2, "ante"), ("WagerSettled", 2, "play"),
                     ("WagerSettled", 2, "tie"), ("CardsToDiscardRack", 2, None),
                     ("WagerSettled", 1, "ante"), ("WagerSettled", 1, "play"),
                     ("CardsToDiscardRack", 1, None)]
    racked = {e["data"]["position"]: e["data"] for e in evs
              if e["type"] == "CardsToDiscardRack"}
    assert racked[1] == {"position": 1, "cards": cards(HANDS["1"]), "cite": "579.11(i)"}
    assert racked[2]["cite"] == "579.11(k)"


# --- a card drawn in error (x.13(b)) ----------------------------------------------------

@pytest.mark.regulation("579.13(b)")
def test_a_card_drawn_in_error_is_the_first_card_of_the_deal_from_the_deck() -> None:
    """§ 579.13(b): As drawn in error face down is used as the next card: the deal from a
    deck whose top card is not As is refused; from the deck with As on top, As is the
    first card out, and the rest follow in order one at a time (position 1, 2, dealer).
    """
    t = _hilo(MANUAL)
    (ev,) = t.do("report_irregularity", kind="card_drawn_in_error", card="As")
    assert ev == {"type": "CardDrawnInError", "data": {"card": cards("As")[0],
                                                       "cite": "579.13(b)"}}
    t.refuse("drawn_card_not_next", "deal", deck=ORDERED_DECK, **STATED)
    t.do("deal", deck=["As"] + [c for c in ORDERED_DECK if c != "As"], **STATED)
    assert t.state.positions[1].dealt == ids("As 2h 3d 4c 4s")
    assert t.state.positions[2].dealt == ids("2c 2s 3h 4d 5c")
    assert t.state.dealer_cards == ids("2d 3c 3s 4h 5d")
    assert t.state.drawn_in_error == ()
    t.refuse("irregularity_not_applicable", "report_irregularity",
             kind="card_drawn_in_error", card="Ks")


@pytest.mark.regulation("671a.13(b)")
def test_a_card_drawn_in_error_in_a_recorded_deal_is_the_first_card_dealt() -> None:
    """§ 671a.13(b): recorded mode: the card keyed as drawn in error must be the first
    card dealt (position 1's first card)."""
    t = _lunar("lunar-poker-671a")
    t.do("report_irregularity", kind="card_drawn_in_error", card="Th")
    assert t.events[-1]["data"]["cite"] == "671a.13(b)"
    t.refuse("already_reported", "report_irregularity", kind="card_drawn_in_error",
             card="Th")
    dealer = cards("Qh Js 4h 5s 7d")
    t.refuse("drawn_card_not_next", "deal", hands={"1": cards("2c 2d 8h 9s Th"),
                                                   "2": cards("Ac Kd 5d 8c 9c")},
             dealer=dealer)
    t.do("deal", hands={"1": cards("Th 2d 8h 9s 2c"), "2": cards("Ac Kd 5d 8c 9c")},
         dealer=dealer)
    assert t.state.positions[1].dealt[0] == cards("Th")[0]


@pytest.mark.regulation("589.13(b)")
def test_a_card_drawn_in_error_during_the_draws_is_the_deck_next_card() -> None:
    """§ 589.13(b): dealt from the ordered deck one card at a time, 15 cards are out
    (2c ... 5h); the card drawn in error is the 16th, 5s, and the exchange of two that
    follows gets 5s then 6c, the deck's next cards."""
    t = _lunar("lunar-poker-589")
    t.do("deal", deck=ORDERED_DECK)
    assert t.state.positions[1].dealt == ids("2c 2s 3h 4d 5c")
    t.decide(1, "exchange")
    t.decide(2, "bet")
    t.do("lock_decisions")
    t.refuse("drawn_card_not_next", "report_irregularity", kind="card_drawn_in_error",
             card="6c")
    t.refuse("card_face_exposed", "report_irregularity", kind="card_drawn_in_error",
             face_exposed=True)
    (ev,) = t.do("report_irregularity", kind="card_drawn_in_error")
    assert ev["data"] == {"card": cards("5s")[0], "cite": "589.13(b)"}
    (drawn,) = t.do("draw", position=1, discard=cards("2c 2s"))
    assert drawn["data"]["cards"] == cards("5s 6c")
    assert t.state.positions[1].cards == ids("3h 4d 5c 5s 6c")


# --- wagers are chips or plaques (x.7(a)) ------------------------------------------------

@pytest.mark.parametrize(("game", "cite"), [
    pytest.param("lunar-poker-671a", "§ 671a.7(a)", marks=pytest.mark.regulation("671a.7(a)")),
    pytest.param("lunar-poker-589", "§ 589.7(a)", marks=pytest.mark.regulation("589.7(a)")),
    pytest.param(GAME, "§ 579.7(a)", marks=pytest.mark.regulation("579.7(a)"))])
def test_a_verbal_wager_with_cash_is_not_accepted(game: str, cite: str) -> None:
    """x.7(a): wagers are value chips or plaques on the layout; a verbal wager
    accompanied by cash is refused, nothing recorded."""
    t = Table(game)
    err = t.refuse("verbal_cash_wager", "place_wager", position=1, wager="ante",
                   amount=1000, instrument="cash")
    assert err.field == "instrument", cite
    t.refuse("invalid_instrument", "place_wager", position=1, wager="ante", amount=1000,
             instrument="marker")
    (ev,) = t.do("place_wager", position=1, wager="ante", amount=1000, instrument="plaque")
    assert ev["data"]["instrument"] == "plaque"
    assert t.state.positions[1].wagered == {"ante": 1000}, cite
