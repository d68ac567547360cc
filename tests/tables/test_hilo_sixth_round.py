"""§ 579.8(f): at a manual shoe without a counting shuffler the dealer counts the stub at
least once every 5 rounds of play. Five Hi-Lo rounds dealt with the stub put in the
discard rack uncounted: the sixth is refused by the round gate (``deck_count_due``,
citing 579.8(f)), nothing appended; with the stub counted in the fifth (52) the sixth
opens. Against the real database and services."""

from __future__ import annotations

from typing import Any

import pytest

from casino.domain.errors import ConflictError
from casino.eventstore.store import head
from tables.models import Deck
from tables.services import banked, rounds

pytestmark = [pytest.mark.django_db, pytest.mark.regulation("579.8(f)")]

NO_COUNTER = {"dealing_method": "manual-shoe", "shuffler": "none"}
#: one position and the dealer, five cards each: 10 cards out, a stub of 42 makes 52
ONE_HAND = {"1": ["Ks", "Qd", "9c", "3h", "2d"]}
DEALERS = ["Jh", "Tc", "8s", "6d", "4c"]
STATED = {"placed_by": "dealer", "card_hand": "closest_to_shoe"}


def _round(crew: dict, table: Any, deck: Any, stub: int | None) -> None:
    """One round: an Ante, no more bets, the deal, the stub (counted when ``stub``), the
    player forfeits, the round closes."""
    d = crew["dealer"]
    rnd = rounds.round_open(actor=d, table_id=table.pk, deck_id=deck.pk)
    banked.round_place_wager(actor=d, round_id=rnd.pk, position=1, wager="ante", amount=1000)
    banked.round_no_more_bets(actor=d, round_id=rnd.pk)
    banked.round_deal(actor=d, round_id=rnd.pk, hands=ONE_HAND, dealer=DEALERS, **STATED)
    banked.round_stub(actor=d, round_id=rnd.pk, cards=stub)
    banked.round_decide(actor=d, round_id=rnd.pk, position=1, decision="forfeit")
    banked.round_lock_decisions(actor=d, round_id=rnd.pk)
    rounds.round_close(actor=d, round_id=rnd.pk)


def test_a_sixth_round_without_a_stub_count_is_refused(crew, open_table,
                                                       deck_in_play) -> None:
    table = open_table("five-card-hi-lo", **NO_COUNTER)
    deck = deck_in_play(table, shuffle="manual")
    for _ in range(5):
        _round(crew, table, deck, stub=None)
    assert Deck.objects.get(pk=deck.pk).rounds_since_count == 5
    before = head()
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    assert err.value.code == "deck_count_due"
    assert "579.8(f)" in str(err.value)
    assert head() == before


def test_a_stub_counted_in_the_fifth_round_lets_the_sixth_open(crew, open_table,
                                                               deck_in_play) -> None:
    table = open_table("five-card-hi-lo", **NO_COUNTER)
    deck = deck_in_play(table, shuffle="manual")
    for _ in range(4):
        _round(crew, table, deck, stub=None)
    _round(crew, table, deck, stub=42)
    assert Deck.objects.get(pk=deck.pk).rounds_since_count == 0
    sixth = rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    assert sixth.number == 6
