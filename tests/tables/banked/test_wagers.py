"""Wagers before "no more bets": what each chapter allows, and the refusals' codes."""

from __future__ import annotations

import pytest

from tables.domain.banked import Phase, execute

from .drive import HILO, LUNAR_671A, Table


def test_open_round_stores_the_canonical_options() -> None:
    t = Table("lunar-poker-671a")
    assert t.state.phase is Phase.BETTING
    assert t.state.options["instant_paytable"] == "A"
    assert t.state.max_positions == 5  # § 671a.2(a)


def test_open_round_refuses_options_the_chapter_does_not_print() -> None:
    with pytest.raises(Exception) as err:
        execute(None, {"type": "open_round", "game": "lunar-poker-671a",
                       "options": {**LUNAR_671A, "super_paytable": "B"}})
    assert err.value.code == "unknown_option"  # 671a.12(b) has one Super paytable


def test_open_round_refuses_a_poker_game() -> None:
    with pytest.raises(Exception) as err:
        execute(None, {"type": "open_round", "game": "holdem", "options": {}})
    assert err.value.code == "unknown_game"


def test_a_round_opens_once() -> None:
    t = Table("five-card-hi-lo")
    t.refuse("round_already_open", "open_round", game="five-card-hi-lo", options=HILO)


@pytest.mark.regulation("589.7(d)")
def test_wager_after_no_more_bets_is_refused_589_7_d() -> None:
    """§ 589.7(d): no wager made, increased or withdrawn after "no more bets"."""
    t = Table("lunar-poker-589")
    t.wager(1, "ante", 1000)
    t.do("no_more_bets")
    t.refuse("wager_after_no_more_bets", "place_wager", position=2, wager="ante", amount=1000)
    t.refuse("wager_after_no_more_bets", "withdraw_wager", position=1, wager="ante")


def test_hilo_wager_after_no_more_bets_is_refused_579_7_c() -> None:
    """§ 579.7(c)."""
    t = Table("five-card-hi-lo")
    t.wager(1, "ante", 500)
    t.do("no_more_bets")
    t.refuse("wager_after_no_more_bets", "place_wager", position=1, wager="tie", amount=500)


@pytest.mark.regulation("589.7(c)(2)")
def test_super_wager_refused_when_the_589_rules_do_not_offer_it() -> None:
    """§ 589.7(c)(2): the Super Wager is optional for the certificate holder."""
    t = Table("lunar-poker-589", super_wager_offered=False, super_paytable=None)
    t.wager(1, "ante", 1000)
    t.refuse("wager_not_offered", "place_wager", position=1, wager="super", amount=1000)


@pytest.mark.regulation("589.7(c)(2)")
def test_589_super_wager_may_be_less_than_the_ante() -> None:
    """§ 589.7(c)(2) sets no minimum against the Ante (unlike 671a.7(c)(2))."""
    t = Table("lunar-poker-589")
    t.wager(1, "ante", 2000)
    t.wager(1, "super", 1000)
    assert t.state.positions[1].wagered == {"ante": 2000, "super": 1000}


@pytest.mark.regulation("671a.7(c)(2)")
def test_671a_super_wager_below_the_ante_is_refused() -> None:
    """§ 671a.7(c)(2): a Super Wager equal to or greater than the Ante."""
    t = Table("lunar-poker-671a")
    t.wager(1, "ante", 2000)
    t.refuse("super_below_ante", "place_wager", position=1, wager="super", amount=1500)


@pytest.mark.regulation("671a.7(c)(2)")
def test_671a_no_more_bets_needs_every_super_wager() -> None:
    """§ 671a.7(c)(2): "a player shall place a Super Wager on the player's hand"."""
    t = Table("lunar-poker-671a")
    t.wager(1, "ante", 1000)
    t.wager(1, "super", 1000)
    t.wager(2, "ante", 1000)
    err = t.refuse("super_required", "no_more_bets")
    assert "position 2" in err.message


@pytest.mark.regulation("671a.7(c)(3)")
def test_671a_super_on_other_hands_only_when_offered() -> None:
    """§ 671a.7(c)(3): if specified in its Rules Submission."""
    t = Table("lunar-poker-671a", super_on_other_hands_offered=False)
    t.wager(1, "ante", 1000)
    t.refuse("wager_not_offered", "place_wager", position=1, wager="super_dealer",
             amount=1000)
    t.refuse("wager_not_offered", "place_wager", position=1, wager="super_on_2", amount=1000)


@pytest.mark.regulation("671a.7(c)(3)")
def test_671a_super_on_other_hand_needs_table_minimum_not_the_ante() -> None:
    """§ 671a.7(c)(3): any amount equal to or greater than the table minimum."""
    t = Table("lunar-poker-671a")
    t.wager(1, "ante", 5000)
    t.wager(1, "super_dealer", 1000)  # below the Ante: fine
    t.refuse("outside_table_limits", "place_wager", position=1, wager="super_on_2",
             amount=999)


def test_a_super_wager_on_ones_own_position_is_not_another_hand() -> None:
    t = Table("lunar-poker-671a")
    t.wager(3, "ante", 1000)
    t.refuse("invalid_super_target", "place_wager", position=3, wager="super_on_3",
             amount=1000)


@pytest.mark.regulation("671a.7(c)(3)")
def test_super_on_a_position_without_a_hand_blocks_no_more_bets() -> None:
    """§ 671a.7(c)(3): a Super Wager on "any other player's hand" needs that hand."""
    t = Table("lunar-poker-671a")
    t.wager(1, "ante", 1000)
    t.wager(1, "super", 1000)
    t.wager(1, "super_on_4", 1000)
    t.refuse("super_on_empty_position", "no_more_bets")
    t.do("withdraw_wager", position=1, wager="super_on_4")
    t.do("no_more_bets")
    assert t.state.phase is Phase.DEALING


def test_side_wagers_need_an_ante_first_579_7_e() -> None:
    """§ 579.7(e): offered "to each player who placed an Ante Wager"."""
    t = Table("five-card-hi-lo")
    t.refuse("ante_required", "place_wager", position=1, wager="tie", amount=500)
    t.refuse("ante_required", "place_wager", position=1, wager="poker_bonus", amount=500)


def test_hilo_tie_and_poker_bonus_only_when_offered_579_7_e() -> None:
    t = Table("five-card-hi-lo", tie_wager_offered=False, poker_bonus_offered=False,
              poker_bonus_paytable=None)
    t.wager(1, "ante", 500)
    t.refuse("wager_not_offered", "place_wager", position=1, wager="tie", amount=500)
    t.refuse("wager_not_offered", "place_wager", position=1, wager="poker_bonus", amount=500)


@pytest.mark.parametrize("wager", ["bet", "play", "options_fee", "force_fee", "lucky"])
def test_wagers_made_by_decisions_or_unknown_are_refused(wager: str) -> None:
    t = Table("lunar-poker-589")
    t.wager(1, "ante", 1000)
    t.refuse("unknown_wager", "place_wager", position=1, wager=wager, amount=1000)


@pytest.mark.parametrize("amount", [0, -100, 10.5, True, "1000", None])
def test_wager_amount_is_positive_whole_cents(amount: object) -> None:
    t = Table("lunar-poker-589")
    t.refuse("invalid_wager", "place_wager", position=1, wager="ante", amount=amount)


@pytest.mark.parametrize("amount", [999, 50001])
def test_wager_outside_the_table_limits_is_refused(amount: int) -> None:
    t = Table("lunar-poker-589")
    t.refuse("outside_table_limits", "place_wager", position=1, wager="ante", amount=amount)


@pytest.mark.parametrize(("game", "bad"), [("lunar-poker-589", 6), ("lunar-poker-671a", 0),
                                            ("five-card-hi-lo", 7)])
def test_positions_are_those_of_the_table(game: str, bad: int) -> None:
    """§ 589.2(a), § 671a.2(a): five positions; § 579.2(a): six."""
    t = Table(game)
    t.refuse("invalid_position", "place_wager", position=bad, wager="ante", amount=1000)


@pytest.mark.parametrize("game", [
    pytest.param("lunar-poker-589", marks=pytest.mark.regulation("589.2(a)")),
    pytest.param("lunar-poker-671a", marks=pytest.mark.regulation("671a.2(a)"))])
def test_lunar_has_betting_positions_for_no_more_than_five_players(game: str) -> None:
    """§ 589.2(a), § 671a.2(a): betting positions for no more than five players: an Ante
    at each of positions 1 to 5 is taken, and a sixth position does not exist."""
    t = Table(game)
    for n in range(1, 6):
        t.wager(n, "ante", 1000, player=f"player {n}")
    assert sorted(t.state.positions) == [1, 2, 3, 4, 5]
    assert t.state.max_positions == 5
    t.refuse("invalid_position", "place_wager", position=6, wager="ante", amount=1000,
             player="player 6")


@pytest.mark.parametrize(("game", "sides"), [
    pytest.param("lunar-poker-589", ["super"], marks=pytest.mark.regulation("589.7(c)(1)")),
    pytest.param("lunar-poker-671a", ["super", "super_dealer", "super_on_2"],
                 marks=pytest.mark.regulation("671a.7(c)(1)", "671a.7(c)(3)"))])
def test_lunar_ante_first_and_the_bet_only_as_a_decision(game: str, sides: list[str]) -> None:
    """§ 589.7(c)(1), § 671a.7(c)(1): a player competes by placing an Ante Wager, then a
    Bet Wager under § 589.11(b)/(d) (§ 671a.11(b)/(d)) — so no Super Wager before the Ante
    (671a.7(c)(3): the additional Super Wagers "after placing an Ante Wager"), and no Bet
    placed with the Antes: it is made as a decision after the deal, twice the Ante."""
    t = Table(game)
    t.wager(2, "ante", 1000, player="bob")
    if game == "lunar-poker-671a":
        t.wager(2, "super", 1000)
    for side in sides:
        t.refuse("ante_required", "place_wager", position=1, wager=side, amount=1000,
                 player="ann")
    t.wager(1, "ante", 1000, player="ann")
    t.refuse("unknown_wager", "place_wager", position=1, wager="bet", amount=2000)
    if game == "lunar-poker-671a":
        t.wager(1, "super", 1000)
    t.deal({1: "2c 2d 8h 9s Jc", 2: "3c 4d 8c 9h Js"}, "Ad Kh 5c 6h Tc")
    t.decide(1, "bet")
    assert t.state.positions[1].wagered["bet"] == 2000


def test_same_wager_twice_is_refused() -> None:
    t = Table("lunar-poker-589")
    t.wager(1, "ante", 1000)
    t.refuse("wager_already_placed", "place_wager", position=1, wager="ante", amount=2000)


def test_withdrawing_before_no_more_bets_frees_the_position() -> None:
    t = Table("lunar-poker-589")
    t.wager(1, "ante", 1000, player="p1")
    t.wager(1, "super", 1000)
    t.refuse("wagers_depend_on_ante", "withdraw_wager", position=1, wager="ante")
    t.do("withdraw_wager", position=1, wager="super")
    t.do("withdraw_wager", position=1, wager="ante")
    assert t.state.positions == {}
    t.wager(1, "ante", 1000, player="p2")  # someone else may now sit there
    t.refuse("no_such_wager", "withdraw_wager", position=2, wager="ante")


def test_no_more_bets_needs_an_ante() -> None:
    t = Table("five-card-hi-lo")
    t.refuse("no_wagers", "no_more_bets")


@pytest.mark.parametrize("game", [
    pytest.param("lunar-poker-589", marks=pytest.mark.regulation("589.7(e)")),
    pytest.param("lunar-poker-671a", marks=pytest.mark.regulation("671a.7(e)"))])
def test_one_position_per_player_589_7_e(game: str) -> None:
    """§ 589.7(e), § 671a.7(e): a player may not wager on more than one position."""
    t = Table(game)
    t.wager(1, "ante", 1000, player="ann")
    t.refuse("one_position_per_player", "place_wager", position=2, wager="ante", amount=1000,
             player="ann")
    t.refuse("position_taken", "place_wager", position=1, wager="super", amount=1000,
             player="bob")


def test_hilo_two_adjacent_areas_when_permitted_579_7_f() -> None:
    """§ 579.7(f): two adjacent betting areas, if the Rules Submission permits."""
    t = Table("five-card-hi-lo")
    t.wager(2, "ante", 500, player="ann")
    t.wager(3, "ante", 500, player="ann")
    t.refuse("one_position_per_player", "place_wager", position=4, wager="ante", amount=500,
             player="ann")
    t.refuse("one_position_per_player", "place_wager", position=1, wager="ante", amount=500,
             player="ann")


def test_hilo_areas_not_adjacent_are_refused_579_7_f() -> None:
    t = Table("five-card-hi-lo")
    t.wager(2, "ante", 500, player="ann")
    t.refuse("one_position_per_player", "place_wager", position=4, wager="ante", amount=500,
             player="ann")


def test_hilo_adjacent_areas_refused_when_not_permitted() -> None:
    t = Table("five-card-hi-lo", adjacent_betting_areas_permitted=False)
    t.wager(2, "ante", 500, player="ann")
    t.refuse("one_position_per_player", "place_wager", position=3, wager="ante", amount=500,
             player="ann")


def test_unknown_command_is_refused() -> None:
    t = Table("five-card-hi-lo")
    t.refuse("unknown_command", "shuffle_up_and_deal")


def test_a_refused_wager_states_the_limits_in_dollars() -> None:
    """§ 589.7: the posted limits of the example submission, $10.00 to $500.00; a person
    reads the refusal in dollars, never bare cents (issue 22)."""
    t = Table("lunar-poker-589")
    refused = t.refuse("outside_table_limits", "place_wager", position=1, wager="ante",
                       amount=999)
    assert "between the table minimum $10.00 and maximum $500.00, not $9.99" in str(refused)
