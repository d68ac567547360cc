"""Deck procedures as pure rules (no database)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from casino.domain.cards import CutTooShallowError
from casino.domain.errors import DomainError
from tables.domain.catalogue import GAMES, get_table_game
from tables.domain.decks import (
    DealingMethod,
    DeckError,
    ShuffleMethod,
    Shuffler,
    TableSetup,
    check_cut,
    check_spread,
    check_table_setup,
    count_due,
    count_is_right,
    cut_required,
    deadline,
    expected_deck,
    time_limit,
)

LIMITS = {"hand": 4 * 3600, "shoe": 8 * 3600, "poker": 12 * 3600}


def setup(game: str, dealing: str = "automated-shoe", shuffler: str = "automated",
          **kw: bool) -> TableSetup:
    return TableSetup(get_table_game(game), DealingMethod(dealing), Shuffler(shuffler), **kw)


@pytest.mark.parametrize("game,section", [
    pytest.param("lunar-poker-589", "589.3(c)(1)", marks=pytest.mark.regulation("589.3(c)(1)")),
    pytest.param("lunar-poker-671a", "671a.3(c)(1)",
                 marks=pytest.mark.regulation("671a.3(c)(1)")),
    pytest.param("five-card-hi-lo", "579.3(c)(1)", marks=pytest.mark.regulation("579.3(c)(1)"))])
def test_banked_deck_dealt_by_hand_changes_every_four_hours(game: str, section: str) -> None:
    assert time_limit(setup(game, "hand"), LIMITS) == ("hand", 4 * 3600), section


@pytest.mark.regulation("579.3(c)(2)")
@pytest.mark.regulation("589.3(c)(2)", "671a.3(c)(2)")
@pytest.mark.parametrize("dealing", ["manual-shoe", "automated-shoe"])
def test_banked_deck_dealt_from_a_shoe_changes_every_eight_hours(dealing: str) -> None:
    """§ 589.3(c)(2), § 671a.3(c)(2), § 579.3(c)(2)."""
    for game in ("lunar-poker-589", "lunar-poker-671a", "five-card-hi-lo"):
        assert time_limit(setup(game, dealing), LIMITS) == ("shoe", 8 * 3600)


@pytest.mark.regulation("637a.3(c)")
def test_poker_decks_change_every_twelve_hours() -> None:
    """§ 637a.3(c)."""
    assert time_limit(setup("holdem", "hand"), LIMITS) == ("poker", 12 * 3600)


def test_automated_shoe_out_of_order_means_dealing_by_hand_and_the_four_hour_limit() -> None:
    """§ 589.13(g): a shoe out of order switches the table to another dealing method."""
    broken = setup("lunar-poker-589", "automated-shoe", shoe_out_of_order=True)
    assert broken.effective_dealing is DealingMethod.HAND
    assert time_limit(broken, LIMITS) == ("hand", 4 * 3600)


def test_deadline_is_the_limit_after_entering_play() -> None:
    start = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
    assert deadline(start, 3600) == start + timedelta(hours=1)


@pytest.mark.regulation("579.5(d)", "637a.5(b)(2)")
@pytest.mark.regulation("589.5(d)", "671a.5(d)")
def test_cover_card_nine_deep_is_refused_ten_is_accepted() -> None:
    """§ 589.5(d), § 671a.5(d), § 579.5(d), § 637a.5(b)(2): at least ten cards in."""
    with pytest.raises(CutTooShallowError) as err:
        check_cut(9)
    assert err.value.code == "cut_too_shallow"
    assert check_cut(10) == 10
    with pytest.raises(CutTooShallowError):
        check_cut(52)


@pytest.mark.regulation("579.5(c)", "637a.5(b)")
@pytest.mark.regulation("589.5(c)(1)", "589.5(c)(2)", "671a.5(c)(1)", "671a.5(c)(2)")
def test_automated_shuffle_needs_no_cut_manual_shuffle_does() -> None:
    """§ 589.5(c)(1)-(2), § 671a.5(c), § 637a.5(b)(1)-(2)."""
    for game in ("lunar-poker-589", "lunar-poker-671a", "five-card-hi-lo", "holdem"):
        assert cut_required(setup(game), ShuffleMethod.AUTOMATED) is False
        assert cut_required(setup(game), ShuffleMethod.MANUAL) is True


@pytest.mark.regulation("579.5(c)(2)", "637a.5(b)(2)")
@pytest.mark.regulation("589.5(c)(2)", "671a.5(c)(2)")
def test_preshuffled_decks_are_cut_except_at_five_card_hi_lo() -> None:
    """§ 589.5(c)(2), § 671a.5(c)(2) and § 637a.5(b)(2) name preshuffled decks;
    § 579.5(c)(2) names only a manual shuffle."""
    assert cut_required(setup("lunar-poker-589"), ShuffleMethod.PRESHUFFLED) is True
    assert cut_required(setup("lunar-poker-671a"), ShuffleMethod.PRESHUFFLED) is True
    assert cut_required(setup("holdem", "hand"), ShuffleMethod.PRESHUFFLED) is True
    assert cut_required(setup("five-card-hi-lo"), ShuffleMethod.PRESHUFFLED) is False


@pytest.mark.regulation("579.4(b)", "637a.4(b)")
@pytest.mark.regulation("589.4(b)", "671a.4(b)")
def test_poker_spreads_for_two_players_banked_games_for_one() -> None:
    """§ 637a.4(b) first two players; § 589.4(b), § 579.4(b), § 671a.4(b) the first."""
    assert check_spread(setup("holdem", "hand"), 2) == 2
    with pytest.raises(DeckError) as err:
        check_spread(setup("holdem", "hand"), 1)
    assert err.value.code == "wrong_spread"
    assert check_spread(setup("five-card-hi-lo"), 1) == 1
    for lunar in ("lunar-poker-589", "lunar-poker-671a"):
        assert check_spread(setup(lunar), 1) == 1
        with pytest.raises(DeckError) as lunar_err:
            check_spread(setup(lunar), 2)
        assert lunar_err.value.code == "wrong_spread"


@pytest.mark.regulation("637a.3(a)", "579.3(b)")
@pytest.mark.regulation("589.3(a)", "589.3(b)", "671a.3(a)", "671a.3(b)")
def test_two_decks_always_at_poker_and_with_a_shuffler_at_banked_games() -> None:
    """§ 637a.3(a)-(b); § 589.3(a)-(b), § 671a.3(b), § 579.3(b)."""
    assert setup("stud-high", "hand", "none").two_decks is True
    assert setup("lunar-poker-589", "manual-shoe", "none").decks_in_play_allowed == 1
    assert setup("lunar-poker-589", "manual-shoe", "automated").decks_in_play_allowed == 2
    assert setup("lunar-poker-671a", "manual-shoe", "none").decks_in_play_allowed == 1
    assert setup("lunar-poker-671a", "hand", "automated").decks_in_play_allowed == 2
    assert setup("five-card-hi-lo", "manual-shoe", "automated",
                 shuffler_out_of_order=True).decks_in_play_allowed == 1


@pytest.mark.regulation("579.3(b)(3)", "637a.3(a)")
def test_the_deck_not_used_last_deals_next() -> None:
    """§ 589.3(b)(3), § 579.3(b)(3), § 637a.3(a): each deck every other round."""
    assert expected_deck(["a", "b"], "a") == "b"
    assert expected_deck(["a", "b"], "b") == "a"
    assert expected_deck(["a", "b"], None) is None
    assert expected_deck(["a", "b"], "removed-deck") is None
    assert expected_deck(["a"], "a") is None


@pytest.mark.regulation("637a.7(e)(4)")
def test_count_due_after_five_rounds_unless_a_counting_shuffler() -> None:
    """§ 637a.7(e)(4)(i)-(ii)."""
    plain = setup("holdem", "hand", "automated")
    assert count_due(plain, 4) is False and count_due(plain, 5) is True
    counting = setup("holdem", "hand", "automated-counting")
    assert count_due(counting, 50) is False
    broken = setup("holdem", "hand", "automated-counting", shuffler_out_of_order=True)
    assert count_due(broken, 5) is True


@pytest.mark.regulation("637a.7(e)(5)")
def test_only_fifty_two_cards_is_a_right_count() -> None:
    """§ 637a.7(e)(5), § 589.5(b)."""
    assert count_is_right(52) and not count_is_right(51) and not count_is_right(53)
    with pytest.raises(DeckError):
        count_is_right("52")


@pytest.mark.regulation("579.2(a)", "637a.2(a)")
@pytest.mark.parametrize("game", list(GAMES))
def test_positions_capped_per_game(game: str) -> None:
    """§ 589.2(a), § 671a.2(a) five; § 579.2(a) six; § 637a.2(a) ten; per game
    § 637a.10(b) nine, § 637a.11(b) ten, § 637a.12(b) ten, § 637a.13(b) eight,
    § 637a.14(b) eight, § 637a.19(b) eight, § 637a.20(b) seven, § 637a.21(b) nine."""
    g = get_table_game(game)
    dealing = DealingMethod.HAND if g.is_poker else DealingMethod.AUTOMATED_SHOE
    check_table_setup(g, dealing, Shuffler.AUTOMATED, g.max_positions)
    with pytest.raises(DomainError) as err:
        check_table_setup(g, dealing, Shuffler.AUTOMATED, g.max_positions + 1)
    assert err.value.code == "too_many_positions"


def test_maxima_match_the_chapter_text() -> None:
    expected = {"lunar-poker-589": 5, "lunar-poker-671a": 5, "five-card-hi-lo": 6,
                "stud-high": 9, "holdem": 10, "omaha-hilo8": 10, "draw-low": 8,
                "five-card-stud": 8, "five-card-omaha-high": 8, "triple-draw-27": 7,
                "badugi": 9}
    assert {g: GAMES[g].max_positions for g in expected} == expected


@pytest.mark.regulation("589.9(a)(1)", "671a.9(a)(1)")
def test_banked_game_dealt_by_hand_needs_a_shuffler() -> None:
    """§ 589.9(a)(1), § 671a.9(a)(1), § 579.9(a)(1)."""
    for lunar in ("lunar-poker-671a", "lunar-poker-589"):
        with pytest.raises(DomainError) as err:
            check_table_setup(get_table_game(lunar), DealingMethod.HAND, Shuffler.NONE, 5)
        assert err.value.code == "hand_dealing_needs_shuffler"
        check_table_setup(get_table_game(lunar), DealingMethod.HAND, Shuffler.AUTOMATED, 5)


def test_poker_is_dealt_by_hand() -> None:
    """§ 637a.7(e)(1)."""
    with pytest.raises(DomainError) as err:
        check_table_setup(get_table_game("holdem"), DealingMethod.AUTOMATED_SHOE,
                          Shuffler.AUTOMATED, 9)
    assert err.value.code == "invalid_dealing_method"
