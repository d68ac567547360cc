"""Hands through the dealer terminal's API (637a.7, 637a.11, 637a.17), figures worked by
hand from the chapter, against the real database and event store."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from poker_room.models import RakeDay, Seat

pytestmark = pytest.mark.django_db


def _seat_three(client, table) -> None:
    for seat in (1, 2, 3):
        r = client.post(f"/api/v1/poker-tables/{table.pk}/seats/take/",
                        {"seat": seat, "buy_in_cents": 10_000, "paid_with": "chips"},
                        format="json")
        assert r.status_code == 201, r.json()


def _act(client, hand: str, version: int, *commands: dict) -> dict[str, Any]:
    r = client.post(f"/api/v1/hands/{hand}/commands/",
                    {"commands": list(commands), "expected_version": version}, format="json")
    assert r.status_code == 200, r.json()
    return r.json()


@pytest.mark.regulation("637a.17(b)(1)(ii)", "637a.15(c)", "637a.16(c)")
def test_holdem_hand_through_the_api_rake_into_the_drop_box(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """§ 637a.11(c)-(k), § 637a.17(b)(1), § 637a.15(c), § 637a.16(c). The example Rules
    Submission: $4/$8 fixed limit, blinds $2 and $4, 10 % rake capped at $5 in $1 chips,
    $1 to the Bad Beat fund (pots of $20) and $1 to the High Hand fund (pots of $10).
    Three players with $100: the button starts at seat 3 (the dealer's right), seat 1
    posts $2, seat 2 $4. Seat 3 calls $4, seat 1 raises to $8, seats 2 and 3 call: $24.
    Flop: seat 1 bets $4, seat 2 calls, seat 3 folds: $32. Turn and river: seat 1 bets $8,
    seat 2 calls each: $64. Seat 1's aces win. Rake 10 % of $64 = $6.40, capped at $5;
    $59 left, $1 to each fund, $57 to seat 1: seat 1 $100 - $28 + $57 = $129, seat 2 $72,
    seat 3 $92."""
    setup = poker_table("holdem")
    table = setup["table"]
    dealer = as_actor(crew["dealer"])
    _seat_three(dealer, table)
    r = dealer.post(f"/api/v1/poker-tables/{table.pk}/hands/",
                    {"deck_id": str(setup["decks"][0].pk)}, format="json")
    assert r.status_code == 201, r.json()
    h = r.json()
    hand, v = h["round_id"], h["version"]
    blinds = [(e["data"]["seat"], e["data"]["amount"]) for e in h["events"]
              if e["type"] == "BlindPosted"]
    assert blinds == [(1, 200), (2, 400)]
    h = _act(dealer, hand, v, {"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"],
                                                        "3": ["2c", "7d"]}})
    assert all(s["down"] == [None, None] for s in h["seats"])  # hole cards hidden
    assert h["to_act"] == 3
    h = _act(dealer, hand, h["version"],
             {"type": "act", "seat": 3, "action": "call"},
             {"type": "act", "seat": 1, "action": "raise"},
             {"type": "act", "seat": 2, "action": "call"},
             {"type": "act", "seat": 3, "action": "call"},
             {"type": "deal", "cards": ["Ac", "5h", "9s"]},
             {"type": "act", "seat": 1, "action": "bet"},
             {"type": "act", "seat": 2, "action": "call"},
             {"type": "act", "seat": 3, "action": "fold"},
             {"type": "deal", "cards": ["Jd"]},
             {"type": "act", "seat": 1, "action": "bet"},
             {"type": "act", "seat": 2, "action": "call"},
             {"type": "deal", "cards": ["3c"]},
             {"type": "act", "seat": 1, "action": "bet"},
             {"type": "act", "seat": 2, "action": "call"})
    assert h["over"] is True
    stacks = {s.seat: s.stack_cents for s in Seat.objects.filter(table=table)}
    assert stacks == {1: 12_900, 2: 7_200, 3: 9_200}
    day = RakeDay.objects.get(table=table)
    assert (day.percentage_rake_cents, day.hands, day.rake_and_time_charges_cents) == (500, 1, 500)
    assert day.contributions == {"bad-beat": 100, "high-hand": 100}
    contributed = [e for e in h["events"] if e["type"] == "JackpotContributed"]
    assert [(e["data"]["fund"], e["data"]["pot"], e["data"]["amount_cents"])
            for e in contributed] == [("bad-beat", 0, 100), ("high-hand", 0, 100)]
    table.refresh_from_db()
    assert table.current_round_id is None


def _start(client, setup, **body) -> dict[str, Any]:
    table = setup["table"]
    _seat_three(client, table)
    r = client.post(f"/api/v1/poker-tables/{table.pk}/hands/",
                    {"deck_id": str(setup["decks"][0].pk), **body}, format="json")
    assert r.status_code == 201, r.json()
    return r.json()


def _one(client, hand: str, command: dict, version: int | None = None):
    return client.post(f"/api/v1/hands/{hand}/command/",
                       {"command": command, "expected_version": version}, format="json")


def test_seven_card_stud_hand_through_the_api(crew, poker_table: Callable,
                                              as_actor: Callable) -> None:
    """§ 637a.10(c)-(i), § 637a.17(b)(1). $4/$8 fixed limit, $1 ante, $2 Forced Bet, 10 %
    rake in $1 chips. Antes $3. Third street: seat 2 shows the lowest card (2d) and posts
    the $2 Forced Bet; seats 3 and 1 call: $9. Fourth street: all check. Fifth street (the
    big bet from here, 637a.10(g)): seat 1 shows a pair of nines and acts first, bets $8;
    seat 2 folds, seat 3 calls: $25. Sixth and seventh: checks. Seat 1's aces and nines
    beat seat 3's king high. Rake 10 % of $25 = $2.50, $2 in whole chips; seat 1 wins $23:
    $100 - $11 + $23 = $112, seat 2 $97, seat 3 $89."""
    setup = poker_table("stud-high")
    dealer = as_actor(crew["dealer"])
    h = _start(dealer, setup)
    hand = h["round_id"]
    assert [e["data"]["amounts"] for e in h["events"] if e["type"] == "AntesPosted"] == [
        [[1, 100], [2, 100], [3, 100]]]
    h = _act(dealer, hand, h["version"], {"type": "deal", "cards": {
        "1": ["As", "Ah", "9c"], "2": ["Ks", "Kh", "2d"], "3": ["7c", "8c", "5s"]}})
    # the Forced Bet is posted for seat 2 (the submission does not let it complete)
    assert [(e["data"]["seat"], e["data"]["amount"]) for e in h["events"]
            if e["type"] == "BringInPosted"] == [(2, 200)]
    assert h["to_act"] == 3
    assert h["seats"][0]["up"] == ["9c"] and h["seats"][0]["down"] == [None, None]
    check = [{"type": "act", "seat": s, "action": "check"} for s in (1, 2, 3)]
    h = _act(dealer, hand, h["version"],
             {"type": "act", "seat": 3, "action": "call"},
             {"type": "act", "seat": 1, "action": "call"},
             {"type": "deal", "cards": {"1": ["9d"], "2": ["3h"], "3": ["Jd"]}}, *check,
             {"type": "deal", "cards": {"1": ["2c"], "2": ["4h"], "3": ["Qh"]}},
             {"type": "act", "seat": 1, "action": "bet"},
             {"type": "act", "seat": 2, "action": "fold"},
             {"type": "act", "seat": 3, "action": "call"},
             {"type": "deal", "cards": {"1": ["3d"], "3": ["Kd"]}},
             {"type": "act", "seat": 1, "action": "check"},
             {"type": "act", "seat": 3, "action": "check"},
             {"type": "deal", "cards": {"1": ["4c"], "3": ["Th"]}},
             {"type": "act", "seat": 1, "action": "check"},
             {"type": "act", "seat": 3, "action": "check"})
    assert h["over"] is True
    assert {s.seat: s.stack_cents for s in Seat.objects.filter(table=setup["table"])} == {
        1: 11_200, 2: 9_700, 3: 8_900}
    assert RakeDay.objects.get(table=setup["table"]).rake_and_time_charges_cents == 200


@pytest.mark.regulation("637a.18(m)(1)")
def test_stud_last_card_exposed_through_the_api(crew, poker_table: Callable,
                                              as_actor: Callable) -> None:
    """§ 637a.18(m)(1): the hand above to sixth street ($25 in the pot, seats 1 and 3
    left); seat 3's last card, the Th, is turned face up and seat 3 stops betting: with
    one player left to bet there is no betting on seventh street and the hands are shown.
    Seat 1's aces and nines take the $25 less the $2 rake: $112, $97, $89 as before."""
    setup = poker_table("stud-high")
    dealer = as_actor(crew["dealer"])
    h = _start(dealer, setup)
    hand = h["round_id"]
    h = _act(dealer, hand, h["version"], {"type": "deal", "cards": {
        "1": ["As", "Ah", "9c"], "2": ["Ks", "Kh", "2d"], "3": ["7c", "8c", "5s"]}})
    check = [{"type": "act", "seat": s, "action": "check"} for s in (1, 2, 3)]
    h = _act(dealer, hand, h["version"],
             {"type": "act", "seat": 3, "action": "call"},
             {"type": "act", "seat": 1, "action": "call"},
             {"type": "deal", "cards": {"1": ["9d"], "2": ["3h"], "3": ["Jd"]}}, *check,
             {"type": "deal", "cards": {"1": ["2c"], "2": ["4h"], "3": ["Qh"]}},
             {"type": "act", "seat": 1, "action": "bet"},
             {"type": "act", "seat": 2, "action": "fold"},
             {"type": "act", "seat": 3, "action": "call"},
             {"type": "deal", "cards": {"1": ["3d"], "3": ["Kd"]}},
             {"type": "act", "seat": 1, "action": "check"},
             {"type": "act", "seat": 3, "action": "check"})
    r = dealer.post(f"/api/v1/hands/{hand}/commands/", {"commands": [
        {"type": "deal", "cards": {"1": ["4c"], "3": ["Th"]}, "exposed": {"3": ["Th"]},
         "exposure_choice": {"3": "pot_so_far"}}], "expected_version": h["version"]},
        format="json")
    assert r.status_code == 200, r.json()
    h = r.json()
    shown = next(e["data"] for e in h["events"] if e["type"] == "ThirdHoleCardExposed")
    assert (shown["seat"], shown["card"], shown["choice"]) == (3, "Th", "pot_so_far")
    assert not any(e["type"] == "BettingRoundStarted" for e in h["events"])
    assert h["over"] is True
    assert {s.seat: s.stack_cents for s in Seat.objects.filter(table=setup["table"])} == {
        1: 11_200, 2: 9_700, 3: 8_900}


def test_triple_draw_hand_through_the_api(crew, poker_table: Callable,
                                          as_actor: Callable) -> None:
    """§ 637a.20(c)-(k), § 637a.17(b)(1). 2-7 Triple Draw, $4/$8, blinds $2/$4. Button seat
    3; seat 3 calls, seat 1 completes, seat 2 checks: $12. First draw: seat 1 draws two,
    seat 2 stands pat, seat 3 draws one. Seat 1 bets $4, seat 2 calls, seat 3 folds: $20.
    Second draw: seat 2 draws one. Seat 1 bets $8 (the big bet), seat 2 calls: $36. Third
    draw: both pat; both check. 7-5-4-3-2 beats 8-6-4-3-2 (637a.20(k)(3)). Rake 10 % of
    $36 = $3.60, $3 in whole chips: seat 1 $100 - $16 + $33 = $117, seat 2 $84, seat 3
    $96."""
    setup = poker_table("triple-draw-27")
    dealer = as_actor(crew["dealer"])
    h = _start(dealer, setup)
    hand = h["round_id"]
    h = _act(dealer, hand, h["version"], {"type": "deal", "cards": {
        "1": ["2c", "3d", "4h", "Kc", "Ks"], "2": ["2d", "3h", "4s", "6c", "9d"],
        "3": ["Ac", "Ad", "Ah", "Qs", "Qd"]}})
    h = _act(dealer, hand, h["version"],
             {"type": "act", "seat": 3, "action": "call"},
             {"type": "act", "seat": 1, "action": "call"},
             {"type": "act", "seat": 2, "action": "check"},
             {"type": "draw", "seat": 1, "discard": ["Kc", "Ks"], "cards": ["5s", "7d"]},
             {"type": "draw", "seat": 2, "discard": [], "cards": []},
             {"type": "draw", "seat": 3, "discard": ["Qs"], "cards": ["Jh"]},
             {"type": "act", "seat": 1, "action": "bet"},
             {"type": "act", "seat": 2, "action": "call"},
             {"type": "act", "seat": 3, "action": "fold"},
             {"type": "draw", "seat": 1, "discard": [], "cards": []},
             {"type": "draw", "seat": 2, "discard": ["9d"], "cards": ["8h"]},
             {"type": "act", "seat": 1, "action": "bet"},
             {"type": "act", "seat": 2, "action": "call"},
             {"type": "draw", "seat": 1, "discard": [], "cards": []},
             {"type": "draw", "seat": 2, "discard": [], "cards": []},
             {"type": "act", "seat": 1, "action": "check"},
             {"type": "act", "seat": 2, "action": "check"})
    assert h["over"] is True
    assert {s.seat: s.stack_cents for s in Seat.objects.filter(table=setup["table"])} == {
        1: 11_700, 2: 8_400, 3: 9_600}
    assert RakeDay.objects.get(table=setup["table"]).percentage_rake_cents == 300


def _event_count() -> int:
    from casino.models import Event

    return Event.objects.count()


def test_bad_dealer_input_is_refused_with_a_code_and_nothing_appended(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """§ 637a.8(c): only the player whose turn it is; § 637a.8(k) the posted limits and
    raise cap; § 637a.18(i)-(j) cards not in the deck or already out."""
    setup = poker_table("holdem", structure="no-limit", small_bet_cents=None,
                        big_bet_cents=None, max_raises_per_round=2)
    dealer = as_actor(crew["dealer"])
    h = _start(dealer, setup)
    hand, v = h["round_id"], h["version"]
    before = _event_count()
    cases = [
        ({"type": "deal", "cards": {"1": ["As", "As"], "2": ["Ks", "Kd"], "3": ["2c", "7d"]}},
         "card_already_dealt"),
        ({"type": "deal", "cards": {"1": ["As", "Zz"], "2": ["Ks", "Kd"], "3": ["2c", "7d"]}},
         "card_not_in_deck"),
        ({"type": "act", "seat": 3, "action": "call"}, "invalid_action"),  # cards first
    ]
    for command, code in cases:
        r = _one(dealer, hand, command, v)
        assert (r.status_code, r.json()["code"]) in ((400, code), (409, code)), r.json()
    assert _event_count() == before
    h = _one(dealer, hand, {"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"],
                                                      "3": ["2c", "7d"]}}, v).json()
    before = _event_count()
    cases = [
        ({"type": "act", "seat": 1, "action": "call"}, 409, "not_your_turn"),
        ({"type": "act", "seat": 3, "action": "raise", "amount": 500}, 400,
         "bet_below_minimum"),  # a raise to $5 over the $4 big blind: less than a full raise
        ({"type": "act", "seat": 3, "action": "raise", "amount": 10_001}, 400,
         "bet_above_limit"),  # more than the table stakes
    ]
    for command, status, code in cases:
        r = _one(dealer, hand, command, h["version"])
        assert (r.status_code, r.json()["code"]) == (status, code), r.json()
    r = _one(dealer, hand, {"type": "act", "seat": 3, "action": "call"}, h["version"] - 1)
    assert (r.status_code, r.json()["code"]) == (409, "stale_hand_version")
    assert _event_count() == before
    # the raise cap (two raises after the opening bet, 637a.8(k))
    h = _act(dealer, hand, h["version"], {"type": "act", "seat": 3, "action": "raise",
                                          "amount": 800},
             {"type": "act", "seat": 1, "action": "raise", "amount": 1_600})
    r = _one(dealer, hand, {"type": "act", "seat": 2, "action": "raise", "amount": 3_200},
             h["version"])
    assert r.json()["code"] == "raise_cap_reached", r.json()
    assert _event_count() == before + 2


def test_bad_seating_is_refused_with_a_code_and_nothing_appended(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """§ 637a.8(a)-(b): a seat taken twice, a player at two seats, a buy-in above the
    posted maximum ($400 in the example submission), chips added during a hand."""
    setup = poker_table("holdem")
    table = setup["table"]
    dealer = as_actor(crew["dealer"])
    url = f"/api/v1/poker-tables/{table.pk}/seats/"
    alice = {"name": "Alice Example", "phone": "555-0100"}
    assert dealer.post(url + "take/", {"seat": 1, "buy_in_cents": 10_000, "paid_with": "chips",
                       "player": alice},
                       format="json").status_code == 201
    assert dealer.post(url + "take/", {"seat": 2, "buy_in_cents": 10_000, "paid_with": "chips"},
                       format="json").status_code == 201
    before = _event_count()
    cases = [
        ({"seat": 1, "buy_in_cents": 10_000, "paid_with": "chips"}, "seat_taken"),
        ({"seat": 3, "buy_in_cents": 10_000, "paid_with": "chips", "player": alice},
         "player_already_seated"),
        ({"seat": 3, "buy_in_cents": 40_100, "paid_with": "chips"}, "buy_in_above_maximum"),
        ({"seat": 3, "buy_in_cents": 3_900, "paid_with": "chips"}, "buy_in_below_minimum"),
        ({"seat": 11, "buy_in_cents": 10_000, "paid_with": "chips"}, "invalid_seat"),
        ({"seat": 3, "buy_in_cents": 10_050, "paid_with": "chips"}, "not_whole_chips"),
    ]
    for body, code in cases:
        r = dealer.post(url + "take/", body, format="json")
        assert r.status_code in (400, 409) and r.json()["code"] == code, (body, r.json())
    r = dealer.post(url + "chips/", {"seat": 1, "amount_cents": 30_100, "paid_with": "chips"},
                    format="json")
    assert r.json()["code"] == "buy_in_above_maximum"
    assert _event_count() == before
    r = dealer.post(f"/api/v1/poker-tables/{table.pk}/hands/",
                    {"deck_id": str(setup["decks"][0].pk)}, format="json")
    assert r.status_code == 201
    r = dealer.post(url + "chips/", {"seat": 1, "amount_cents": 1_000, "paid_with": "chips"},
                    format="json")
    assert (r.status_code, r.json()["code"]) == (409, "chips_mid_hand")
    r = dealer.post(url + "leave/", {"seat": 2}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "seat_in_hand")


def test_kill_carried_to_the_next_hand(crew, poker_table: Callable, as_actor: Callable
                                       ) -> None:
    """§ 637a.12(n), § 637a.1 "Kill option": one player wins an entire qualifying pot, so
    the next hand is played at twice the posted limits. Omaha High-low, $4/$8, qualifying
    pot $10. Everyone calls $4 and checks down: $12, rake $1 (10 % in $1 chips), a Pot of
    $11 (637a.1: after the rake). No low qualifies (no player holds two cards of eight or
    lower besides the board's), so seat 1's three aces take it all: the Kill is on for
    the next hand, whose bets are $8/$16: the blinds stay as posted ($2, $4), the call is
    $4 and a raise goes to $4 + $8 = $12."""
    setup = poker_table("omaha-hilo8", kill={"option": "kill", "qualifying_pot_cents": 1_000})
    dealer = as_actor(crew["dealer"])
    h = _start(dealer, setup)
    hand = h["round_id"]
    checks = [{"type": "act", "seat": s, "action": "check"} for s in (1, 2, 3)]
    h = _act(dealer, hand, h["version"],
             {"type": "deal", "cards": {"1": ["As", "Ks", "Ah", "Kh"],
                                        "2": ["9c", "9d", "Tc", "Td"],
                                        "3": ["Qc", "Qd", "Jc", "Jd"]}},
             {"type": "act", "seat": 3, "action": "call"},
             {"type": "act", "seat": 1, "action": "call"},
             {"type": "act", "seat": 2, "action": "check"},
             {"type": "deal", "cards": ["Ad", "Kd", "9h"]}, *checks,
             {"type": "deal", "cards": ["2c"]}, *checks,
             {"type": "deal", "cards": ["3c"]}, *checks)
    assert h["over"] and h["result"]["kill_next"] is True
    table = setup["table"]
    assert table.poker.__class__.objects.get(pk=table.pk).kill_active is True
    r = dealer.post(f"/api/v1/poker-tables/{table.pk}/hands/",
                    {"deck_id": str(setup["decks"][1].pk)}, format="json")
    assert r.status_code == 201, r.json()
    second = r.json()
    assert second["kill_active"] is True
    started = next(e for e in second["events"] if e["type"] == "HandStarted")["data"]
    assert started["kill_active"] is True and started["button"] == 1  # the button moved
    second = _act(dealer, second["round_id"], second["version"],
                  {"type": "deal", "cards": {"1": ["2s", "3s", "4s", "5s"],
                                             "2": ["2h", "3h", "4h", "5h"],
                                             "3": ["2d", "3d", "4d", "5d"]}})
    assert (second["legal_actions"]["call"], second["legal_actions"]["min_to"]) == (400, 1_200)


@pytest.mark.regulation("637a.18(g)(2)")
def test_misdeal_returns_the_bets_and_a_floor_ruling_is_recorded(
        crew, poker_table: Callable, as_actor: Callable, staff) -> None:
    """§ 637a.18(g)(2): dealing to an incorrect starting position, found before two players
    put money in voluntarily, is a misdeal: the cards are reshuffled and the blinds go
    back. § 637a.18(a): the floor's ruling is recorded with the hand. The event log shows
    no hole card to an auditor while the hand is in progress."""
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    h = _start(dealer, setup)
    hand = h["round_id"]
    h = _act(dealer, hand, h["version"], {"type": "deal", "cards": {
        "1": ["As", "Ad"], "2": ["Ks", "Kd"], "3": ["2c", "7d"]}})
    auditor = as_actor(staff("compliance"))
    log = auditor.get(f"/api/v1/streams/round-{hand}/events/").json()
    dealt = next(e for e in log["results"] if e["type"] == "CardsDealt")
    assert dealt["data"]["cards"] == [[1, [None, None]], [2, [None, None]], [3, [None, None]]]
    floor = as_actor(crew["floor"])
    r = floor.post(f"/api/v1/hands/{hand}/ruling/",
                   {"ruling": "Cards pitched from the wrong seat: misdeal."}, format="json")
    assert r.status_code == 200, r.json()
    h = _act(dealer, hand, r.json()["version"],
             {"type": "misdeal", "reason": "wrong_starting_position"})
    assert h["over"] is True
    assert {s.seat: s.stack_cents for s in Seat.objects.filter(table=setup["table"])} == {
        1: 10_000, 2: 10_000, 3: 10_000}
    assert RakeDay.objects.filter(table=setup["table"], hands__gt=0).count() == 0
    log = auditor.get(f"/api/v1/streams/round-{hand}/events/").json()
    dealt = next(e for e in log["results"] if e["type"] == "CardsDealt")
    # every card once the hand is over, as recorded: As = 12 * 4 + 3, Ad = 12 * 4 + 1
    assert dealt["data"]["cards"][0] == [1, [51, 49]]
    assert [e["type"] for e in log["results"]].count("FloorRuling") == 1


@pytest.mark.regulation("637a.15(b)(3)")
def test_bad_beat_judged_at_showdown_and_recorded(crew, poker_table: Callable,
                                                  as_actor: Callable) -> None:
    """§ 637a.15(b)(3)-(4), § 637a.15(f)(1). The example submission's Bad Beat: four of a
    kind of eights or better beaten, both hole cards playing, four players dealt in, a pot
    of $20. Seat 1 (8s 8h) makes four eights on 8c 8d Ks; seat 2 (As Ts) makes a royal
    flush on the Qs Js. Seats 3 and 4 fold. Pot $72: rake $5 (the cap), $1 to each fund;
    seat 2 wins $65: $100 - $36 + $65 = $129; seat 1 $64."""
    setup = poker_table("holdem")
    table = setup["table"]
    dealer = as_actor(crew["dealer"])
    for seat in (1, 2, 3, 4):
        dealer.post(f"/api/v1/poker-tables/{table.pk}/seats/take/",
                    {"seat": seat, "buy_in_cents": 10_000, "paid_with": "chips"}, format="json")
    h = dealer.post(f"/api/v1/poker-tables/{table.pk}/hands/",
                    {"deck_id": str(setup["decks"][0].pk)}, format="json").json()
    a = lambda seat, action: {"type": "act", "seat": seat, "action": action}  # noqa: E731
    h = _act(dealer, h["round_id"], h["version"],
             {"type": "deal", "cards": {"1": ["8s", "8h"], "2": ["As", "Ts"],
                                        "3": ["2c", "7d"], "4": ["3c", "9d"]}},
             a(3, "fold"), a(4, "fold"), a(1, "call"), a(2, "check"),
             {"type": "deal", "cards": ["8c", "8d", "Ks"]},
             a(1, "bet"), a(2, "raise"), a(1, "call"),
             {"type": "deal", "cards": ["Qs"]}, a(1, "bet"), a(2, "call"),
             {"type": "deal", "cards": ["Js"]}, a(1, "bet"), a(2, "raise"), a(1, "call"))
    assert h["over"]
    judged = [e["data"] for e in h["events"] if e["type"] == "BadBeatQualified"]
    assert len(judged) == 1
    assert (judged[0]["losing_seat"], judged[0]["winning_seat"], judged[0]["pot_cents"],
            judged[0]["fund"]) == (1, 2, 7_200, "bad-beat")
    assert judged[0]["players_dealt"] == [1, 2, 3, 4]
    assert {s.seat: s.stack_cents for s in Seat.objects.filter(table=table)} == {
        1: 6_400, 2: 12_900, 3: 10_000, 4: 10_000}


def test_a_hand_deals_only_through_the_gate(crew, poker_table: Callable, as_actor: Callable
                                            ) -> None:
    """§ 637a.3(a): the two decks alternate hand by hand, and a table keeps two in play;
    § 637a.8(a): only seated players are dealt in; a closed table deals nothing."""
    from tables.services import tables as table_services

    setup = poker_table("holdem")
    table, (red, blue) = setup["table"], setup["decks"]
    dealer = as_actor(crew["dealer"])
    url = f"/api/v1/poker-tables/{table.pk}/hands/"
    r = dealer.post(url, {"deck_id": str(red.pk)}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "too_few_players")
    _seat_three(dealer, table)
    h = dealer.post(url, {"deck_id": str(red.pk)}, format="json").json()
    r = dealer.post(url, {"deck_id": str(blue.pk)}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "hand_in_progress")
    _act(dealer, h["round_id"], h["version"], {"type": "misdeal",
                                               "reason": "not_shuffled_or_cut"})
    r = dealer.post(url, {"deck_id": str(red.pk)}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "wrong_deck")
    second = dealer.post(url, {"deck_id": str(blue.pk)}, format="json").json()
    r = dealer.post(f"/api/v1/hands/{h['round_id']}/command/",
                    {"command": {"type": "act", "seat": 1, "action": "fold"}}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "hand_closed")
    _act(dealer, second["round_id"], second["version"], {"type": "misdeal",
                                                         "reason": "not_shuffled_or_cut"})
    table_services.table_close(actor=crew["floor"], table_id=table.pk)
    r = dealer.post(url, {"deck_id": str(red.pk)}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "table_closed")


def test_a_hand_started_without_a_deck_is_dealt_with_the_deck_due(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """§ 637a.3(a): the two decks alternate hand by hand, so a terminal need not name the
    deck: the one not used last deals; with the pair gone, 409 ``no_deck_in_play``."""
    from tables.models import Round
    from tables.services import decks as deck_services

    setup = poker_table("holdem")
    table, (red, blue) = setup["table"], setup["decks"]
    dealer = as_actor(crew["dealer"])
    _seat_three(dealer, table)
    url = f"/api/v1/poker-tables/{table.pk}/hands/"
    dealt_with = []
    for _ in range(3):
        r = dealer.post(url, {}, format="json")
        assert r.status_code == 201, r.json()
        h = r.json()
        dealt_with.append(Round.objects.get(pk=h["round_id"]).deck_id)
        _act(dealer, h["round_id"], h["version"], {"type": "misdeal",
                                                   "reason": "not_shuffled_or_cut"})
    assert dealt_with[0] in (red.pk, blue.pk)
    assert dealt_with[1] == ({red.pk, blue.pk} - {dealt_with[0]}).pop()
    assert dealt_with[2] == dealt_with[0]
    for deck in (red, blue):
        deck_services.deck_remove(actor=crew["floor"], deck_id=deck.pk, reason="time-limit")
    before = Round.objects.filter(table=table).count()
    r = dealer.post(url, {}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "no_deck_in_play")
    assert Round.objects.filter(table=table).count() == before


def test_server_shuffle_deals_and_the_order_is_never_shown(crew, poker_table: Callable,
                                                           as_actor: Callable) -> None:
    """§ 637a.5(a): a shuffle that randomly intermixes the cards (the server's CSPRNG); the
    engine deals from it and the terminal never sees the order or a hole card."""
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    h = _start(dealer, setup, shuffle=True)
    started = next(e for e in h["events"] if e["type"] == "HandStarted")["data"]
    assert started["deck"] == "recorded"
    dealt = next(e for e in h["events"] if e["type"] == "CardsDealt")["data"]
    assert dealt["cards"] == [[1, [None, None]], [2, [None, None]], [3, [None, None]]]
    assert h["to_act"] == 3


@pytest.mark.parametrize("low_recipient,stacks", [
    (None, {1: 9_800, 2: 9_900, 3: 10_200}),
    ("first-left-of-button", {1: 9_900, 2: 9_800, 3: 10_200})])
def test_omaha_high_low_odd_chip_of_the_low_share_as_the_submission_names(
        crew, poker_table: Callable, as_actor: Callable, low_recipient, stacks) -> None:
    """§ 637a.12(k)(2)(i)-(iii), § 637a.17(b)(1). $4/$8 Omaha High-low, $1 chips. Everyone
    puts $4 in and checks down: $12, rake $1, $11 to split. Seat 3's ace-high flush takes
    the high half with the odd chip ($6, 637a.12(k)(2)(i)); seats 1 and 2 tie for the low
    with 5-4-3-2-A and share $5: $2 each and the odd $1 to the player the submission
    names for the low share — by suit, the lowest low card (Ad below As: seat 2), or the
    first tied player left of the button (seat 1)."""
    changes = {"odd_chip_recipient_low": low_recipient} if low_recipient else {}
    setup = poker_table("omaha-hilo8", **changes)
    dealer = as_actor(crew["dealer"])
    h = _start(dealer, setup)
    checks = [{"type": "act", "seat": s, "action": "check"} for s in (1, 2, 3)]
    h = _act(dealer, h["round_id"], h["version"],
             {"type": "deal", "cards": {"1": ["As", "4h", "Js", "Jd"],
                                        "2": ["Ad", "4s", "Td", "Tc"],
                                        "3": ["Ac", "Qc", "Jh", "Th"]}},
             {"type": "act", "seat": 3, "action": "call"},
             {"type": "act", "seat": 1, "action": "call"},
             {"type": "act", "seat": 2, "action": "check"},
             {"type": "deal", "cards": ["2c", "5c", "9h"]}, *checks,
             {"type": "deal", "cards": ["Kc"]}, *checks,
             {"type": "deal", "cards": ["3d"]}, *checks)
    assert h["over"] and h["result"]["rake_cents"] == 100
    assert {s.seat: s.stack_cents for s in Seat.objects.filter(table=setup["table"])} == stacks


@pytest.mark.regulation("637a.18(a)")
def test_the_poker_shift_supervisors_ruling_is_recorded_with_the_hand(
        crew, poker_table: Callable, as_actor: Callable, staff) -> None:
    """§ 637a.18(a): a dispute's ruling is the Poker shift supervisor's. The supervisor's
    ruling goes into the hand's own stream under the supervisor's login and role, and the
    hand's history, which whoever settles a dispute reads, says it in words. A dealer may
    not rule (403 role_required), and an empty ruling is refused by name: nothing
    appended."""
    from casino.eventstore.models import Event

    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    h = _start(dealer, setup)
    hand = h["round_id"]
    _act(dealer, hand, h["version"], {"type": "deal", "cards": {
        "1": ["As", "Ad"], "2": ["Ks", "Kd"], "3": ["2c", "7d"]}})
    url = f"/api/v1/hands/{hand}/ruling/"
    ruling = "Seat 3 acted out of turn; his call stands as said."
    supervisor = staff("poker_shift_supervisor")
    before = Event.objects.count()
    r = dealer.post(url, {"ruling": ruling}, format="json")
    assert (r.status_code, r.json()["code"]) == (403, "role_required")
    r = as_actor(supervisor).post(url, {"ruling": "  "}, format="json")
    assert r.status_code == 400 and "ruling" in str(r.json()), r.json()
    assert Event.objects.count() == before
    r = as_actor(supervisor).post(url, {"ruling": ruling}, format="json")
    assert r.status_code == 200, r.json()
    recorded = Event.objects.get(type="FloorRuling", stream_id=f"round-{hand}")
    assert recorded.data == {"ruling": ruling}
    assert (recorded.metadata["actor"], recorded.metadata["role"]) == (
        supervisor.username, "poker_shift_supervisor")
    steps = as_actor(crew["floor"]).get(f"/api/v1/hands/{hand}/history/steps/").json()
    assert f"Floor ruling: {ruling}" in [s["text"] for s in steps["steps"]]
