"""Replaying a stud hand history whose up cards are unknown (``??``): the Forced Bet is
taken from the record (§ 637a.10(d)), not decided by cards nobody saw."""

from __future__ import annotations

from pathlib import Path

import pytest

from poker_room.domain.phh import PHHError, replay

F7S = (Path(__file__).parent / "phh" / "F7S-1.phh").read_text()


def _with(first_deal: dict[str, str]) -> str:
    text = F7S
    for old, new in first_deal.items():
        text = text.replace(old, new)
    return text


def _bring_in(hand) -> int:
    return next(e["data"]["seat"] for e in hand.events if e["type"] == "BringInPosted")


def test_an_unknown_up_card_does_not_take_the_bring_in_from_the_recorded_player():
    """p1 shows the 4h and the record has p1 post the Forced Bet; p2's up card is unknown.
    Dealt the lowest unused card, p2 would have had to bring in and the record's "p1 pb"
    would be refused; the replay gives p2 the lowest card that leaves the bring-in with
    p1, and the hand plays to the end."""
    hand = replay(_with({"'d dh p2 Td5h5s'": "'d dh p2 Td5h??'"}))
    assert _bring_in(hand) == 1
    assert hand.is_complete


def test_named_up_cards_that_contradict_the_record_are_an_error():
    """p3 shows the 2c, lower than p1's 4h: the record's "p1 pb" contradicts the cards."""
    with pytest.raises(PHHError) as err:
        replay(_with({"'d dh p3 2sJcKs'": "'d dh p3 2sJc2d'"}))
    assert err.value.field == "actions"
