"""Five Card Hi-Lo read as chapter 579 says, domain tests on the round alone, figures
worked by hand: the misdeal exception keeps the deck only with 52 cards counted
(§ 579.8(h), § 579.9(f), § 579.10(f)); a stub count at a counting shuffler's table is
allowed, not required (§ 579.8(f)); a manual shoe's attestations are recorded only as the
dealer states them (§ 579.8(a), (c); § 589.8(a), (b); § 671a.8(a), (b)).

Two positions and the dealer: 15 cards out of the deck, a stub of 37 makes 52."""

from __future__ import annotations

import pytest

from tables.domain.banked import Phase

from .drive import ORDERED_DECK, Table, cards

GAME = "five-card-hi-lo"
MANUAL = {"dealing_method": "manual-shoe", "shuffler": "none"}
HAND = {"dealing_method": "hand", "shuffler": "automated"}
AUTO = {"dealing_method": "automated-shoe", "shuffler": "automated"}
COUNTING = {"dealing_method": "manual-shoe", "shuffler": "automated-counting"}
HANDS = {"1": "2c 3d 5h 8s Tc", "2": "4c 6d 7h 9s Jc"}
DEALER = "Kd Kh Qs 2d 3h"
#: the dealer's attestations at a manual shoe
ATTESTED = {"placed_by": "dealer", "card_hand": "closest_to_shoe"}


def _hilo(equipment: dict[str, str]) -> Table:
    t = Table(GAME, equipment=equipment)
    for n in (1, 2):
        t.wager(n, "ante", 500)
    t.do("no_more_bets")
    return t


def _recorded(t: Table, **fields: object) -> list[dict]:
    return t.do("deal", hands={k: cards(v) for k, v in HANDS.items()},
                dealer=cards(DEALER), **fields)


def _attested(equipment: dict[str, str]) -> dict[str, str]:
    return ATTESTED if equipment["dealing_method"] == "manual-shoe" else {}


# --- the misdeal keeps the deck only with a count of 52 ---------------------------------

SECTIONS = [(MANUAL, "579.8(f)", "579.8(h)"), (HAND, "579.9(d)", "579.9(f)"),
            (AUTO, "579.10(d)", "579.10(f)")]


@pytest.mark.regulation("579.8(h)", "579.9(f)", "579.10(f)")
@pytest.mark.parametrize(("equipment", "count", "wrong"), SECTIONS)
def test_a_misdeal_keeps_the_deck_when_stub_and_hands_make_52(equipment, count,
                                                              wrong) -> None:
    """A player was dealt six cards: the stub holds 36, so 36 and the 15 cards recorded
    out make 51, a wrong stub count. The dealer finds the misdeal and counts the cards
    held on the layout: 16; 36 + 16 = 52 remain, so every hand is void, both Antes ($5
    each) returned, and the deck stays; the count of 52 is recorded with the stub."""
    t = _hilo(equipment)
    _recorded(t, **_attested(equipment))
    evs = t.do("stub_count", cards=36, misdealt=True, held=16)
    counted = evs[0]
    assert counted == {"type": "StubCounted", "data": {
        "cards": 36, "held": 16, "deck_cards": 52, "correct": False, "misdealt": True,
        "cite": count}}
    voided = next(e for e in evs if e["type"] == "RoundVoided")
    assert (voided["data"]["cite"], voided["data"]["deck_removed"]) == (wrong, False)
    assert t.state.phase is Phase.CLOSED
    assert {n: p.returned for n, p in t.state.positions.items()} == {
        1: {"ante": 500}, 2: {"ante": 500}}


@pytest.mark.regulation("579.8(h)")
def test_a_misdeal_without_52_removes_the_deck() -> None:
    """Misdealt, but 36 in the stub and 15 held make 51: the exception needs 52 remaining,
    so the round is void and the entire deck is removed."""
    t = _hilo(MANUAL)
    _recorded(t, **ATTESTED)
    evs = t.do("stub_count", cards=36, misdealt=True, held=15)
    assert evs[0]["data"]["deck_cards"] == 51
    voided = next(e for e in evs if e["type"] == "RoundVoided")
    assert voided["data"]["deck_removed"] is True


@pytest.mark.regulation("579.8(h)")
def test_a_misdeal_without_the_count_keeps_nothing() -> None:
    """The misdeal said without the cards held counted (the stub count alone), or
    reported by the floor without any count: refused (``misdealt_needs_count``), nothing
    recorded; reported as not misdealt, the deck is removed."""
    t = _hilo(MANUAL)
    _recorded(t, **ATTESTED)
    t.refuse("misdealt_needs_count", "stub_count", cards=36, misdealt=True)
    t.refuse("misdealt_needs_count", "report_irregularity", kind="stub_count_wrong",
             misdealt=True)
    evs = t.do("report_irregularity", kind="stub_count_wrong", misdealt=False)
    assert next(e for e in evs if e["type"] == "RoundVoided")["data"]["deck_removed"]


# --- a counting shuffler makes the count unnecessary, not forbidden ---------------------

@pytest.mark.regulation("579.8(f)", "579.8(g)")
def test_a_stub_count_at_a_counting_shufflers_table_is_allowed() -> None:
    """A manual shoe fed by a counting shuffler: the dealer need not count the stub, but
    may: 37 in the stub and 15 out make 52, and the stub goes to the discard rack."""
    t = _hilo(COUNTING)
    _recorded(t, **ATTESTED)
    evs = t.do("stub_count", cards=37)
    assert evs == [
        {"type": "StubCounted", "data": {"cards": 37, "deck_cards": 52, "correct": True,
                                         "cite": "579.8(f)"}},
        {"type": "StubDiscarded", "data": {"cite": "579.8(g)"}}]


@pytest.mark.regulation("579.8(e)")
def test_the_stub_still_goes_uncounted_at_a_counting_shufflers_table() -> None:
    t = _hilo(COUNTING)
    _recorded(t, **ATTESTED)
    assert t.do("stub_discard")[0]["data"]["cite"] == "579.8(e)"


# --- the manual shoe's attestations, as stated --------------------------------------------

@pytest.mark.regulation("579.8(a)", "579.8(c)")
def test_a_manual_shoe_deal_records_the_attestations_only_as_stated() -> None:
    """Neither who placed the deck in the shoe nor the dealing hand said: refused
    (``placed_by_required``, ``card_hand_required``), nothing recorded; both said, the deal
    records them as said."""
    t = _hilo(MANUAL)
    t.refuse("placed_by_required", "deal", deck=ORDERED_DECK, card_hand="closest_to_shoe")
    t.refuse("card_hand_required", "deal", deck=ORDERED_DECK, placed_by="dealer")
    (dealt,) = t.do("deal", deck=ORDERED_DECK, **ATTESTED)
    assert (dealt["data"]["placed_by"], dealt["data"]["card_hand"]) == (
        "dealer", "closest_to_shoe")


@pytest.mark.regulation("589.8(a)", "589.8(b)", "671a.8(a)", "671a.8(b)")
@pytest.mark.parametrize("game", ["lunar-poker-589", "lunar-poker-671a"])
def test_a_lunar_manual_shoe_deal_needs_the_attestations(game: str) -> None:
    t = Table(game, equipment=MANUAL)
    for n in (1, 2):
        t.wager(n, "ante", 1000)
        t.wager(n, "super", 1000)
    t.do("no_more_bets")
    t.refuse("placed_by_required", "deal", deck=ORDERED_DECK)
    t.refuse("card_hand_required", "deal", deck=ORDERED_DECK, placed_by="dealer")
    (dealt,) = t.do("deal", deck=ORDERED_DECK, **ATTESTED)
    assert dealt["data"]["card_hand"] == "closest_to_shoe"
