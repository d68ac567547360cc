"""The jackpot box registered on a poker table (§ 637a.2(e)), through the API, against the
real database and event store: who registers and removes it, what it confirms, and what a
hand at a table with and without a fund's box pays into the fund."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from casino.eventstore.models import Event
from casino.eventstore.store import read_stream
from console.history import sentence
from poker_room.models import PokerTable
from tests.console.conftest import console_client  # noqa: F401  (the signed-in client)
from tests.jackpots._hands import HOLE, _send, play_bad_beat, play_hand, seat_four, seat_three

pytestmark = pytest.mark.django_db

REASON = "no jackpot box registered at this table (637a.2(e))"
CONFIRMED = {"transparent": True, "locked": True, "beside_drop_box": True}


def _url(table: Any, step: str) -> str:
    return f"/api/v1/poker-tables/{table.pk}/jackpot-boxes/{step}/"


def _types(table: Any) -> list[str]:
    return [e.type for e in read_stream(f"poker_table-{table.pk}")]


def _stack(answer: dict[str, Any], seat: int) -> int:
    return next(s["stack_cents"] for s in answer["seats"] if s["seat"] == seat)


@pytest.mark.regulation("637a.2(e)")
def test_the_floor_registers_a_box_confirming_what_the_chapter_requires(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """§ 637a.2(e): a floorperson registers box B-7 for the Bad Beat fund, confirming it
    transparent, locked and on the drop box's side: the event records the three and the
    table's boxes; the table's row shows the box. A dealer may not; a box not confirmed
    locked, a fund the rules do not pay into, a second box for the fund: each its code,
    nothing appended."""
    table = poker_table("holdem", jackpot_boxes=False)["table"]
    floor, dealer = as_actor(crew["floor"]), as_actor(crew["dealer"])
    before = _types(table)
    refusals = [
        (dealer, {"fund": "bad-beat", "box": "B-7", **CONFIRMED}, 403, "role_required"),
        (floor, {"fund": "bad-beat", "box": "B-7", **CONFIRMED, "locked": False}, 400,
         "jackpot_box_not_locked"),
        (floor, {"fund": "bad-beat", "box": "B-7", "transparent": True, "locked": True},
         400, "jackpot_box_not_beside_drop_box"),
        (floor, {"fund": "progressive", "box": "B-7", **CONFIRMED}, 409,
         "fund_not_offered"),
    ]
    for client, body, status, code in refusals:
        r = client.post(_url(table, "register"), body, format="json")
        assert (r.status_code, r.json()["code"]) == (status, code)
    assert _types(table) == before
    r = floor.post(_url(table, "register"), {"fund": "bad-beat", "box": "B-7", **CONFIRMED},
                   format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["jackpot_boxes"] == {"bad-beat": {"box": "B-7", "kind": "bad_beat"}}
    event = read_stream(f"poker_table-{table.pk}")[-1]
    assert event.type == "JackpotBoxRegistered"
    assert {k: event.data[k] for k in ("fund", "box", "transparent", "locked",
                                       "beside_drop_box")} == {
        "fund": "bad-beat", "box": "B-7", "transparent": True, "locked": True,
        "beside_drop_box": True}
    assert PokerTable.objects.get(pk=table.pk).jackpot_boxes == {
        "bad-beat": {"box": "B-7", "kind": "bad_beat"}}
    r = floor.post(_url(table, "register"), {"fund": "bad-beat", "box": "B-9", **CONFIRMED},
                   format="json")
    assert (r.status_code, r.json()["code"]) == (409, "jackpot_box_already_registered")
    assert _types(table)[-1] == "JackpotBoxRegistered" and len(_types(table)) == \
        len(before) + 1


@pytest.mark.regulation("637a.2(e)")
def test_a_hand_pays_only_into_the_funds_whose_box_is_on_the_table(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """§ 637a.2(e), § 637a.15(c), § 637a.16(c): the example hand (tests/jackpots/_hands.py):
    three players put $8 each, a $24 pot; rake 10 % = $2.40, $2 in $1 chips; $22 left.
    Only the Bad Beat box is on the table: $1 to the Bad Beat fund, nothing to the High
    Hand fund, so seat 1 (aces) wins $21: $100 - $8 + $21 = $113. The hand's record
    names the withheld fund with the reason."""
    table = poker_table("holdem", jackpot_boxes=False)["table"]
    floor, dealer = as_actor(crew["floor"]), as_actor(crew["dealer"])
    r = floor.post(_url(table, "register"), {"fund": "bad-beat", "box": "B-7", **CONFIRMED},
                   format="json")
    assert r.status_code == 201, r.json()
    seat_three(dealer, table)
    h = play_hand(dealer, table)
    assert _stack(h, 1) == 11_300
    paid = [(e.data["fund"], e.data["amount_cents"])
            for e in Event.objects.filter(type="JackpotContributed")]
    assert paid == [("bad-beat", 100)]
    dealt = next(e for e in read_stream(f"poker_table-{table.pk}")
                 if e.type == "HandDealtAtTable")
    assert dealt.data["jackpots_withheld"] == [
        {"fund": "high-hand", "kind": "high_hand", "cents": 0, "reason": REASON}]
    # where a supervisor reads it: the hand's answer (its last command's, read back from
    # the table's record of the deal) and the event log's sentence
    assert h["jackpots_withheld"] == [
        {"fund": "high-hand", "kind": "high_hand", "reason": REASON}]
    assert dealer.get(f"/api/v1/hands/{h['round_id']}/").json()["jackpots_withheld"] == \
        h["jackpots_withheld"]
    assert f"; no contribution to high-hand: {REASON})" in sentence(dealt)


def test_the_table_and_the_role_are_checked_before_what_is_said_of_the_box(
        crew, poker_table: Callable, as_actor: Callable, make_staff: Callable) -> None:
    """§ 637a.2(e): a dealer registering a box not confirmed transparent is refused for
    his role (403 ``role_required``), a floorperson of another property for the table
    (404 ``table_not_found``), before anything they say of the box is looked at.
    Nothing appended."""
    from casino.services import property_register
    from tests.conftest import token_client

    table = poker_table("holdem", jackpot_boxes=False)["table"]
    other = property_register(licence_number="PA-TEST-2", name="Other Casino",
                              system="test")
    stranger = token_client(make_staff("floorperson", property=other))
    dealer = as_actor(crew["dealer"])
    before = _types(table)
    unconfirmed = {"fund": "bad-beat", "box": "B-7", **CONFIRMED, "transparent": False}
    for client, step, body, status, code in (
            (dealer, "register", unconfirmed, 403, "role_required"),
            (stranger, "register", unconfirmed, 404, "table_not_found")):
        r = client.post(_url(table, step), body, format="json")
        assert (r.status_code, r.json()["code"]) == (status, code), (step, r.json())
    assert _types(table) == before


def test_a_table_without_boxes_leaves_the_contributions_in_the_pot(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """§ 637a.2(e): the same hand at a table with no box: nothing to either fund, the $22
    after the rake is seat 1's: $100 - $8 + $22 = $114. Both boxes registered, the next
    hand pays $1 to each fund and seat 1 wins $20: $114 - $8 + $20 = $126. A Bad Beat there does not qualify either: the table is not one
    that offers the payout."""
    table = poker_table("holdem", jackpot_boxes=False)["table"]
    floor, dealer = as_actor(crew["floor"]), as_actor(crew["dealer"])
    seat_three(dealer, table)
    h = play_hand(dealer, table)
    assert _stack(h, 1) == 11_400
    assert not Event.objects.filter(type="JackpotContributed").exists()
    dealt = [e for e in read_stream(f"poker_table-{table.pk}") if e.type == "HandDealtAtTable"]
    assert [w["fund"] for w in dealt[0].data["jackpots_withheld"]] == ["bad-beat", "high-hand"]
    for fund, tag in (("bad-beat", "B-7"), ("high-hand", "H-2")):
        r = floor.post(_url(table, "register"), {"fund": fund, "box": tag, **CONFIRMED},
                       format="json")
        assert r.status_code == 201, r.json()
    # seat 1 (aces) wins again: $8 in, $20 back after $1 to each fund: $114 + $12
    h = play_hand(dealer, table)
    assert _stack(h, 1) == 12_600
    assert sorted(e.data["fund"] for e in Event.objects.filter(type="JackpotContributed")) \
        == ["bad-beat", "high-hand"]


def test_a_bad_beat_at_a_table_without_its_box_does_not_qualify(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """§ 637a.2(e), § 637a.15(f): four eights beaten by a royal flush at a table with no
    Bad Beat box: no contribution and no hand held as a Bad Beat. The pot of $88 less the
    $5 rake cap is the royal flush's whole: $83 (with the boxes $81, $1 to each fund)."""
    table = poker_table("holdem", jackpot_boxes=False)["table"]
    dealer = as_actor(crew["dealer"])
    seat_four(dealer, table)
    h = play_bad_beat(dealer, table, qualifies=False)
    assert [(e["data"]["seat"], e["data"]["amount"]) for e in h["events"]
            if e["type"] == "PotAwarded"] == [(2, 8_300)]
    assert h["over"] and not Event.objects.filter(type__in=("JackpotContributed", "BadBeatQualified")
                                    ).exists()


def test_removing_a_box_between_hands_with_the_reason(crew, poker_table: Callable,
                                                     as_actor: Callable) -> None:
    """§ 637a.2(e): a box comes off the table only between hands (409 ``hand_in_progress``
    during one), with a reason; a fund without a box there is ``no_jackpot_box``; nothing
    appended by a refusal. From the next hand that fund is paid nothing."""
    setup = poker_table("holdem")   # both boxes registered
    table = setup["table"]
    floor, dealer = as_actor(crew["floor"]), as_actor(crew["dealer"])
    seat_three(dealer, table)
    r = dealer.post(f"/api/v1/poker-tables/{table.pk}/hands/", {}, format="json")
    assert r.status_code == 201, r.json()
    h = r.json()
    before = _types(table)
    r = floor.post(_url(table, "remove"), {"fund": "high-hand", "reason": "cracked lid"},
                   format="json")
    assert (r.status_code, r.json()["code"]) == (409, "hand_in_progress")
    r = floor.post(_url(table, "remove"), {"fund": "progressive", "reason": "x"},
                   format="json")
    assert (r.status_code, r.json()["code"]) == (409, "no_jackpot_box")
    assert _types(table) == before
    # the hand in progress ends: the cards dealt, every player but one folds
    h = _send(dealer, h, {"type": "deal", "cards": {
        str(s["seat"]): HOLE[k] for k, s in enumerate(h["seats"])}})
    while not h["over"]:
        h = _send(dealer, h, {"type": "act", "seat": h["to_act"], "action": "fold"})
    r = floor.post(_url(table, "remove"), {"fund": "high-hand", "reason": "cracked lid"},
                   format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["jackpot_boxes"] == {"bad-beat": {"box": f"{table.name}/bad-beat",
                                                      "kind": "bad_beat"}}
    removed = read_stream(f"poker_table-{table.pk}")[-1]
    assert (removed.type, removed.data["reason"], removed.data["box"]) == (
        "JackpotBoxRemoved", "cracked lid", f"{table.name}/high-hand")
    h = play_hand(dealer, table)
    assert h["over"]
    dealt = [e for e in read_stream(f"poker_table-{table.pk}") if e.type == "HandDealtAtTable"]
    assert [w["fund"] for w in dealt[-1].data["jackpots_withheld"]] == ["high-hand"]
    assert dealt[0].data["jackpots_withheld"] == []


def test_the_tables_page_shows_its_boxes_and_the_fund_without_one(
        crew, poker_table: Callable, as_actor: Callable, console_client: Callable) -> None:
    """§ 637a.2(e): the table's page says which box is registered for which fund, and
    that the fund without one takes no contributions; it offers the box steps to the
    poker shift supervisor."""
    from console.registry import command_url

    table = poker_table("holdem", jackpot_boxes=False)["table"]
    r = as_actor(crew["floor"]).post(_url(table, "register"),
                                     {"fund": "bad-beat", "box": "B-7", **CONFIRMED},
                                     format="json")
    assert r.status_code == 201, r.json()
    page = console_client("poker_shift_supervisor").get(f"/console/tables/{table.pk}/")
    html = page.content.decode()
    assert "jackpot box B-7 (bad-beat)" in html
    assert "no jackpot box for high-hand: no contributions" in html
    # the poker floor's block for the table says it too (after an upgrade, every table
    # without its boxes: docs/operations/production.md#upgrading)
    floor_page = console_client("poker_shift_supervisor").get("/console/poker/")
    assert "no jackpot box for high-hand: no contributions" in floor_page.content.decode()
    assert f'href="{command_url("jackpot_box_register", table.pk)}"' in html
