"""Five Card Hi-Lo (chapter 579), one test per play-describing subsection not cited
elsewhere. Expected amounts are worked out by hand from the regulation text."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from casino.domain.cards import parse_cards
from casino.domain.errors import ConflictError
from tables.domain import deck_steps
from tables.domain.banked import Phase, rebuild
from tables.domain.catalogue import get_table_game
from tables.domain.decks import DealingMethod, Shuffler, TableSetup
from tables.domain.hands.hilo import poker_bonus_hand
from tables.domain.paytables import PayHand
from tables.domain.round_gate import DeckInPlay, RulesVersion, TableAtStart, check_deck

from .drive import ORDERED_DECK, Table, ids, texts

GAME = "five-card-hi-lo"
# the drive options: table minimum 500, Ante Bonus paytable B, Tie and Poker Bonus offered
# (Poker Bonus paytable A), adjacent betting areas permitted


def _assert_void_with_everything_returned(t: Table) -> None:
    assert t.state.phase is Phase.CLOSED
    assert t.state.void is not None
    for p in t.state.positions.values():
        assert p.returned == p.wagered
    assert t.state.totals["house_win"] == 0


@pytest.mark.regulation("579.6(c)", "579.12(d)", "579.11(b)(2)", "579.11(j)(2)")
def test_poker_bonus_ace_plays_low_only_in_a_five_high_straight() -> None:
    """§ 579.6(c): an ace completes a straight or straight flush with 2, 3, 4 and 5 but
    does not wrap round (queen, king, ace, 2 and 3 is no straight).

    Every position forfeits, so only the Poker Bonus (500 each) is settled, Paytable A
    of § 579.12(d):
    * 1: A-2-3-4-5 of mixed suits, a straight, 8 to 1: 500 + 4,000 = 4,500;
    * 2: A-2-3-4-5 of spades, a straight flush, 50 to 1: 500 + 25,000 = 25,500;
    * 3: Q-K-A-2-3 of hearts, five hearts not in consecutive order: a flush, 10 to 1:
      500 + 5,000 = 5,500 (not a straight flush);
    * 4: Q-K-A-2-3 of mixed suits: no straight, no pair: collected, 0.
    """
    hands = {1: "Ac 2d 3c 4d 5h", 2: "As 2s 3s 4s 5s", 3: "Qh Kh Ah 2h 3h",
             4: "Qc Kd Ad 2c 3d"}
    t = Table(GAME)
    for n in hands:
        t.wager(n, "ante", 500)
        t.wager(n, "poker_bonus", 500)
    t.deal(hands, "6c 7d 8h 9c Td")
    for n in hands:
        t.decide(n, "forfeit")
    t.do("lock_decisions")
    assert {n: t.returned(n)["poker_bonus"] for n in hands} == {
        1: 4500, 2: 25500, 3: 5500, 4: 0}
    # wagered 4 x (500 Ante + 500 Poker Bonus) = 4,000; returned 35,500
    assert t.state.totals["house_win"] == -31500


@pytest.mark.regulation("579.7(b)")
def test_abandoned_hilo_wagers_are_losing_wagers() -> None:
    """§ 579.7(b): a player who leaves during the round: his wagers may be treated as
    losing wagers — even a Poker Bonus on four kings (25 to 1 under § 579.12(d)) and a
    Play Wager already made. Position 1 (Ante, Tie, Poker Bonus, Play 500 each) loses
    2,000; position 2 forfeits its 500 Ante: the house wins 2,500."""
    t = Table(GAME)
    t.wager(1, "ante", 500)
    t.wager(1, "tie", 500)
    t.wager(1, "poker_bonus", 500)
    t.wager(2, "ante", 500)
    t.deal({1: "Kc Kd Kh Ks 2c", 2: "3c 5d 7h 9s Jc"}, "Qd Qh 8c 6d 4s")
    t.decide(1, "play")
    t.do("report_irregularity", kind="abandoned", position=1)
    assert sorted(t.settled()) == [(1, "ante", "abandoned", 0), (1, "play", "abandoned", 0),
                                   (1, "poker_bonus", "abandoned", 0),
                                   (1, "tie", "abandoned", 0)]
    t.refuse("position_abandoned", "set_hands", position=1, high=["Kc", "Kd", "Kh"],
             low=["Ks", "2c"])
    t.decide(2, "forfeit")
    t.do("lock_decisions")
    assert t.state.phase is Phase.CLOSED
    assert t.returned(1) == {"ante": 0, "tie": 0, "poker_bonus": 0, "play": 0}
    assert t.returned(2) == {"ante": 0}
    assert t.state.totals["house_win"] == 2500


@pytest.mark.regulation("579.7(d)", "579.7(e)")
def test_only_positions_with_an_ante_take_part_in_the_round() -> None:
    """§ 579.7(d): to participate and compete against the dealer's hands a player places
    an Ante Wager. With Antes at positions 2 and 5 only, no other position may wager,
    be dealt cards, decide, or be settled."""
    t = Table(GAME)
    t.wager(2, "ante", 500)
    t.wager(5, "ante", 500)
    t.refuse("ante_required", "place_wager", position=3, wager="tie", amount=500)
    t.do("no_more_bets")
    t.refuse("position_not_in_round", "deal",
             hands={"2": texts("2c 3d 5h 8s Tc"), "3": texts("4c 6d 7h 9s Jc"),
                    "5": texts("2d 3h 5s 8c Td")},
             dealer=texts("Kd Kh Qs 2h 3c"))
    t.do("deal", hands={"2": texts("2c 3d 5h 8s Tc"), "5": texts("4c 6d 7h 9s Jc")},
         dealer=texts("Kd Kh Qs 2h 3c"))
    assert sorted(t.state.positions) == [2, 5]
    t.refuse("position_not_in_round", "decision", position=3, decision="play")
    t.decide(2, "forfeit")
    t.decide(5, "forfeit")
    t.do("lock_decisions")
    assert {n for n, _, _, _ in t.settled()} == {2, 5}


@pytest.mark.regulation("579.8(b)")
def test_no_card_is_dealt_from_the_manual_shoe_before_no_more_bets() -> None:
    """§ 579.8(b): prior to dealing any cards, the dealer announces "no more bets"."""
    t = Table(GAME)
    t.wager(1, "ante", 500)
    t.refuse("no_more_bets_first", "deal", hands={"1": texts("2c 3d 5h 8s Tc")},
             dealer=texts("Kd Kh Qs 2h 3c"))
    t.refuse("no_more_bets_first", "deal", deck=ORDERED_DECK)
    assert t.state.positions[1].dealt == ()
    t.do("no_more_bets")
    t.do("deal", deck=ORDERED_DECK)
    assert t.types()[-2:] == ["NoMoreBets", "CardsDealt"]


@pytest.mark.regulation("579.8(d)")
def test_manual_shoe_deals_one_card_at_a_time_to_ante_positions_then_the_dealer() -> None:
    """§ 579.8(d): from the player farthest to the dealer's left, clockwise, one card at
    a time to each player who placed an Ante and to the dealer, until each has five.
    Antes at positions 2 and 5 only; the deck is 51, 50, ..., 0 (top first): three
    takers per pass, so position 2 gets the 1st, 4th, 7th, 10th and 13th cards."""
    t = Table(GAME)
    t.wager(2, "ante", 500)
    t.wager(5, "ante", 500)
    t.do("no_more_bets")
    t.do("deal", deck=list(range(51, -1, -1)), method="by_card")
    assert t.state.positions[2].dealt == (51, 48, 45, 42, 39)
    assert t.state.positions[5].dealt == (50, 47, 44, 41, 38)
    assert t.state.dealer_cards == (49, 46, 43, 40, 37)
    assert t.state.next_card == 15  # fifteen cards out: the rest is the stub


@pytest.mark.regulation("579.9(b)")
def test_cards_dealt_from_the_hand_come_off_the_top_face_down() -> None:
    """§ 579.9(b): the dealer removes the top card of the deck and places it face down,
    from the player farthest to the dealer's left clockwise, then the dealer, one card at
    a time until each has five. Antes at 1, 4 and 6 with a deck in order 2c 2d 2h 2s 3c
    ...: four takers per pass, so position 1 gets the clubs 2 to 6, position 4 the
    diamonds, position 6 the hearts and the dealer the spades, none of them face up."""
    t = Table(GAME)
    for n in (1, 4, 6):
        t.wager(n, "ante", 500)
    t.do("no_more_bets")
    t.do("deal", deck=ORDERED_DECK)
    assert t.state.positions[1].dealt == ids("2c 3c 4c 5c 6c")
    assert t.state.positions[4].dealt == ids("2d 3d 4d 5d 6d")
    assert t.state.positions[6].dealt == ids("2h 3h 4h 5h 6h")
    assert t.state.dealer_cards == ids("2s 3s 4s 5s 6s")
    assert t.state.dealer_up is None


def test_hand_dealt_misdeal_found_by_the_stub_count_voids_and_keeps_the_deck() -> None:
    """§ 579.9(f): the stub count is wrong and the cards were misdealt but 52 cards
    remain: all hands void, all wagers (Ante, Tie, Poker Bonus) returned; the deck is not
    removed. Two positions and the dealer hold 15 cards as recorded; position 2 was dealt
    a sixth: the stub holds 36 (36 + 15 = 51, wrong) and the layout 16 (36 + 16 = 52)."""
    t = Table(GAME)
    t.wager(1, "ante", 500)
    t.wager(1, "tie", 1000)
    t.wager(1, "poker_bonus", 1500)
    t.wager(2, "ante", 2000)
    t.do("no_more_bets")
    t.do("deal", deck=ORDERED_DECK)
    t.do("stub_count", cards=36, misdealt=True, held=16)
    _assert_void_with_everything_returned(t)
    assert t.returned(1) == {"ante": 500, "tie": 1000, "poker_bonus": 1500}
    assert t.returned(2) == {"ante": 2000}
    voided = next(e for e in t.events if e["type"] == "RoundVoided")
    assert voided["data"]["deck_removed"] is False


@pytest.mark.regulation("579.10(a)(2)")
def test_no_stack_is_dispensed_before_no_more_bets() -> None:
    """§ 579.10(a): prior to the shoe dispensing any stacks of cards, the dealer
    announces "no more bets"."""
    t = Table(GAME)
    t.wager(3, "ante", 500)
    t.refuse("no_more_bets_first", "deal", deck=ORDERED_DECK, method="stacks")
    t.do("no_more_bets")
    t.do("deal", deck=ORDERED_DECK, method="stacks")
    assert t.state.positions[3].dealt == ids("2c 2d 2h 2s 3c")
    assert t.state.dealer_cards == ids("3d 3h 3s 4c 4d")


def test_automated_shoe_wrong_stub_not_a_misdeal_voids_and_removes_the_deck() -> None:
    """§ 579.10(f): the stub count is wrong and the cards were not misdealt: all hands
    void, all wagers returned and the entire deck removed from the table."""
    t = Table(GAME)
    t.wager(1, "ante", 500)
    t.wager(1, "poker_bonus", 500)
    t.wager(4, "ante", 700)
    t.wager(4, "tie", 900)
    t.do("no_more_bets")
    t.do("deal", deck=ORDERED_DECK, method="stacks")
    t.do("report_irregularity", kind="stub_count_wrong", misdealt=False)
    _assert_void_with_everything_returned(t)
    assert t.returned(1) == {"ante": 500, "poker_bonus": 500}
    assert t.returned(4) == {"ante": 700, "tie": 900}
    voided = next(e for e in t.events if e["type"] == "RoundVoided")
    assert voided["data"]["deck_removed"] is True


@pytest.mark.regulation("579.11(l)", "579.11(d)", "579.11(g)(1)", "579.12(a)")
def test_each_hilo_hand_can_be_reconstructed_from_the_record() -> None:
    """§ 579.11(l): cards leave the table so that each hand can be reconstructed.

    From the round's events alone (through JSON): position 1 was dealt A-J-10-9-2 and set
    J-10-9 high (29) and A-2 low (3), the example of § 579.11(d); position 2 forfeited
    K-Q-8-5-3 but its hand is still on record; the dealer's K-9-7-4-2 was set K-9-7
    high (10+9+7 = 26) and 4-2 low (6). 29 > 26 and 3 < 6: position 1's Ante and Play
    (500 each) win 1 to 1 (§ 579.12(a)): 1,000 back on each."""
    t = Table(GAME)
    t.wager(1, "ante", 500)
    t.wager(2, "ante", 500)
    t.deal({1: "Ah Jd Tc 9s 2c", 2: "Kc Qd 8h 5s 3c"}, "Kh 9c 7d 4s 2h")
    t.decide(1, "play", high=["Jd", "Tc", "9s"], low=["Ah", "2c"])
    t.decide(2, "forfeit")
    t.do("lock_decisions")

    record = json.loads(json.dumps(t.events))
    s = rebuild(record)
    assert s.phase is Phase.CLOSED
    one, two = s.positions[1], s.positions[2]
    assert one.dealt == ids("Ah Jd Tc 9s 2c")
    assert set(one.setting[0]) == set(ids("Jd Tc 9s"))
    assert set(one.setting[1]) == set(ids("Ah 2c"))
    assert one.totals == (29, 3)
    assert two.dealt == ids("Kc Qd 8h 5s 3c")
    assert s.dealer_cards == ids("Kh 9c 7d 4s 2h")
    dealer = next(e["data"] for e in record if e["type"] == "DealerHandsSet")
    assert set(dealer["high"]) == set(ids("Kh 9c 7d"))
    assert set(dealer["low"]) == set(ids("4s 2h"))
    assert (dealer["high_total"], dealer["low_total"]) == (26, 6)
    assert one.returned == {"ante": 1000, "play": 1000}
    assert two.returned == {"ante": 0}
    assert s.totals == {"wagered": 1500, "returned": 2000, "house_win": -500}


# --- the table, the wagers and the Poker Bonus hands -------------------------------------

@pytest.mark.regulation("579.2(a)")
def test_a_hilo_table_has_six_betting_positions() -> None:
    """§ 579.2(a): betting positions for no more than six players. Antes at positions 1
    to 6 are taken (six players, 3,000 in all); a seventh position, or a position 0, is
    refused, nothing recorded."""
    t = Table(GAME)
    for n in range(1, 7):
        t.wager(n, "ante", 500)
    t.refuse("invalid_position", "place_wager", position=7, wager="ante", amount=500)
    t.refuse("invalid_position", "place_wager", position=0, wager="ante", amount=500)
    assert sorted(t.state.positions) == [1, 2, 3, 4, 5, 6]
    assert sum(sum(p.wagered.values()) for p in t.state.positions.values()) == 3000


@pytest.mark.regulation("579.7(c)")
def test_no_wager_is_made_increased_or_withdrawn_after_no_more_bets() -> None:
    """§ 579.7(c): before "no more bets" a wager may be withdrawn (position 2's Tie);
    after it, a new Ante at position 3, a Tie at position 1 (made), a second Ante at
    position 1 (increased) and withdrawing position 2's Ante (withdrawn) are each refused
    and nothing is recorded: the wagers stay 500 at 1 and 700 at 2."""
    t = Table(GAME)
    t.wager(1, "ante", 500)
    t.wager(2, "ante", 700)
    t.wager(2, "tie", 500)
    t.do("withdraw_wager", position=2, wager="tie")
    t.do("no_more_bets")
    t.refuse("wager_after_no_more_bets", "place_wager", position=3, wager="ante", amount=500)
    t.refuse("wager_after_no_more_bets", "place_wager", position=1, wager="tie", amount=500)
    t.refuse("wager_after_no_more_bets", "place_wager", position=1, wager="ante", amount=500)
    t.refuse("wager_after_no_more_bets", "withdraw_wager", position=2, wager="ante")
    assert {n: dict(p.wagered) for n, p in t.state.positions.items()} == {
        1: {"ante": 500}, 2: {"ante": 700}}


@pytest.mark.regulation("579.6(b)")
def test_the_poker_bonus_hands_in_their_order() -> None:
    """§ 579.6(b)(1)-(9): each winning five-card hand, on Poker Bonus Paytable A (a pair
    of 7s or better) and B (6s or better); a king-high hand with no pair wins nothing."""
    hands = [("Ah Kh Qh Jh Th", PayHand.ROYAL_FLUSH),        # (1)
             ("9d Td Jd Qd Kd", PayHand.STRAIGHT_FLUSH),     # (2) other than a royal
             ("5c 5d 5h 5s Kd", PayHand.FOUR_OF_A_KIND),     # (3)
             ("8c 8d 8h 3s 3d", PayHand.FULL_HOUSE),         # (4)
             ("2s 6s 9s Js Ks", PayHand.FLUSH),              # (5) not consecutive
             ("6c 7d 8h 9s Tc", PayHand.STRAIGHT),           # (6) more than one suit
             ("4c 4d 4h Ks 2d", PayHand.THREE_OF_A_KIND),    # (7)
             ("Jc Jd 3h 3s 9d", PayHand.TWO_PAIR)]           # (8)
    for text, expected in hands:
        for table in ("579-poker-bonus-A", "579-poker-bonus-B"):
            assert poker_bonus_hand(parse_cards(text), table) is expected, (text, table)
    # (9) one pair, by the paytable selected
    sevens, sixes = parse_cards("7c 7d Ah 4s 2d"), parse_cards("6c 6d Ah 4s 2d")
    assert poker_bonus_hand(sevens, "579-poker-bonus-A") is PayHand.PAIR_OF_SEVENS_OR_BETTER
    assert poker_bonus_hand(sixes, "579-poker-bonus-A") is None
    assert poker_bonus_hand(sixes, "579-poker-bonus-B") is PayHand.PAIR_OF_SIXES_OR_BETTER
    assert poker_bonus_hand(parse_cards("Kc 9d 7h 4s 2d"), "579-poker-bonus-B") is None


# --- irregularities ----------------------------------------------------------------------

@pytest.mark.regulation("579.13(a)")
def test_one_card_face_up_is_not_used_two_void_the_round() -> None:
    """§ 579.13(a): a card found face up while the cards are dealt is not used that round
    (the deal giving 3h to anyone is refused); a second card found face up voids every
    hand and returns every wager: Ante 500 and Tie 500 at position 1, Ante 700 at 2."""
    t = Table(GAME)
    t.wager(1, "ante", 500)
    t.wager(1, "tie", 500)
    t.wager(2, "ante", 700)
    t.do("no_more_bets")
    t.do("report_irregularity", kind="card_face_up", card="3h")
    assert t.state.phase is Phase.DEALING
    t.refuse("card_not_in_deck", "deal", hands={"1": texts("3h 4c 6d 9s Jc"),
                                                "2": texts("2c 5d 7h 8s Tc")},
             dealer=texts("Kd Kh Qs 2h 3c"))
    t.do("report_irregularity", kind="card_face_up", card="9c")
    _assert_void_with_everything_returned(t)
    assert t.returned(1) == {"ante": 500, "tie": 500}
    assert t.returned(2) == {"ante": 700}
    assert t.state.void == {"reason": "card_face_up", "cite": "579.13(a)"}


# --- the deck at the round's gate (no database) --------------------------------------------

NOW = datetime(2026, 12, 8, 0, 0, tzinfo=UTC)


def _deck(name: str, **changes: object) -> DeckInPlay:
    deck = DeckInPlay(id=name, change_due=False, deadline_at=NOW + timedelta(hours=4),
                      rounds_since_count=0, stream_version=8,
                      entered_play_at=NOW - timedelta(hours=1))
    return replace(deck, **changes)


def _hilo_table(dealing_method: str, shuffler: str, decks: tuple[DeckInPlay, ...],
                **changes: object) -> TableAtStart:
    table = TableAtStart(
        id="t-1", name="HL-1", game=GAME, status="open", dealer_id=7, positions=6,
        current_round_id=None, rounds_played=4, last_deck_id=None,
        dealing_method=dealing_method, shuffler=shuffler, shuffler_out_of_order=False,
        shoe_out_of_order=False,
        rules=(RulesVersion("rules-1", 1, "in_effect", None, {}),), decks=decks)
    return replace(table, **changes)


def _gate_refusal(table: TableAtStart, deck: DeckInPlay) -> ConflictError:
    with pytest.raises(ConflictError) as err:
        check_deck(table, deck, NOW)
    return err.value


@pytest.mark.regulation("579.9(a)(1)")
def test_cards_dealt_from_the_hand_need_an_automated_shuffler() -> None:
    """§ 579.9(a)(1): dealt from the dealer's hand, the cards are shuffled by an automated
    shuffler: a Hi-Lo table dealt by hand with no shuffler, or with its shuffler out of
    order, deals no round; with a working one it does."""
    red = _deck("red")
    for table in (_hilo_table("hand", "none", (red,)),
                  _hilo_table("hand", "automated", (red,), shuffler_out_of_order=True)):
        err = _gate_refusal(table, red)
        assert err.code == "hand_dealing_needs_shuffler"
        assert "579.9(a)(1)" in str(err)
    check_deck(_hilo_table("hand", "automated", (red,)), red, NOW)


@pytest.mark.regulation("579.9(a)(3)")
def test_no_card_is_dealt_from_the_hand_before_no_more_bets() -> None:
    """§ 579.9(a)(3): at a table dealt by hand, no card before "no more bets"."""
    t = Table(GAME, equipment={"dealing_method": "hand", "shuffler": "automated"})
    t.wager(1, "ante", 500)
    t.refuse("no_more_bets_first", "deal", deck=ORDERED_DECK)
    t.do("no_more_bets")
    t.do("deal", deck=ORDERED_DECK)
    assert t.types()[-2:] == ["NoMoreBets", "CardsDealt"]


@pytest.mark.parametrize(("dealing_method", "cite"), [("hand", "579.9(d)"),
                                                      ("automated-shoe", "579.10(d)")])
@pytest.mark.regulation("579.9(d)", "579.10(d)")
def test_the_stub_is_counted_at_least_once_every_five_rounds(dealing_method: str,
                                                            cite: str) -> None:
    """§ 579.9(d), § 579.10(d): without a counting shuffler the stub is counted at least
    once every 5 rounds: after 4 rounds since the last count the deck deals; after 5 it
    does not until counted (deck_count_due, citing the table's own subsection). With a
    shuffler that counts each shuffle, 9 rounds without a stub count are fine."""
    table = _hilo_table(dealing_method, "automated", (_deck("red"),))
    check_deck(table, _deck("red", rounds_since_count=4), NOW)
    err = _gate_refusal(table, _deck("red", rounds_since_count=5))
    assert err.code == "deck_count_due"
    assert cite in str(err)
    counting = _hilo_table(dealing_method, "automated-counting", (_deck("red"),))
    check_deck(counting, _deck("red", rounds_since_count=9), NOW)


@pytest.mark.regulation("579.3(a)", "579.3(b)(2)", "579.3(b)(3)")
def test_one_deck_without_a_shuffler_two_alternating_with_one() -> None:
    """§ 579.3(a): one deck unless an automated shuffler is used; § 579.3(b)(2)-(3): with
    one, two decks, each used for every other round: red dealt last, blue deals next and
    red is refused (wrong_deck)."""
    red, blue = _deck("red"), _deck("blue")
    manual = _hilo_table("manual-shoe", "none", (red, blue))
    assert _gate_refusal(manual, red).code == "too_many_decks_in_play"
    check_deck(_hilo_table("manual-shoe", "none", (red,)), red, NOW)
    shuffled = _hilo_table("manual-shoe", "automated", (red, blue), last_deck_id="red")
    assert _gate_refusal(shuffled, red).code == "wrong_deck"
    check_deck(shuffled, blue, NOW)


@pytest.mark.regulation("579.5(b)")
def test_a_counting_shuffler_that_finds_51_cards_has_the_deck_removed() -> None:
    """§ 579.5(b): a shuffler that counts the deck after each shuffle reports 51 cards: the
    deck is removed from the table; 52 leaves it in play; a table whose shuffler does not
    count cannot record such a count."""
    def setup(shuffler: str) -> TableSetup:
        return TableSetup(get_table_game(GAME), DealingMethod.MANUAL_SHOE, Shuffler(shuffler))

    deck = deck_steps.DeckSeen("d", "in_play", False, [], NOW, False)
    wrong = deck_steps.shuffler_count(deck, setup("automated-counting"), 51, False)
    assert [e["type"] for e in wrong] == ["DeckShufflerCounted", "DeckRemoved"]
    assert wrong[1]["data"]["reason"] == "shuffler-count"
    right = deck_steps.shuffler_count(deck, setup("automated-counting"), 52, True)
    assert [e["type"] for e in right] == ["DeckShufflerCounted"]
    with pytest.raises(ConflictError) as err:
        deck_steps.shuffler_count(deck, setup("automated"), 51, False)
    assert err.value.code == "no_counting_shuffler"
