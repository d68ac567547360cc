"""The poker shift supervisor's main task end to end in Chromium, through the console's
pages only (issue 23, "Done when"): seat a player with a cash buy-in from the poker room
floor, verify a Bad Beat hit from "Waiting for me", and the cage pays it with the payees.

Only the set-up goes through the services: the property, its crew and table, the decks,
the other three players (chips from the cage) and the dealing of the Bad Beat hand (the
dealer terminal's API, as tests/jackpots/_hands.py deals it). Every step a person takes
is a page: the login form, the floor, "Waiting for me", the command's form. The events
the pages appended are then compared with the same steps taken through the API by other
people on a second hand (and a second table for the seat): the same types, amounts, seats,
people's roles.

Rules: § 637a.8(a), (b)(1) (a seat and its buy-in; cash at the table is a chip sale),
§ 637a.15(f) (the poker shift supervisor verifies a Bad Beat hand), § 637a.15(g) (paid
by the posted shares against each player's identification, never by who verified)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from casino.actors import actor_of
from casino.eventstore import projections
from casino.personal_data import unseal
from jackpots.models import BadBeatHit
from poker_room.services import seats
from tables.services import tables
from tests.console.conftest import console_page  # noqa: F401  (a Chromium page, logged in)
from tests.e2e._console import (
    VIEWPORT,
    Visited,
    events_since,
    mark,
    messages,
    open_waiting_item,
    shot,
    submit,
)
from tests.jackpots._hands import play_bad_beat
from tests.poker_room._committed import poker_room
from tests.poker_room._play import poker_table_ready

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

#: § 637a.15(g): each share against the player's identification
PAYEES = [(1, "Ann Lee", "PA DL 1111"), (2, "Bo Kim", "PA DL 2222"),
          (3, "Cy Ray", "Passport 3333"), (4, "Di Fox", "NJ DL 4444")]


def _api(who: Any) -> APIClient:
    """An API client as ``who`` (a user or an Actor)."""
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(
        pk=getattr(who, "user_id", None) or who.pk))
    return client


def _seat_others(table: Any, dealer: Any) -> None:
    for n in (2, 3, 4):
        seats.seat_player(actor=dealer, table_id=table.pk, seat=n, buy_in_cents=10_000,
                          paid_with="chips")


def caught_up(done: Any) -> None:
    """Catch the jackpot follower up until ``done()``: it reads only settled events, and
    a transaction in flight anywhere on the database server holds them back a moment
    (as tests/jackpots/test_board_browser.py waits) — on a busy server, long enough that
    the wait is never what fails the test: it fails here, saying so."""
    deadline = time.monotonic() + 90
    while True:
        projections.catch_up("jackpot_funds")
        if done():
            return
        assert time.monotonic() < deadline, "the jackpot follower did not catch up in 90 s"
        time.sleep(0.1)


def _deal_bad_beat(table: Any, dealer: Any) -> str:
    """The set-up: a hand in which four eights lose to a royal flush (637a.15(b)(3)),
    dealt through the dealer terminal's API; the jackpot follower catches up."""
    hand = play_bad_beat(_api(dealer), table)["round_id"]
    caught_up(lambda: BadBeatHit.objects.filter(hand_id=hand).exists())
    return hand


def _shape(events: list[Any], *, people: dict[str, str]) -> list[tuple]:
    """What a step recorded, as the two paths must agree on it: each event's stream kind,
    type, its data without ids and times (amounts, seats, payees), the role it was
    recorded under and who (by their part in the story, not their username)."""
    volatile = {"hand_id", "round_id", "table_id", "table", "sale_id", "at", "recorded_at",
                "decided_at", "paid_at", "verified_at", "id", "hit_id", "table_name",
                # personal details sealed under a key of their own (casino.personal_data)
                "sealed", "subject"}

    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: clean(v) for k, v in sorted(value.items()) if k not in volatile}
        if isinstance(value, list):
            return [clean(v) for v in value]
        if isinstance(value, str) and value in people:
            return people[value]
        return value

    return [(e.stream_type, e.type, clean(e.data), e.metadata.get("role"),
             people.get(e.metadata.get("actor") or e.metadata.get("user") or "", "?"))
            for e in events]


def test_the_supervisor_seats_a_cash_buy_in_verifies_a_bad_beat_and_the_cage_pays(
        console_page) -> None:  # noqa: F811
    people, table = poker_room("PA-TEST-1", "fl", table_name="P-1")
    poker_table_ready(table, people, players=0)  # two decks in play, nobody seated
    visited = Visited()

    # --- the supervisor seats seat 1 from the floor, a cash buy-in of $100 (637a.8(b)(1))
    sup = console_page("poker_shift_supervisor", username="sam-supervisor")
    sup.set_viewport_size(VIEWPORT)
    visited.check(sup, "home (supervisor)")
    sup.get_by_role("link", name="Poker floor").click()
    sup.wait_for_url("**/console/poker/")
    visited.check(sup, "poker floor")
    shot(sup, "floor-poker-floor")
    before = mark()
    sup.get_by_role("link", name="Seat a player: seat 1 at P-1").click()
    sup.wait_for_selector("form.command-form")
    sup.select_option("#f-paid_with", "cash")  # cash at the table, chosen in the form
    sup.fill("#f-buy_in_cents", "100.00")
    visited.check(sup, "seat form")
    shot(sup, "floor-seat-cash-buy-in")
    submit(sup)
    assert "Recorded: Seat the player" in messages(sup)
    seated = events_since(before)

    # --- the set-up: three more players with chips, the Bad Beat hand dealt
    _seat_others(table, people["dealer"])
    hand = _deal_bad_beat(table, people["dealer"])

    # --- the supervisor finds it on "Waiting for me" and verifies it (637a.15(f))
    sup.goto(sup.server + "/console/")
    hits = sup.locator("section#jackpots_bad_beats_to_verify")
    hits.get_by_text("four of a kind").first.wait_for()  # the home shows it
    visited.check(sup, "home with a Bad Beat to verify")
    shot(sup, "floor-bad-beat-to-verify")
    before = mark()
    open_waiting_item(sup, "jackpots_bad_beats_to_verify", "Verify the hand")
    assert sup.input_value("#f-hand_id") == hand
    visited.check(sup, "Bad Beat verify form")
    shot(sup, "floor-bad-beat-verify")
    submit(sup)
    assert "Recorded: Verify the Bad Beat" in messages(sup)
    verified = events_since(before)
    caught_up(lambda: BadBeatHit.objects.filter(hand_id=hand, state="verified").exists())

    # --- the cashier, in a new browser context, pays it with the payees (637a.15(g))
    cash = console_page("cashier", username="cara-cashier")
    cash.set_viewport_size(VIEWPORT)
    section = cash.locator("section#jackpots_bad_beats_to_pay")
    section.get_by_text("First step by sam-supervisor").wait_for()
    visited.check(cash, "home (cashier) with a Bad Beat to pay")
    shot(cash, "floor-bad-beat-to-pay")
    open_waiting_item(cash, "jackpots_bad_beats_to_pay", "Pay the Bad Beat")
    for _ in PAYEES[1:]:  # one row is there; one more per player
        with cash.expect_navigation():
            cash.get_by_role("button", name="Add a row to payees").click()
    for i, (seat, name, ident) in enumerate(PAYEES):
        cash.fill(f"#f-payees-{i}-seat", str(seat))
        cash.fill(f"#f-payees-{i}-name", name)
        cash.fill(f"#f-payees-{i}-identification", ident)
    cash.select_option("#f-where", "cage")
    visited.check(cash, "Bad Beat pay form")
    shot(cash, "floor-bad-beat-pay")
    before = mark()
    submit(cash)
    assert "Recorded: Pay the Bad Beat" in messages(cash)
    paid = events_since(before)
    caught_up(lambda: BadBeatHit.objects.filter(hand_id=hand, state="paid").exists())
    assert BadBeatHit.objects.get(hand_id=hand).state == "paid"
    # an item disappears for everyone once it is done
    cash.reload()
    assert cash.locator("section#jackpots_bad_beats_to_pay .waiting-item").count() == 0
    assert visited.problems == {}, visited.problems

    # --- the same steps through the API by other people: a second table's cash seat,
    # a second Bad Beat hand at P-1 (its own $1 contribution: the same $1 payout)
    sup2 = actor_of(console_page.staff("poker_shift_supervisor", username="sid-supervisor"))
    cash2 = console_page.staff("cashier", username="cy-cashier")
    t2 = tables.table_configure(actor=people["admin"], name="P-2", game="holdem",
                                positions=10, dealing_method="hand", shuffler="automated")
    tables.table_assign_dealer(actor=people["floor"], table_id=t2.pk,
                               dealer=people["dealer"].username)
    tables.table_open(actor=people["floor"], table_id=t2.pk)
    before = mark()
    r = _api(sup2).post(
        f"/api/v1/poker-tables/{t2.pk}/seats/take/",
        {"seat": 1, "buy_in_cents": 10_000, "paid_with": "cash"}, format="json")
    assert r.status_code == 201, r.json()
    seated_api = events_since(before)
    hand2 = _deal_bad_beat(table, people["dealer"])
    sup_api = _api(sup2)
    before = mark()
    r = sup_api.post("/api/v1/jackpot-funds/bad-beat/bad-beats/verify/", {"hand_id": hand2},
                     format="json")
    assert r.status_code == 200, r.json()
    verified_api = events_since(before)
    before = mark()
    r = _api(cash2).post("/api/v1/jackpot-funds/bad-beat/bad-beats/pay/", {
        "hand_id": hand2, "where": "cage",
        "payees": [{"seat": s, "name": n, "identification": i} for s, n, i in PAYEES]},
        format="json")
    assert r.status_code == 200, r.json()
    paid_api = events_since(before)

    pages_people = {"sam-supervisor": "supervisor", "cara-cashier": "cashier"}
    api_people = {"sid-supervisor": "supervisor", "cy-cashier": "cashier"}
    assert _shape(seated, people=pages_people) == _shape(seated_api, people=api_people)
    assert _shape(verified, people=pages_people) == _shape(verified_api, people=api_people)
    assert _shape(paid, people=pages_people) == _shape(paid_api, people=api_people)
    # and, worked by hand: the seat and its chip sale (637a.8(b)(1): $100 cash at the
    # table); the verification and the payment (637a.15(f)-(g): the fund's $1, this
    # hand's own contribution, split 50/25/25, the odd cent to the losing hand; seats 3
    # and 4 share the table share's 25 cents)
    shares = [(1, 51, "losing_hand"), (2, 25, "winning_hand"), (3, 12, "table_share"),
              (4, 12, "table_share")]
    assert [(e.type, e.data) for e in seated] == [
        ("PlayerSeated", {"seat": 1, "player": None, "paid_with": "cash",
                          "buy_in_cents": 10_000}),
        ("ChipsSold", {"seat": 1, "paid_for": "buy_in", "amount_cents": 10_000})]
    assert [(e.type, e.data["amount_cents"],
             [(x["seat"], x["cents"], x["share"]) for x in e.data["shares"]],
             e.metadata["actor"], e.metadata["role"]) for e in verified] == [
        ("BadBeatVerified", 100, shares, "sam-supervisor", "poker_shift_supervisor")]
    assert [(e.type, e.data["amount_cents"], e.data["where"],
             [(x["seat"], x["cents"], x["share"]) for x in e.data["payees"]],
             [(x["name"], x["identification"])
              for x in unseal(e.data["identified"])["payees"]],
             e.metadata["actor"], e.metadata["role"]) for e in paid] == [
        ("BadBeatPaid", 100, "cage", shares, [(n, i) for _, n, i in PAYEES],
         "cara-cashier", "cashier")]
