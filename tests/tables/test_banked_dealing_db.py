"""The dealing procedures with the database: the five-round card count at a house-banked
table without a counting shuffler — a right stub count in the round is the deck's count
(579.8(f)-(g)), and at Lunar Poker the deck is counted after every 5 rounds before it
deals again (671a.11(h)) — and a card drawn in error dealt from the server's shuffle
(589.13(b))."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import head, read_stream
from tables.models import Deck, DeckState
from tables.services import banked, decks, rounds, tables
from tests.conftest import token_client
from tests.tables._api import ok as _ok
from tests.tables._api import problem as _problem

pytestmark = pytest.mark.django_db
V1 = "/api/v1"
NO_COUNTER = {"dealing_method": "manual-shoe", "shuffler": "none"}


def _play(crew: dict, table: Any, deck: Any) -> Any:
    r = rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    rounds.round_close(actor=crew["dealer"], round_id=r.pk)
    return r


def _count_due(crew: dict, table: Any, deck: Any, cite: str) -> None:
    before = head()
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    assert err.value.code == "deck_count_due"
    assert cite in str(err.value)  # the table's own chapter, not poker's 637a.7(e)(4)
    assert head() == before  # nothing appended


def _refused(code: str, open_round: Any) -> None:
    before = head()
    with pytest.raises((ConflictError, DomainError)) as err:
        open_round()
    assert err.value.code == code
    assert head() == before  # nothing appended


#: one position and the dealer, five cards each: 10 cards out of the deck
ONE_HAND = {"1": ["Ks", "Qd", "9c", "3h", "2d"]}
DEALERS = ["Jh", "Tc", "8s", "6d", "4c"]
#: the dealer's statements a manual shoe's deal records (579.8(a), (c)), never assumed
STATED = {"placed_by": "dealer", "card_hand": "closest_to_shoe"}


def _dealt(crew: dict, table: Any, deck: Any) -> Any:
    """A Hi-Lo round opened with ``deck``, one Ante, no more bets and the deal recorded."""
    d = crew["dealer"]
    rnd = rounds.round_open(actor=d, table_id=table.pk, deck_id=deck.pk)
    banked.round_place_wager(actor=d, round_id=rnd.pk, position=1, wager="ante", amount=1000)
    banked.round_no_more_bets(actor=d, round_id=rnd.pk)
    banked.round_deal(actor=d, round_id=rnd.pk, hands=ONE_HAND, dealer=DEALERS, **STATED)
    return rnd


@pytest.mark.regulation("579.8(g)")
def test_a_right_stub_count_in_the_fifth_round_is_the_deck_count(crew, open_table,
                                                                 deck_in_play) -> None:
    """§ 579.8(f)-(g): at a manual shoe without a counting shuffler the stub is counted at
    least once every 5 rounds. In the 5th round one position and the dealer hold 10 cards;
    a stub of 42 makes 52: the stub goes to the discard rack and the deck's count is
    recorded in its stream with the round's events, so the 6th round opens (it would be
    refused with deck_count_due otherwise)."""
    table = open_table("five-card-hi-lo", **NO_COUNTER)
    deck = deck_in_play(table, shuffle="manual")
    for _ in range(4):
        _play(crew, table, deck)
    rnd = rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    assert Deck.objects.get(pk=deck.pk).rounds_since_count == 5
    c = token_client(get_user_model().objects.get(username=crew["dealer"].username))

    def post(path: str, body: dict | None = None) -> dict:
        return _ok(c.post(f"{V1}/rounds/{rnd.pk}/{path}", body or {}, format="json"), 200)

    post("wagers/", {"position": 1, "wager": "ante", "amount": 1000, "instrument": "chips"})
    post("no-more-bets/")
    before = head()
    _problem(c.post(f"{V1}/rounds/{rnd.pk}/stub/", {"cards": 42}, format="json"), 409,
             "stub_before_deal")
    _problem(c.post(f"{V1}/rounds/{rnd.pk}/deal/", {
        "hands": {"1": ["Ks", "Qd", "9c", "3h", "2d"]},
        "dealer": ["Jh", "Tc", "8s", "6d", "4c"], "method": "stacks"}, format="json"), 409,
        "deal_method_mismatch")
    # 579.8(a), (c): the attestations are the dealer's to state, never assumed
    _problem(c.post(f"{V1}/rounds/{rnd.pk}/deal/", {
        "hands": {"1": ["Ks", "Qd", "9c", "3h", "2d"]},
        "dealer": ["Jh", "Tc", "8s", "6d", "4c"]}, format="json"), 400, "placed_by_required")
    assert head() == before
    dealt = post("deal/", {"hands": {"1": ["Ks", "Qd", "9c", "3h", "2d"]},
                           "dealer": ["Jh", "Tc", "8s", "6d", "4c"], **STATED})
    assert dealt["events"][-1]["data"]["placed_by"] == "dealer"
    post("stub/", {"cards": 42})
    types = [e.type for e in read_stream(f"round-{rnd.pk}")]
    assert types[-2:] == ["StubCounted", "StubDiscarded"]
    counted = read_stream(deck.stream_id)[-1]
    assert counted.type == "DeckCounted"
    assert counted.data["cards"] == 52 and counted.data["correct"] is True
    assert counted.data["cite"] == "579.8(f)"
    assert Deck.objects.get(pk=deck.pk).rounds_since_count == 0
    post("decisions/", {"position": 1, "decision": "play", "high": ["Ks", "Qd", "9c"],
                        "low": ["3h", "2d"]})
    post("lock/")
    rounds.round_close(actor=crew["dealer"], round_id=rnd.pk)
    texts = [s["text"] for s in banked.round_reconstruction(actor=crew["floor"],
                                                            round_id=rnd.pk)["steps"]]
    assert "stub counted: 42 cards, 52 in the deck, right (579.8(f))" in texts
    assert "stub placed in the discard rack (579.8(g))" in texts
    assert _play(crew, table, deck).number == 6


@pytest.mark.parametrize(("game", "cite"), [
    pytest.param("lunar-poker-671a", "671a.11(h)", marks=pytest.mark.regulation("671a.11(h)")),
    pytest.param("lunar-poker-589", "589.11(g)", marks=pytest.mark.regulation("589.11(g)"))])
def test_lunar_deck_counted_after_every_five_rounds_671a_11_h(game, cite, crew, open_table,
                                                              deck_in_play) -> None:
    """§ 671a.11(h), § 589.11(g): without a counting shuffler the cards are counted after
    every 5 rounds before the deck deals again (refused until then, citing the chapter's
    subsection): 52 → the deck stays in play (6th round opens); after 5 more rounds a
    count of 51 → the entire deck is removed from the table."""
    table = open_table(game, **NO_COUNTER)
    deck = deck_in_play(table, shuffle="manual")
    for _ in range(5):
        _play(crew, table, deck)
    _count_due(crew, table, deck, cite)
    decks.deck_count(actor=crew["dealer"], deck_id=deck.pk, cards=52)
    assert Deck.objects.get(pk=deck.pk).state == DeckState.IN_PLAY
    for _ in range(5):
        _play(crew, table, deck)
    _count_due(crew, table, deck, cite)
    decks.deck_count(actor=crew["dealer"], deck_id=deck.pk, cards=51)
    assert Deck.objects.get(pk=deck.pk).state == DeckState.REMOVED
    assert [e.type for e in read_stream(deck.stream_id)][-2:] == ["DeckCounted",
                                                                   "DeckRemoved"]


@pytest.mark.regulation("589.13(b)")
def test_a_card_drawn_in_error_tops_the_server_shuffle_589_13_b(crew, open_table,
                                                               deck_in_play) -> None:
    """§ 589.13(b): the floorperson reports 7h drawn in error face down before the deal;
    the server's shuffle deals it as the next card: the first card one at a time from the
    manual shoe goes to position 1. Its face exposed is refused (that is 589.13(a)),
    nothing appended."""
    table = open_table("lunar-poker-589", **NO_COUNTER)
    deck = deck_in_play(table, shuffle="manual")
    rnd = rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    dealer, floor = (token_client(get_user_model().objects.get(username=crew[r].username))
                     for r in ("dealer", "floor"))

    def post(c: Any, path: str, body: dict | None = None) -> dict:
        return _ok(c.post(f"{V1}/rounds/{rnd.pk}/{path}", body or {}, format="json"), 200)

    post(dealer, "wagers/", {"position": 1, "wager": "ante", "amount": 1000})
    post(dealer, "no-more-bets/")
    before = head()
    _problem(floor.post(f"{V1}/rounds/{rnd.pk}/irregularities/", {
        "kind": "card_drawn_in_error", "card": "7h", "face_exposed": True}, format="json"),
        400, "card_face_exposed")
    assert head() == before
    post(floor, "irregularities/", {"kind": "card_drawn_in_error", "card": "7h"})
    dealt = post(dealer, "deal-from-shuffle/", STATED)
    assert dealt["positions"][0]["cards"][0] == "7h"


def test_a_wrong_stub_count_removes_the_deck_unless_misdealt(crew, open_table,
                                                            deck_in_play) -> None:
    """§ 579.8(h): 10 cards out (one position and the dealer). A stub of 41 makes 51:

    * misdealt (the position was dealt a sixth card): the cards held, counted on the
      layout, are 11, and 41 + 11 = 52 remain: the round is void, the deck's count of 52
      is recorded in its stream and the deck stays in play; ``misdealt`` sent without the
      stub's count, or without the cards held, is refused (misdealt_needs_count),
      nothing appended;
    * not misdealt: void, and in the same command the deck's count (51, wrong) and its
      removal from the table in its stream: the deck is removed and the next round with
      it is refused;
    * the wrong stub count reported by the floor as an irregularity, not misdealt,
      removes the next deck the same way."""
    table = open_table("five-card-hi-lo", **NO_COUNTER)
    deck = deck_in_play(table, shuffle="manual")
    rnd = _dealt(crew, table, deck)
    c = token_client(get_user_model().objects.get(username=crew["dealer"].username))
    before = head()
    _problem(c.post(f"{V1}/rounds/{rnd.pk}/stub/", {"misdealt": True}, format="json"), 400,
             "misdealt_needs_count")
    _problem(c.post(f"{V1}/rounds/{rnd.pk}/stub/", {"cards": 41, "misdealt": True},
                    format="json"), 400, "misdealt_needs_count")
    assert head() == before
    banked.round_stub(actor=crew["dealer"], round_id=rnd.pk, cards=41, misdealt=True,
                      held=11)
    rounds.round_close(actor=crew["dealer"], round_id=rnd.pk)
    counted = read_stream(deck.stream_id)[-1]
    assert (counted.type, counted.data["cards"], counted.data["correct"],
            counted.data["stub"], counted.data["held"]) == ("DeckCounted", 52, True, 41, 11)
    assert Deck.objects.get(pk=deck.pk).state == DeckState.IN_PLAY

    rnd = _dealt(crew, table, deck)
    banked.round_stub(actor=crew["dealer"], round_id=rnd.pk, cards=41)
    assert [e.type for e in read_stream(f"round-{rnd.pk}")][-2:] == ["StubCounted",
                                                                     "RoundVoided"]
    counted, removed = read_stream(deck.stream_id)[-2:]
    assert (counted.type, counted.data["cards"], counted.data["correct"],
            counted.data["stub"]) == ("DeckCounted", 51, False, 41)
    assert (removed.type, removed.data["reason"], removed.data["cite"]) == (
        "DeckRemoved", "count-wrong", "579.8(h)")
    assert Deck.objects.get(pk=deck.pk).state == DeckState.REMOVED
    rounds.round_close(actor=crew["dealer"], round_id=rnd.pk)
    _refused("deck_not_in_play", lambda: rounds.round_open(
        actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk))

    second = deck_in_play(table, shuffle="manual", colour="blue")
    rnd = _dealt(crew, table, second)
    banked.round_report_irregularity(actor=crew["floor"], round_id=rnd.pk,
                                     kind="stub_count_wrong", misdealt=False)
    (removed,) = read_stream(second.stream_id)[-1:]
    assert (removed.type, removed.data["reason"]) == ("DeckRemoved", "count-wrong")
    assert Deck.objects.get(pk=second.pk).state == DeckState.REMOVED


@pytest.mark.regulation("579.13(f)", "579.13(e)")
def test_an_automated_shoe_deals_until_signed_out_of_order_579_13_f(crew, open_table,
                                                                   deck_in_play) -> None:
    """§ 579.13(f): at a table with an automated dealing shoe in service the round is
    dealt from the shoe (stacks): a deal one card at a time is refused
    (deal_method_mismatch), nothing appended. The shoe jams (the round void, 579.13(e)),
    is covered and recorded out of order; only then the next round is dealt by hand and
    the deal one card at a time is accepted."""
    table = open_table("five-card-hi-lo", dealing_method="automated-shoe",
                       shuffler="automated")
    deck = deck_in_play(table)
    d = crew["dealer"]
    rnd = rounds.round_open(actor=d, table_id=table.pk, deck_id=deck.pk)
    assert read_stream(f"round-{rnd.pk}")[0].data["dealing_method"] == "automated-shoe"
    banked.round_place_wager(actor=d, round_id=rnd.pk, position=1, wager="ante", amount=1000)
    banked.round_no_more_bets(actor=d, round_id=rnd.pk)
    _refused("deal_method_mismatch", lambda: banked.round_deal(
        actor=d, round_id=rnd.pk, hands=ONE_HAND, dealer=DEALERS, method="by_card"))
    banked.round_report_irregularity(actor=crew["floor"], round_id=rnd.pk, kind="shoe_jam")
    rounds.round_close(actor=d, round_id=rnd.pk)
    tables.table_equipment(actor=crew["floor"], table_id=table.pk, device="shoe",
                           out_of_order=True, covered_or_signed=True)
    rnd = rounds.round_open(actor=d, table_id=table.pk, deck_id=deck.pk)
    assert read_stream(f"round-{rnd.pk}")[0].data["dealing_method"] == "hand"
    banked.round_place_wager(actor=d, round_id=rnd.pk, position=1, wager="ante", amount=1000)
    banked.round_no_more_bets(actor=d, round_id=rnd.pk)
    dealt = banked.round_deal(actor=d, round_id=rnd.pk, hands=ONE_HAND, dealer=DEALERS,
                              method="by_card")
    assert dealt.events[-1].data["method"] == "by_card"
