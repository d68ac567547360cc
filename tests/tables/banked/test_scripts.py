"""Every hand-worked round script in scripts/*.json settles as worked by hand, and bad
scripts are refused with the round's own codes.

The scripts cite the subsections they exercise (their "cite" lists, e.g. § 589.11(e)(2),
§ 671a.11(f)(2)(ii), § 579.11(h)); the expected amounts were worked from the chapters'
text, never from this code's output.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from casino.domain.errors import DomainError
from tables.domain.banked import rebuild, settle_script

SCRIPTS = sorted((Path(__file__).parent / "scripts").glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _nonzero(returned: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """A line returning 0 may be written or left out; both mean the same money."""
    out = {pos: {w: v for w, v in lines.items() if v} for pos, lines in returned.items()}
    return {pos: lines for pos, lines in out.items() if lines}


#: Subsections the scripts exercise between them (checked against their "cite" lists).
SCRIPT_COVERAGE = """
§ 579.6(a) § 579.6(b) § 579.7(e) § 579.7(f) § 579.11(b) § 579.11(c) § 579.11(d)
§ 579.11(e) § 579.11(g) § 579.11(h) § 579.11(j) § 579.12(a) § 579.12(b) § 579.12(c)
§ 579.12(d) § 589.6(b) § 589.6(c) § 589.6(d) § 589.11(b) § 589.11(c) § 589.11(d)
§ 589.11(e) § 589.12(a) § 589.12(b) § 589.12(c) § 589.12(d) § 589.13(f) § 671a.6(b)
§ 671a.6(c) § 671a.6(d) § 671a.7(c) § 671a.11(b) § 671a.11(c) § 671a.11(d) § 671a.11(e)
§ 671a.11(f) § 671a.12(a) § 671a.12(b) § 671a.12(c) § 671a.12(d)
"""


#: The subsections each Lunar Poker script checks, read against its worked notes.
SCRIPT_MARKS = {
    "lunar589_ace_king_beats_dealer_ace_king":
        pytest.mark.regulation("589.6(b)(10)", "589.6(c)", "589.11(e)(1)(ii)", "589.12(c)"),
    "lunar589_buy_sixth_card_flush_second_combination_six_cards":
        pytest.mark.regulation("589.11(d)(2)(i)", "589.11(d)(2)(ii)", "589.11(e)(1)(ii)",
                               "589.12(c)"),
    "lunar589_buy_sixth_card_makes_straight_flush":
        pytest.mark.regulation("589.11(b)(3)", "589.11(d)(2)(i)", "589.11(d)(2)(ii)",
                               "589.11(e)(1)(ii)", "589.12(c)"),
    "lunar589_dealer_not_qualify_ace_queen_ante_paid":
        pytest.mark.regulation("589.6(b)(10)", "589.11(c)(2)(i)", "589.11(e)(2)(i)", "589.12(d)"),
    "lunar589_dealer_qualifies_pair_beats_ace_king":
        pytest.mark.regulation("589.6(b)(9)", "589.6(b)(10)", "589.11(e)(1)(ii)", "589.12(c)"),
    "lunar589_draw_then_fold":
        pytest.mark.regulation("589.11(b)(3)", "589.11(d)(2)(i)", "589.11(d)(2)(iii)",
                               "589.11(d)(2)(iv)"),
    "lunar589_exchange_five_makes_straight":
        pytest.mark.regulation("589.11(b)(3)", "589.11(d)(2)(i)", "589.11(d)(2)(iii)",
                               "589.11(e)(1)(ii)", "589.12(c)"),
    "lunar589_exchange_two_makes_royal_flush":
        pytest.mark.regulation("589.11(b)(3)", "589.11(c)(1)", "589.11(d)(2)(i)",
                               "589.11(d)(2)(ii)", "589.11(d)(2)(iii)", "589.11(e)(1)(ii)",
                               "589.12(c)"),
    "lunar589_fold_and_player_loses":
        pytest.mark.regulation("589.11(b)(1)", "589.11(d)(1)", "589.11(e)(1)(i)"),
    "lunar589_force_dealer_qualifies_three_positions":
        pytest.mark.regulation("589.11(e)(2)(i)", "589.11(e)(2)(ii)", "589.12(c)", "589.12(d)"),
    "lunar589_force_dealer_qualifies_win_and_tie":
        pytest.mark.regulation("589.11(e)(2)(ii)", "589.6(c)", "589.12(c)"),
    "lunar589_force_dealer_still_not_qualify":
        pytest.mark.regulation("589.11(e)(2)(i)", "589.11(e)(2)(ii)", "589.12(d)"),
    "lunar589_instant_royal_flush_paytable_A":
        pytest.mark.regulation("589.11(b)(2)", "589.11(c)(1)(i)", "589.11(c)(1)(ii)",
                               "589.12(a)", "589.11(e)(1)(i)"),
    "lunar589_instant_straight_flush_and_royal_paytable_D_with_super":
        pytest.mark.regulation("589.11(c)(1)(i)", "589.11(c)(1)(ii)", "589.11(c)(2)(ii)",
                               "589.12(a)", "589.12(b)", "589.6(d)(2)"),
    "lunar589_second_combination_pair_of_aces_and_ace_king":
        pytest.mark.regulation("589.11(e)(1)(ii)", "589.12(c)"),
    "lunar589_super_paytable_A_quads_ace_king_same_colored_five_undeclared":
        pytest.mark.regulation("589.6(d)", "589.11(c)(2)(i)", "589.11(c)(2)(ii)", "589.11(d)(1)",
                               "589.12(b)", "589.12(c)"),
    "lunar589_super_paytable_B_five_positions":
        pytest.mark.regulation("589.6(d)", "589.11(c)(2)(ii)", "589.12(b)", "589.11(e)(1)(i)",
                               "589.11(e)(1)(ii)", "589.12(c)"),
    "lunar589_super_paytable_C_three_of_a_kind_same_colored_straight":
        pytest.mark.regulation("589.6(d)(2)", "589.6(d)(6)", "589.6(d)(7)", "589.11(c)(2)(ii)",
                               "589.12(b)", "589.12(c)"),
    "lunar589_tie_with_dealer_and_two_pair":
        pytest.mark.regulation("589.6(c)", "589.11(e)(1)(ii)", "589.11(e)(1)(iii)", "589.12(c)"),
    "lunar671a_buy_sixth_card_makes_straight_flush":
        pytest.mark.regulation("671a.11(d)(1)(i)", "671a.11(d)(2)", "671a.11(f)(2)(ii)",
                               "671a.12(d)"),
    "lunar671a_buy_sixth_four_of_a_kind_second_ace_king":
        pytest.mark.regulation("671a.11(b)(3)", "671a.11(c)(2)", "671a.11(d)(1)(i)",
                               "671a.11(d)(2)", "671a.11(f)(2)(ii)", "671a.12(b)", "671a.12(d)"),
    "lunar671a_dealer_not_qualify_ante_1_to_1_super_dealer_lost":
        pytest.mark.regulation("671a.6(b)(10)", "671a.7(c)(2)", "671a.7(c)(3)", "671a.11(c)(1)",
                               "671a.11(e)(1)", "671a.11(f)(1)", "671a.12(c)"),
    "lunar671a_dealer_not_qualify_straight_or_better_ante_4_to_1":
        pytest.mark.regulation("671a.11(c)(1)", "671a.11(c)(2)", "671a.11(d)(1)(i)",
                               "671a.11(d)(2)", "671a.11(f)(1)", "671a.12(b)", "671a.12(c)"),
    "lunar671a_exchange_five_makes_full_house":
        pytest.mark.regulation("671a.11(d)(1)(ii)", "671a.11(f)(2)(ii)", "671a.12(b)",
                               "671a.12(d)"),
    "lunar671a_exchange_two_makes_royal_flush":
        pytest.mark.regulation("671a.6(d)(7)", "671a.11(b)", "671a.11(c)(2)",
                               "671a.11(d)(1)(ii)", "671a.11(f)(2)(ii)", "671a.12(b)",
                               "671a.12(d)"),
    "lunar671a_instant_royal_flush_paytable_B_super_ace_king_queen":
        pytest.mark.regulation("671a.6(d)", "671a.11(b)(2)", "671a.11(c)(2)", "671a.11(c)(3)",
                               "671a.12(a)", "671a.12(b)"),
    "lunar671a_instant_straight_flush_paytable_C_super_same_colored_five":
        pytest.mark.regulation("671a.6(d)", "671a.7(c)(3)", "671a.11(c)(1)", "671a.11(c)(2)",
                               "671a.11(c)(3)", "671a.11(f)(1)", "671a.12(a)", "671a.12(b)",
                               "671a.12(c)"),
    "lunar671a_pair_wins_pair_loses_and_fold":
        pytest.mark.regulation("671a.11(b)(1)", "671a.11(c)(1)", "671a.11(c)(4)",
                               "671a.11(f)(2)(i)", "671a.11(f)(2)(ii)", "671a.12(d)"),
    "lunar671a_second_combination_not_beating_dealer_paid":
        pytest.mark.regulation("671a.11(f)(2)(ii)", "671a.12(d)"),
    "lunar671a_super_four_kind_picture_cards_full_house_flush_straight":
        pytest.mark.regulation("671a.6(d)(1)", "671a.6(d)(2)", "671a.6(d)(3)", "671a.6(d)(4)",
                               "671a.6(d)(5)", "671a.11(c)(2)", "671a.12(b)",
                               "671a.11(f)(2)(ii)", "671a.12(d)"),
    "lunar671a_super_on_another_players_hand":
        pytest.mark.regulation("671a.7(c)(3)", "671a.11(c)(1)", "671a.11(c)(2)", "671a.11(c)(4)",
                               "671a.11(f)(2)(ii)", "671a.12(b)", "671a.12(d)"),
    "lunar671a_super_on_dealer_hand_three_of_a_kind":
        pytest.mark.regulation("671a.7(c)(3)", "671a.11(c)(4)", "671a.11(e)(2)",
                               "671a.11(f)(2)(i)", "671a.11(f)(2)(ii)", "671a.12(b)",
                               "671a.12(d)"),
    "lunar671a_super_trips_ace_king_queen_same_colored_five":
        pytest.mark.regulation("671a.6(d)(6)", "671a.6(d)(7)", "671a.6(d)(8)", "671a.11(c)(1)",
                               "671a.11(c)(2)", "671a.11(c)(4)", "671a.12(b)",
                               "671a.11(f)(2)(ii)", "671a.12(d)"),
    "lunar671a_tie_with_dealer_and_ace_king_win":
        pytest.mark.regulation("671a.6(c)", "671a.6(d)(7)", "671a.11(f)(2)(ii)",
                               "671a.11(f)(2)(iii)", "671a.12(d)"),
    "lunar671a_undeclared_hand_loses_super_on_it":
        pytest.mark.regulation("671a.11(b)", "671a.11(c)(1)", "671a.11(f)(2)(ii)", "671a.12(d)"),
}


def _checked(paths: list[Path]) -> list[object]:
    """Each script as a parameter carrying the subsections it checks (SCRIPT_MARKS)."""
    return [pytest.param(p, id=p.stem, marks=SCRIPT_MARKS.get(p.stem, ())) for p in paths]


def test_there_are_scripts_to_check() -> None:
    assert len(SCRIPTS) >= 3


def test_the_scripts_cover_the_subsections_listed_here() -> None:
    cited = {m.group(0) for path in SCRIPTS for c in _load(path)["cite"]
             if (m := re.match(r"\d{3}a?\.\d+\([a-z]\)", c))}
    listed = set(re.findall(r"\d{3}a?\.\d+\([a-z]\)", SCRIPT_COVERAGE))
    assert listed <= cited


@pytest.mark.parametrize("path", _checked(SCRIPTS))
def test_script_settles_as_worked_by_hand(path: Path) -> None:
    script = _load(path)
    result = settle_script(script)
    expected = script["expected"]
    assert _nonzero(result["returned_by_position_cents"]) == _nonzero(expected["returned"])
    assert result["house_win_cents"] == expected["house_win_cents"]
    assert result["wagered_cents"] == result["returned_cents"] + result["house_win_cents"]
    assert rebuild(result["events"]).totals["house_win"] == expected["house_win_cents"]


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script_cites_what_it_exercises(path: Path) -> None:
    script = _load(path)
    assert script["cite"], "a script cites the subsections it exercises"
    chapter = {"lunar-poker-589": "589.", "lunar-poker-671a": "671a.",
               "five-card-hi-lo": "579."}[script["game"]]
    assert all(c.startswith(chapter) for c in script["cite"])


def test_every_lunar_script_names_what_it_checks() -> None:
    """Each Lunar Poker script carries a regulation marker naming subsections of its own
    chapter, all of them among those its "cite" list names (at a depth the marker can
    write)."""
    lunar = {p.stem: _load(p) for p in SCRIPTS if p.stem.startswith("lunar")}
    assert set(SCRIPT_MARKS) == set(lunar)
    for stem, script in lunar.items():
        cited = {re.sub(r"\([A-Z]+\)", "", c) for c in script["cite"]}
        for sub in SCRIPT_MARKS[stem].args:
            assert sub in cited, (stem, sub)


def _base() -> dict[str, Any]:
    return {
        "game": "lunar-poker-589",
        "options": {"table_minimum_cents": 1000, "table_maximum_cents": 50000,
                    "instant_paytable": "A", "super_wager_offered": True,
                    "super_paytable": "B"},
        "positions": [{"position": 1, "wagers": {"ante": 1000},
                       "cards": ["2c", "2d", "8h", "9s", "Jc"],
                       "decisions": [{"decision": "bet"}]}],
        "dealer": {"cards": ["Ad", "Kh", "5c", "6h", "Tc"]},
    }


def _refused(script: dict[str, Any], code: str) -> None:
    with pytest.raises(DomainError) as err:
        settle_script(script)
    assert err.value.code == code, err.value


def test_a_plain_script_settles() -> None:
    """§ 589.11(e)(1)(ii): a pair of 2s beats the dealer's ace-king; Bet 1 to 1."""
    result = settle_script(_base())
    assert result["returned_by_position_cents"] == {"1": {"ante": 1000, "bet": 4000}}
    assert [line["outcome"] for line in result["lines"]] == ["push", "won"]


def test_script_bet_on_a_dealt_royal_flush_is_refused_589_11_b_2() -> None:
    s = _base()
    s["positions"][0]["cards"] = ["As", "Ks", "Qs", "Js", "Ts"]
    _refused(s, "instant_hand_no_bet")


def test_script_bet_of_the_wrong_size_is_refused() -> None:
    s = _base()
    s["positions"][0]["wagers"]["bet"] = 2000
    _refused(s, "unknown_wager")


def test_script_forced_card_without_forcing_is_refused() -> None:
    s = _base()
    s["dealer"]["forced"] = {"discard": "Ad", "card": "3s"}
    _refused(s, "unexpected_forced_draw")


def test_script_draw_without_the_next_decision_is_refused_589_11_d_2_iii() -> None:
    s = _base()
    s["positions"][0]["decisions"] = [{"decision": "buy", "card": "3s"}]
    _refused(s, "decisions_pending")


def test_script_force_without_the_dealers_card_is_refused_589_11_e_2_ii() -> None:
    s = _base()
    s["dealer"]["cards"] = ["Qh", "Js", "4h", "5s", "7d"]
    s["positions"][0]["decisions"] = [{"decision": "bet"}, {"decision": "force_dealer"}]
    _refused(s, "decisions_pending")


def test_script_force_under_671a_is_refused() -> None:
    s = _base()
    s["game"] = "lunar-poker-671a"
    s["options"] = {"table_minimum_cents": 1000, "table_maximum_cents": 50000,
                    "instant_paytable": "A", "super_on_other_hands_offered": False}
    s["positions"][0]["wagers"]["super"] = 1000
    s["positions"][0]["decisions"] = [{"decision": "bet"}, {"decision": "force_dealer"}]
    _refused(s, "force_not_offered")


def test_script_two_decisions_before_the_lock_are_refused() -> None:
    s = _base()
    s["positions"][0]["decisions"] = [{"decision": "bet"}, {"decision": "fold"}]
    _refused(s, "decision_already_made")


def test_script_missing_decision_is_refused() -> None:
    s = _base()
    s["positions"][0]["decisions"] = []
    _refused(s, "decisions_pending")


def test_script_duplicate_card_is_refused() -> None:
    s = _base()
    s["dealer"]["cards"][0] = "2c"
    _refused(s, "duplicate_card")


def test_script_hilo_bad_setting_is_refused_579_11_d() -> None:
    s = {"game": "five-card-hi-lo",
         "options": {"table_minimum_cents": 500, "table_maximum_cents": 50000,
                     "ante_bonus_paytable": "B", "tie_wager_offered": False,
                     "poker_bonus_offered": False, "adjacent_betting_areas_permitted": False},
         "positions": [{"position": 1, "wagers": {"ante": 500},
                        "cards": ["As", "Ad", "Kc", "9h", "2s"],
                        "decisions": [{"decision": "play", "high": ["Kc", "9h", "2s"],
                                       "low": ["As", "Ad"]}]}],
         "dealer": {"cards": ["Kd", "Kh", "Qs", "2d", "3h"]}}
    _refused(s, "invalid_setting")


@pytest.mark.parametrize("mangle", [
    lambda s: s.pop("positions"),
    lambda s: s.__setitem__("dealer", "Ad Kh 5c 6h Tc"),
    lambda s: s["positions"][0].pop("wagers"),
    lambda s: s["positions"].append(copy.deepcopy(s["positions"][0])),
    lambda s: s["positions"][0]["decisions"].append("bet"),
    lambda s: s.__setitem__("irregularities", [{"kind": "shoe_jam", "at": "lunchtime"}]),
])
def test_malformed_scripts_are_refused(mangle: Any) -> None:
    s = _base()
    mangle(s)
    _refused(s, "invalid_script")


def test_script_irregularity_voids_the_round_589_13_f() -> None:
    s = _base()
    s["irregularities"] = [{"kind": "shoe_jam", "at": "after_deal"}]
    result = settle_script(s)
    assert result["returned_by_position_cents"] == {"1": {"ante": 1000}}
    assert result["house_win_cents"] == 0
    assert result["void"] == {"reason": "shoe_jam", "cite": "589.13(f)"}
    assert result["lines"][0]["outcome"] == "void"
