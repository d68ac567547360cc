"""A hand's start refused at the gate, on the command runner (issue 25 item 2): the checks
decided on the table's one locked read keep their codes and their order — the table
(found at the caller's property, a poker table, the dealer's own), the hand (none in
progress, two players), then the round's gate (open, rules, the deck) — and a refusal
appends nothing to any of the streams the start would have written."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from casino.domain.errors import DomainError
from casino.eventstore.store import head, read_stream
from poker_room.services import hands, seats
from tables.demo import deck_ready
from tables.models import Deck
from tables.services import tables

pytestmark = pytest.mark.django_db


def _refused(code: str, **start: Any) -> None:
    before = head()
    with pytest.raises(DomainError) as err:
        hands.hand_start(**start)
    assert err.value.code == code, err.value
    assert head() == before


def _seat(crew: dict, table: Any, *numbers: int) -> None:
    for n in numbers:
        seats.seat_player(actor=crew["dealer"], table_id=table.pk, seat=n, buy_in_cents=10_000,
                          paid_with="chips")


@pytest.mark.regulation("637a.7(b)")
def test_the_table_is_checked_before_the_hand_and_the_hand_before_the_round(
        crew, poker_table: Callable, open_table: Callable) -> None:  # noqa: ANN001
    """§ 637a.7(b): a hand needs two players — told before the round's own gate (a table
    with one player and no deck is refused for the players); a banked table is no poker
    table; a table of no one's property is not found."""
    dealer = crew["dealer"]
    banked = open_table("lunar-poker-589")
    _refused("not_a_poker_table", actor=dealer, table_id=banked.pk)
    _refused("table_not_found", actor=dealer, table_id=uuid.uuid4())
    _refused("table_not_found", actor=dealer, table_id="not-a-table")
    bare = open_table("holdem")
    _seat(crew, bare, 1)
    _refused("too_few_players", actor=dealer, table_id=bare.pk)
    _seat(crew, bare, 2)
    _refused("no_deck_in_play", actor=dealer, table_id=bare.pk)


def test_a_hand_in_progress_is_told_before_the_round_in_progress(
        crew, poker_table: Callable) -> None:  # noqa: ANN001
    t = poker_table("holdem")
    _seat(crew, t["table"], 1, 2, 3)
    first = hands.hand_start(actor=crew["dealer"], table_id=t["table"].pk, shuffle=True)
    _refused("hand_in_progress", actor=crew["dealer"], table_id=t["table"].pk, shuffle=True)
    assert [e.type for e in read_stream(f"round-{first.round_id}")][0] == "RoundOpened"


def test_a_closed_table_is_refused_after_the_hand_checks(
        crew, poker_table: Callable) -> None:  # noqa: ANN001
    t = poker_table("holdem")
    _seat(crew, t["table"], 1, 2)
    tables.table_close(actor=crew["floor"], table_id=t["table"].pk)
    _refused("table_closed", actor=crew["dealer"], table_id=t["table"].pk)


def test_a_deck_named_must_be_one_of_the_pair_in_play(
        crew, poker_table: Callable, open_table: Callable) -> None:  # noqa: ANN001
    """§ 637a.3(a): the deck named is one of the table's two decks in play (409
    deck_not_in_play for a deck of another table; 404 deck_not_found for a deck the
    property does not have), and the pair alternates (409 wrong_deck)."""
    t = poker_table("holdem")
    _seat(crew, t["table"], 1, 2)
    other = open_table("holdem")
    elsewhere = deck_ready(other, crew["dealer"], crew["floor"], "green", batch="green")
    dealer, table_id = crew["dealer"], t["table"].pk
    _refused("deck_not_in_play", actor=dealer, table_id=table_id, deck_id=elsewhere.pk)
    _refused("deck_not_found", actor=dealer, table_id=table_id, deck_id=uuid.uuid4())
    _refused("deck_not_found", actor=dealer, table_id=table_id, deck_id="red")
    ph = hands.hand_start(actor=dealer, table_id=table_id, deck_id=t["decks"][0].pk,
                          shuffle=True)
    hands.hand_command(actor=dealer, round_id=ph.round_id, expected_version=ph.version,
                       commands=[{"type": "void", "reason": "missing_or_extra_cards"}])
    _refused("wrong_deck", actor=dealer, table_id=table_id, deck_id=t["decks"][0].pk)
    second = hands.hand_start(actor=dealer, table_id=table_id, shuffle=True)
    assert read_stream(f"round-{second.round_id}")[0].data["deck_id"] == str(t["decks"][1].pk)
    # each deck's stream records the round it dealt, at the version the start read
    dealt = [e for e in read_stream(f"deck-{t['decks'][1].pk}") if e.type == "DeckDealtRound"]
    assert [e.data["number"] for e in dealt] == [2]
    assert Deck.objects.get(pk=t["decks"][1].pk).rounds_dealt == 1


@pytest.mark.regulation("637a.11(c)(1)", "637a.11(c)(2)")
def test_the_button_and_the_kill_come_from_the_tables_row(
        crew, poker_table: Callable) -> None:  # noqa: ANN001
    """§ 637a.11(c)(1): seats 2, 5 and 7 taken, the first button is seat 7, the first player
    to the dealer's right; § 637a.11(c)(2): then it moves clockwise to the next seat
    dealt in, 2, then 5, as the poker table's row recorded it after the last hand."""
    t = poker_table("holdem")
    _seat(crew, t["table"], 2, 5, 7)
    dealer, table_id = crew["dealer"], t["table"].pk
    buttons = []
    for _ in range(3):
        ph = hands.hand_start(actor=dealer, table_id=table_id, shuffle=True)
        buttons.append(read_stream(f"poker_table-{table_id}")[-1].data["button_seat"])
        hands.hand_command(actor=dealer, round_id=ph.round_id, expected_version=ph.version,
                           commands=[{"type": "void", "reason": "missing_or_extra_cards"}])
    assert buttons == [7, 2, 5]
