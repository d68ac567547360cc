"""Players and seats (§ 637a.8(a)-(b), (k)) through the API: sitting out and in, stepping
away with the stakes recorded by a floorperson, leaving, the minimum bet raised by every
player's agreement."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from poker_room.models import PokerTable, Seat

pytestmark = pytest.mark.django_db


def _take(client, table, *seats: int) -> None:
    for seat in seats:
        assert client.post(f"/api/v1/poker-tables/{table.pk}/seats/take/",
                           {"seat": seat, "buy_in_cents": 10_000, "paid_with": "chips"},
                           format="json"
                           ).status_code == 201


@pytest.mark.regulation("637a.8(a)", "637a.8(b)(6)")
def test_a_player_sitting_out_or_away_is_not_dealt_in(crew, poker_table: Callable,
                                                      as_actor: Callable) -> None:
    """§ 637a.8(a): only the players seated and playing are dealt in; § 637a.8(b)(6): a
    floorperson records the stakes of a player stepping away and verifies them on the
    return; a dealer may not."""
    setup = poker_table("holdem")
    table = setup["table"]
    dealer, floor = as_actor(crew["dealer"]), as_actor(crew["floor"])
    url = f"/api/v1/poker-tables/{table.pk}/seats/"
    _take(dealer, table, 1, 2, 3, 4)
    assert dealer.post(url + "sit-out/", {"seat": 2}, format="json").json()["status"] == \
        "sitting_out"
    r = dealer.post(url + "step-away/", {"seat": 3, "covered_cents": 10_000}, format="json")
    assert (r.status_code, r.json()["code"]) == (403, "role_required")
    r = floor.post(url + "step-away/", {"seat": 3, "covered_cents": 9_000}, format="json")
    assert r.json()["code"] == "stakes_mismatch"
    r = floor.post(url + "step-away/", {"seat": 3, "covered_cents": 10_000}, format="json")
    assert (r.json()["status"], r.json()["covered_cents"]) == ("away", 10_000)
    h = dealer.post(f"/api/v1/poker-tables/{table.pk}/hands/",
                    {"deck_id": str(setup["decks"][0].pk)}, format="json").json()
    started = next(e for e in h["events"] if e["type"] == "HandStarted")["data"]
    assert [s for s, _ in started["seats"]] == [1, 4]
    dealer.post(f"/api/v1/hands/{h['round_id']}/command/",
                {"command": {"type": "misdeal", "reason": "not_shuffled_or_cut"}},
                format="json")
    r = floor.post(url + "return/", {"seat": 3, "stakes_verified": False}, format="json")
    assert r.json()["code"] == "stakes_not_verified"
    assert floor.post(url + "return/", {"seat": 3, "stakes_verified": True},
                      format="json").json()["status"] == "playing"
    assert dealer.post(url + "sit-in/", {"seat": 2}, format="json").json()["status"] == \
        "playing"
    left = dealer.post(url + "leave/", {"seat": 4}, format="json").json()
    assert left == {"seat": 4, "cashed_out_cents": 10_000}
    assert sorted(Seat.objects.filter(table=table).values_list("seat", flat=True)) == [1, 2, 3]


@pytest.mark.regulation("637a.8(k)")
def test_minimum_bet_raised_only_by_agreement_and_within_the_submission(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """§ 637a.8(k): every player agrees, the dealer establishes it as the submission says,
    and the minimum bet goes up by no more than it allows: no limit, blinds $2/$4 (the
    minimum bet $4), at most $6 more, so $10 is allowed and $12 is not."""
    setup = poker_table("holdem", structure="no-limit", small_bet_cents=None,
                        big_bet_cents=None, minimum_bet_increase={
                            "maximum_increase_cents": 600,
                            "agreement_method": "the dealer asks each player aloud"})
    table = setup["table"]
    dealer = as_actor(crew["dealer"])
    _take(dealer, table, 1, 2, 3)
    url = f"/api/v1/poker-tables/{table.pk}/minimum-bet/"
    r = dealer.post(url, {"amount_cents": 1_000, "all_players_agreed": False}, format="json")
    assert r.json()["code"] == "agreement_required"
    r = dealer.post(url, {"amount_cents": 1_200, "all_players_agreed": True}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "increase_above_maximum")
    r = dealer.post(url, {"amount_cents": 1_000, "all_players_agreed": True}, format="json")
    assert r.status_code == 200 and r.json()["agreed_minimum_bet_cents"] == 1_000
    assert PokerTable.objects.get(pk=table.pk).agreed_minimum_bet_cents == 1_000
    h = dealer.post(f"/api/v1/poker-tables/{table.pk}/hands/",
                    {"deck_id": str(setup["decks"][0].pk)}, format="json").json()
    h = dealer.post(f"/api/v1/hands/{h['round_id']}/command/", {"command": {
        "type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"], "3": ["2c", "7d"]}}},
        format="json").json()
    assert h["legal_actions"]["min_to"] == 400 + 1_000  # a raise of at least the $10 bet


@pytest.mark.regulation("637a.18(b)", "637a.18(c)")
def test_floor_removes_a_colluding_player_and_compliance_is_told(
        crew, poker_table: Callable, as_actor: Callable, staff) -> None:
    """§ 637a.18(b)-(c): the floor requires a player who plays to help another to leave the
    game, once the player's hand is folded, with the stakes as they stand ($100 less the
    $2 small blind in the pot); the event is the notice compliance reads. A dealer may
    not; a live hand may not be left."""
    setup = poker_table("holdem")
    table = setup["table"]
    dealer, floor = as_actor(crew["dealer"]), as_actor(crew["floor"])
    _take(dealer, table, 1, 2, 3)
    h = dealer.post(f"/api/v1/poker-tables/{table.pk}/hands/",
                    {"deck_id": str(setup["decks"][0].pk)}, format="json").json()
    url = f"/api/v1/poker-tables/{table.pk}/seats/remove/"
    body = {"seat": 1, "reason": "soft-playing seat 2 after signalling"}
    assert dealer.post(url, body, format="json").status_code == 403
    r = floor.post(url, body, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "seat_in_hand")
    dealer.post(f"/api/v1/hands/{h['round_id']}/commands/", {"commands": [
        {"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"], "3": ["2c", "7d"]}},
        {"type": "act", "seat": 3, "action": "call"},
        {"type": "act", "seat": 1, "action": "fold"}]}, format="json")
    r = floor.post(url, body, format="json")
    assert r.json() == {"seat": 1, "cashed_out_cents": 9_800}
    notices = as_actor(staff("compliance")).get("/api/v1/events/?type=PlayerRemoved").json()
    assert [e["data"]["reason"] for e in notices["results"]] == [body["reason"]]
