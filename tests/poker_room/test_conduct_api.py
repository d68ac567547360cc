"""The players' conduct through the API, the console and the event store (§ 637a.18(c),
(d), (k)): compliance notified of a player required to leave the game until a compliance
officer acknowledges it; the dealer's records of cards not in view and of a hand lost,
in the hand's record and its history."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command

from casino.declared import declared
from casino.eventstore.models import Event
from console.registry import REGISTRY
from finance.behind import table_day_behind
from poker_room.models import RakeDay
from poker_room.services import seats
from tests.console.conftest import client_of, text_of

pytestmark = pytest.mark.django_db

KEY = "player_removals_to_acknowledge"


def _take(client, table, *seats: int) -> None:
    for seat in seats:
        r = client.post(f"/api/v1/poker-tables/{table.pk}/seats/take/",
                        {"seat": seat, "buy_in_cents": 10_000, "paid_with": "chips"},
                        format="json")
        assert r.status_code == 201, r.json()


def _home(actor: Any) -> str:
    """The console's home page ("waiting for me") as ``actor`` reads it."""
    page = client_of(actor).get("/console/")
    assert page.status_code == 200
    return text_of(page.content.decode())


def test_the_notices_are_shown_to_exactly_the_roles_that_acknowledge_them() -> None:
    importlib.import_module("poker_room.commands")  # the declarations
    assert set(REGISTRY.tasks[KEY].roles) == set(declared("player_removal_acknowledge").roles)


@pytest.mark.regulation("637a.18(c)")
def test_compliance_is_notified_until_a_compliance_officer_acknowledges(
        crew, staff: Callable, poker_table: Callable, as_actor: Callable) -> None:
    """§ 637a.18(c): the floor requires the player at seat 2 to leave the game; the notice
    waits on compliance's list (not the dealer's nor the floor's) until a compliance
    officer acknowledges it, then it is gone. A dealer may not acknowledge it; the person
    who removed the player may not either (he is also a compliance officer here: four
    eyes); nor may it be acknowledged twice; each refusal appends nothing."""
    setup = poker_table("holdem")
    table = setup["table"]
    dealer = as_actor(crew["dealer"])
    _take(dealer, table, 1, 2, 3)
    remover = staff("floorperson", "compliance")
    r = as_actor(remover).post(f"/api/v1/poker-tables/{table.pk}/seats/remove/",
                               {"seat": 2, "reason": "passing hole cards to seat 3"},
                               format="json")
    assert r.status_code == 200, r.json()
    removal = Event.objects.get(type="PlayerRemoved", stream_id=f"poker_table-{table.pk}")

    title = f"{table.name}: player removed from seat 2"
    officer = crew["compliance"]
    page = _home(officer)
    assert "Players required to leave a game" in page
    assert title in page
    assert f"Removed by {remover.username} at" in page
    assert "passing hole cards to seat 3" in page
    assert "Acknowledge the notice" in page
    assert "All players required to leave a game" in page  # the link to every notice
    assert title not in _home(crew["floor"])
    assert title not in _home(crew["dealer"])
    assert "another compliance officer acknowledges it" in _home(remover)
    [item] = REGISTRY.tasks[KEY].items(officer)
    assert item.url == (f"/console/do/player_removal_acknowledge/{table.pk}/"
                        f"?removal={removal.version}")
    assert client_of(officer).get(item.url).status_code == 200  # its form

    url = f"/api/v1/poker-tables/{table.pk}/seats/removal-acknowledge/"
    body = {"removal": removal.version, "note": "reviewed with surveillance"}
    before = Event.objects.count()
    r = dealer.post(url, body, format="json")
    assert (r.status_code, r.json()["code"]) == (403, "role_required")
    r = as_actor(remover).post(url, body, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "same_person")
    r = as_actor(officer).post(url, {"removal": removal.version - 1}, format="json")
    assert (r.status_code, r.json()["code"]) == (404, "removal_not_found")
    assert Event.objects.count() == before

    r = as_actor(officer).post(url, body, format="json")
    assert r.status_code == 200, r.json()
    assert r.json() == {"removal_version": removal.version, "seat": 2,
                        "removed_by": remover.username, "note": "reviewed with surveillance",
                        "rule": "637a.18(c)"}
    ack = Event.objects.get(type="PlayerRemovalAcknowledged")
    assert (ack.metadata["actor"], ack.metadata["role"]) == (officer.username, "compliance")
    assert title not in _home(officer)
    assert title not in _home(crew["approver"])

    before = Event.objects.count()
    r = as_actor(crew["approver"]).post(url, body, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "already_acknowledged")
    assert Event.objects.count() == before


def _hand(setup: dict[str, Any], dealer) -> tuple[str, int]:
    """The example Rules Submission ($4/$8 fixed limit, blinds $2 and $4), three players
    with $100, button at seat 3: seat 1 posts $2, seat 2 $4. Seat 1 aces, seat 2 kings,
    seat 3 seven-deuce. Seat 3 calls $4, seat 1 raises to $8, seats 2 and 3 call: $24."""
    table = setup["table"]
    _take(dealer, table, 1, 2, 3)
    h = dealer.post(f"/api/v1/poker-tables/{table.pk}/hands/",
                    {"deck_id": str(setup["decks"][0].pk)}, format="json").json()
    r = dealer.post(f"/api/v1/hands/{h['round_id']}/commands/", {"commands": [
        {"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"], "3": ["2c", "7d"]}},
        {"type": "act", "seat": 3, "action": "call"},
        {"type": "act", "seat": 1, "action": "raise"},
        {"type": "act", "seat": 2, "action": "call"},
        {"type": "act", "seat": 3, "action": "call"}]}, format="json")
    assert r.status_code == 200, r.json()
    return h["round_id"], r.json()["version"]


@pytest.mark.regulation("637a.18(d)", "637a.18(k)(3)")
def test_the_dealers_records_of_cards_out_of_view_and_a_hand_collected(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """§ 637a.18(d): the dealer records that seat 2 did not keep the cards in view, in
    the hand's record and its history, nothing else changing. § 637a.18(k)(3): the dealer
    then collects seat 3's protected hand by accident, and it cannot be reconstructed:
    seat 3's $8 comes back from the $24 pot, seat 3 is out of the hand, $16 left for
    seats 1 and 2. Recording it again is refused (the seat is out), nothing appended."""
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    hand, version = _hand(setup, dealer)
    url = f"/api/v1/hands/{hand}/command/"
    r = dealer.post(url, {"command": {"type": "cards_not_in_view", "seat": 2},
                          "expected_version": version}, format="json")
    assert r.status_code == 200, r.json()
    r = dealer.post(url, {"command": {"type": "hand_fouled", "seat": 3, "how": "collected",
                                      "protected": True}}, format="json")
    assert r.status_code == 200, r.json()
    h = r.json()
    seat3 = next(s for s in h["seats"] if s["seat"] == 3)
    assert (seat3["stack_cents"], seat3["in_hand"]) == (10_000, False)
    fouled = next(e["data"] for e in h["events"] if e["type"] == "HandFouled")
    assert (fouled["outcome"], fouled["refunded"]) == ("refunded", 800)

    # the hand's history, as the floor reads it to settle a dispute (§ 637a.18(a))
    steps = as_actor(crew["floor"]).get(f"/api/v1/hands/{hand}/history/steps/")
    said = [s["text"] for s in steps.json()["steps"]]
    assert "Seat 2's cards not kept in full view of the dealer (637a.18(d))" in said
    assert ("Seat 3's hand collected by the dealer, protected: $8.00 refunded from the "
            "pot, out of the hand (637a.18(k)(3))") in said

    before = Event.objects.count()
    r = dealer.post(url, {"command": {"type": "hand_fouled", "seat": 3, "how": "fouled",
                                      "protected": True}}, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "seat_folded")
    r = dealer.post(url, {"command": {"type": "cards_not_in_view", "seat": 9}}, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "not_in_hand")
    assert Event.objects.count() == before


@pytest.mark.regulation("637a.18(k)(3)", "637a.17(b)(1)(i)")
def test_a_refund_gives_back_the_rake_the_smaller_pot_does_not_bear_in_the_rake_ledger(
        crew, staff: Callable, poker_table: Callable, as_actor: Callable) -> None:
    """§ 637a.18(k)(3), § 637a.17(b)(1): a 10 % rake capped at $2, taken as play
    progresses (§ 637a.17(b)(1)(i)), in the example's $1 chips. The hand of ``_hand``:
    $24 before the flop, 10 % is $2.40, capped: $2 taken. Seat 3's protected hand is then
    collected and he is refunded his $8: $16 is left, whose rake is 10 % = $1.60, rounded
    down to the $1 chip: $1, so $1 goes back into the pot. Checked down, the day's rake
    ledger holds $1 of percentage rake, as the hand's result does, and rebuilding it
    from the events gives the same."""
    setup = poker_table("holdem", rake={"types": ["percentage"], "percentage_bp": 1_000,
                                        "maximum_per_round_cents": 200,
                                        "collection": "as-play-progresses"})
    dealer = as_actor(crew["dealer"])
    hand, version = _hand(setup, dealer)
    r = dealer.post(f"/api/v1/hands/{hand}/command/", {"command": {
        "type": "hand_fouled", "seat": 3, "how": "collected", "protected": True}},
        format="json")
    assert r.status_code == 200, r.json()
    fouled = next(e["data"] for e in r.json()["events"] if e["type"] == "HandFouled")
    assert (fouled["refunded"], fouled["rake_returned"]) == (800, 100)
    r = dealer.post(f"/api/v1/hands/{hand}/commands/", {"commands": [
        {"type": "deal", "cards": ["9h", "5c", "3d"]}, _check(1), _check(2),
        {"type": "deal", "cards": ["Jc"]}, _check(1), _check(2),
        {"type": "deal", "cards": ["8s"]}, _check(1), _check(2)]}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["over"] is True
    done = next(e["data"] for e in r.json()["events"] if e["type"] == "HandCompleted")
    assert (done["pot"], done["rake"]) == (1_600, 100)
    day = RakeDay.objects.get(table=setup["table"])
    assert (day.percentage_rake_cents, day.hands) == (100, 1)
    call_command("rebuild_projections", "--no-progress")
    assert RakeDay.objects.get(table=setup["table"]).percentage_rake_cents == 100
    # finance's check of the day: the hand's $2 taken less the $1 given back agrees with
    # the report's $1
    behind = table_day_behind(staff("finance"), setup["table"].pk, day.gaming_day)
    [rake] = [c for c in behind["checks"] if c["figure"] == "rake_cents"]
    assert (rake["from_events"], rake["report"], rake["agrees"]) == (100, 100, True)

    # § 637a.18(k)(3): PHH has no word for the refund: the hand's file is refused, the
    # day's file says so in a comment and holds no hand
    floor = as_actor(crew["floor"])
    r = floor.get(f"/api/v1/hands/{hand}/phh/?format=json")
    assert (r.status_code, r.json()["code"]) == (409, "phh_cannot_express")
    r = floor.get(f"/api/v1/poker-tables/{setup['table'].pk}/phh/?format=json")
    assert r.status_code == 200, r.json()
    assert r.json()["hands"] == 0
    assert "is not written: seat 3 was refunded from the pot (637a.18(k)(3))" in r.json()["phh"]


def _check(seat: int) -> dict[str, Any]:
    return {"type": "act", "seat": seat, "action": "check"}
