"""The jackpot box at the table, the pure part (§ 637a.2(e)): what registering a box
checks, and which funds a hand at the table pays into. No database."""

from __future__ import annotations

import pytest

from casino.domain.errors import ConflictError, DomainError
from poker_room.domain import contributions as jp
from poker_room.domain.contributions import JackpotRule, contributions

#: the two funds of a Rules Submission's canonical options, as the schema writes them
OPTIONS = {
    "rake": {"percentage_bp": 1000},
    "bad_beat": {"fund": "bad-beat", "contribution": {"amount_cents": 100},
                 "maximum_per_pot_cents": 100, "minimum_pot_cents": 2000},
    "high_hand": {"fund": "high-hand", "contribution": {"amount_cents": 100},
                  "maximum_per_pot_cents": 100, "minimum_pot_cents": 1000},
}
FUNDS = {"bad-beat": "bad_beat", "high-hand": "high_hand"}
REASON = "no jackpot box registered at this table (637a.2(e))"


def test_a_table_without_a_box_pays_nothing_into_that_fund_and_says_why() -> None:
    """§ 637a.2(e): the Bad Beat box is on the table, the High Hand box is not: the hand
    plays by the options without the High Hand fund, and the withheld fund is named with
    0 cents and the reason; the other options are left as they were."""
    kept, withheld = jp.collected_at_table(OPTIONS, {"bad-beat": {"box": "B-7",
                                                                  "kind": "bad_beat"}})
    assert kept["high_hand"] is None
    assert kept["bad_beat"] == OPTIONS["bad_beat"]
    assert kept["rake"] == {"percentage_bp": 1000}
    assert withheld == [{"fund": "high-hand", "kind": "high_hand", "cents": 0,
                         "reason": REASON}]
    assert OPTIONS["high_hand"] is not None  # the Rules Submission's own options untouched


def test_no_box_at_all_withholds_both_funds_and_boxes_for_both_withhold_none() -> None:
    """§ 637a.2(e): both boxes: nothing withheld; none: both funds, in the posted order."""
    both = {"bad-beat": {"box": "1", "kind": "bad_beat"},
            "high-hand": {"box": "2", "kind": "high_hand"}}
    assert jp.collected_at_table(OPTIONS, both) == (OPTIONS, [])
    kept, withheld = jp.collected_at_table(OPTIONS, {})
    assert (kept["bad_beat"], kept["high_hand"]) == (None, None)
    assert [w["fund"] for w in withheld] == ["bad-beat", "high-hand"]


def test_the_pot_keeps_what_a_missing_box_would_have_taken() -> None:
    """§ 637a.2(e), § 637a.15(c): a pot of $40 after the rake, $1 to the Bad Beat fund
    from pots of $20: with the box the players' pot is $39; the rules of a table without
    it take nothing ($40 stays in the pot)."""
    rule = JackpotRule(fund="bad_beat", fund_name="bad-beat", max_cents=100,
                       min_pot_cents=2000, fixed_cents=100)
    assert contributions([rule], 4000) == [("bad_beat", 100)]
    kept, _ = jp.collected_at_table({"bad_beat": OPTIONS["bad_beat"]}, {})
    assert kept["bad_beat"] is None  # TableRules.from_options builds no JackpotRule then


@pytest.mark.parametrize("field,code", [
    ("transparent", "jackpot_box_not_transparent"),
    ("locked", "jackpot_box_not_locked"),
    ("beside_drop_box", "jackpot_box_not_beside_drop_box"),
])
@pytest.mark.regulation("637a.2(e)")
def test_each_thing_the_chapter_requires_of_the_box_must_be_confirmed(field: str, code: str
                                                                       ) -> None:
    """§ 637a.2(e): transparent, locked, on the drop box's side: each not confirmed
    (false, or anything but true) is its own refusal, naming the field."""
    confirmed = {"transparent": True, "locked": True, "beside_drop_box": True}
    jp.box_confirmed(**confirmed)
    for value in (False, None, "yes"):
        with pytest.raises(DomainError) as err:
            jp.box_confirmed(**{**confirmed, field: value})
        assert (err.value.code, err.value.field) == (code, field)


def test_a_box_is_for_a_posted_fund_once_and_its_tag_is_the_tables_own() -> None:
    """§ 637a.2(e): a box for a fund the rules pay into; a second box for that fund, or
    one more box with a tag already on the table, is refused; removing a fund's box
    leaves the others; removing one not there is ``no_jackpot_box``."""
    boxes = jp.box_registered({}, FUNDS, "bad-beat", "B-7")
    assert boxes == {"bad-beat": {"box": "B-7", "kind": "bad_beat"}}
    for fund, tag, code in [("progressive", "P-1", "fund_not_offered"),
                            ("bad-beat", "B-8", "jackpot_box_already_registered"),
                            ("high-hand", "B-7", "jackpot_box_tag_in_use")]:
        with pytest.raises(ConflictError) as err:
            jp.box_registered(boxes, FUNDS, fund, tag)
        assert err.value.code == code
    both = jp.box_registered(boxes, FUNDS, "high-hand", "H-2")
    assert jp.box_removed(both, "bad-beat") == {"high-hand": {"box": "H-2",
                                                              "kind": "high_hand"}}
    with pytest.raises(ConflictError) as err:
        jp.box_removed(boxes, "high-hand")
    assert err.value.code == "no_jackpot_box"
    for bad in ("", "   ", "x" * 41, 7):
        with pytest.raises(DomainError) as err:
            jp.box_tag(bad)
        assert err.value.code == "invalid_jackpot_box"
