"""The jackpots' "waiting for me" lists (jackpots.console_tasks), from state made through
the real services and hands dealt through the dealer terminal's API.

For each list: offered to the role whose step it is and not to another; a two-person step
names who took the first and is never offered to that person (§ 637a.15(g): the verifier
does not pay; § 637a.15(h)(1): the witness is another person than the finance employee;
§ 637a.15(e): a count's variance is signed off by a second person); gone for everyone
once done; another property's items never shown; read in a fixed number of queries.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from casino.actors import Actor, actor_of
from casino.eventstore import projections
from casino.services import property_register
from console.registry import REGISTRY, WaitingItem, nav_for, providers_for
from jackpots import services
from jackpots.models import HighHandSlip, PayoutBox
from jackpots.services import counts
from tests.jackpots._hands import play_bad_beat, play_hand, seat_four

pytestmark = pytest.mark.django_db

IDS = [{"seat": 1, "name": "Ann Lee", "identification": "PA DL 1111"},
       {"seat": 2, "name": "Bo Kim", "identification": "PA DL 2222"},
       {"seat": 3, "name": "Cy Ray", "identification": "Passport 3333"},
       {"seat": 4, "name": "Di Fox", "identification": "NJ DL 4444"}]
FULL_HOUSE = ["Ks", "Kd", "Kh", "5c", "5d"]


def items(key: str, actor: Actor) -> list[WaitingItem]:
    return list(REGISTRY.tasks[key].items(actor))


def shown(key: str, actor: Actor) -> bool:
    return key in {p.key for p in providers_for(actor.roles)}


@pytest.fixture
def room(crew: dict[str, Actor], poker_table: Callable, as_actor: Callable,
         staff: Callable) -> dict[str, Any]:
    """The example Hold'em table, four players seated, one Bad Beat dealt (§ 637a.15(f):
    four eights beaten by a royal flush; $1 to each fund from its $72 pot)."""
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_four(dealer, setup["table"])
    hand = play_bad_beat(dealer, setup["table"])
    projections.catch_up("jackpot_funds")
    return {"table": setup["table"], "dealer_api": dealer, "hand": hand["round_id"],
            "crew": crew, "supervisor": staff("poker_shift_supervisor"),
            "cashier": staff("cashier"), "finance": staff("finance"),
            "finance2": staff("finance"), "security": staff("security")}


@pytest.mark.regulation("637a.15(f)", "637a.15(f)(2)", "637a.15(g)")
def test_a_bad_beat_waits_for_the_supervisor_then_for_the_cage(room: dict,
                                                               staff: Callable) -> None:
    """§ 637a.15(f): held for the poker shift supervisor; § 637a.15(g): then paid by the
    cage or finance, not by the person who verified it. The fund held $1.00 (this hand's
    contribution): the payout is $1.00, 50/25/25 as posted: seat 1 $0.51, seat 2 $0.25,
    seats 3 and 4 $0.12 each."""
    table, hand = room["table"], room["hand"]
    (item,) = items("jackpots_bad_beats_to_verify", room["supervisor"])
    assert item.title == (f"Bad Beat at {table.name}: Four of a kind, eights (seat 1) "
                          "beaten by Royal flush (seat 2)")
    assert item.url == f"/console/do/bad_beat_verify/bad-beat/?hand_id={hand}"
    assert not shown("jackpots_bad_beats_to_verify", room["crew"]["floor"])
    assert not shown("jackpots_bad_beats_to_verify", room["cashier"])

    # one person who is both supervisor and cashier verifies it
    both = staff("poker_shift_supervisor", "cashier")
    services.bad_beat_verify(actor=both, fund="bad-beat", hand_id=hand)
    assert items("jackpots_bad_beats_to_verify", room["supervisor"]) == []
    (mine,) = items("jackpots_bad_beats_to_pay", both)
    assert (mine.first_by, mine.actionable) == (both.username, False)
    (item,) = items("jackpots_bad_beats_to_pay", room["cashier"])
    assert item.actionable and item.title.endswith(": pay $1.00")
    assert item.detail.startswith(f"Verified by {both.username} ")
    assert item.detail.endswith("seat 1 $0.51, seat 2 $0.25, seat 3 $0.12, seat 4 $0.12")
    assert not shown("jackpots_bad_beats_to_pay", room["supervisor"])

    services.bad_beat_pay(actor=room["cashier"], fund="bad-beat", hand_id=hand,
                          payees=IDS, where="cage")
    for who in ("cashier", "finance"):
        assert items("jackpots_bad_beats_to_pay", room[who]) == [], who
    assert items("jackpots_bad_beats_to_pay", both) == []


@pytest.mark.regulation("637a.15(h)(1)")
def test_a_display_adjustment_waits_for_a_witness_who_is_not_the_finance_employee(
        room: dict, staff: Callable) -> None:
    """§ 637a.15(h)(1): finance begins adjusting the display to the record, $1.00; a
    floorperson or above witnesses it, never the one who began it."""
    both = staff("finance", "floorperson")
    services.display_adjust(actor=both, fund="bad-beat")
    (mine,) = items("jackpots_display_adjustments_to_witness", both)
    assert (mine.first_by, mine.actionable) == (both.username, False)
    floor = room["crew"]["floor"]
    (item,) = items("jackpots_display_adjustments_to_witness", floor)
    assert item.title == "Display of the bad-beat fund: set it to $1.00"
    assert item.actionable and item.url == "/console/do/display_witness/bad-beat/"
    assert not shown("jackpots_display_adjustments_to_witness", room["cashier"])
    services.display_witness(actor=floor, fund="bad-beat")
    assert items("jackpots_display_adjustments_to_witness", floor) == []
    assert items("jackpots_display_adjustments_to_witness", both) == []


def _record(room: dict, seat: int, made_at: datetime | None = None) -> dict:
    return services.high_hand_record(
        actor=room["crew"]["floor"], fund="high-hand", table_id=room["table"].pk, seat=seat,
        cards=FULL_HOUSE, player={"name": f"Player {seat}", "phone": f"555-010{seat}"},
        dealer=room["crew"]["dealer"].username, made_at=made_at)


@pytest.mark.regulation("637a.16(b)(6)", "637a.16(h)", "637a.16(i)")
def test_high_hand_awards_wait_for_the_cage_and_the_overdue_for_finance(room: dict) -> None:
    """§ 637a.16(h): an award is paid at the cage against identification; § 637a.16(b)(6):
    within the posted time limit, 24 hours from the period's end in the example
    submission. A hand of three days ago (its period closed now, by hand) is past its
    collect-by time: overdue, listed for finance too (§ 637a.16(i)); one of the period
    just ended is not. Each closed period pools what is in the fund: $1.00 from the Bad
    Beat hand for the new one, then $1.00 from one more hand for the old one."""
    new = _record(room, 2)
    end = datetime.fromisoformat(new["period_end"])
    assert services.high_hand_periods_close_due(now=end + timedelta(seconds=1)) == 1
    play_hand(room["dealer_api"], room["table"])
    projections.catch_up("jackpot_funds")
    # written up after the fact (made_at), closed by hand: the beat would have applied
    # the procedure for the uncollected to it at once (§ 637a.16(i))
    old = _record(room, 1, made_at=timezone.now() - timedelta(days=3))
    services.high_hand_period_close(actor=room["finance"], fund="high-hand",
                                    period=old["period"])
    assert sorted(HighHandSlip.objects.values_list("slip", "award_cents")) == [
        (1, 100), (1, 100)]

    first, second = items("jackpots_high_hand_awards_to_pay", room["cashier"])
    assert first.overdue and not second.overdue
    assert first.title == f"High Hand award of $1.00 to Player 1 (slip 1, {room['table'].name})"
    assert first.detail.startswith("Full house, kings over fives; was to be collected by ")
    assert second.detail.startswith("Full house, kings over fives; collect by ")
    assert second.url.startswith("/console/do/high_hand_pay/high-hand/?period=")
    assert second.url.endswith("&slip=1&name=Player+2")
    (due,) = items("jackpots_high_hand_awards_uncollected", room["finance"])
    assert due.overdue and due.title == first.title
    assert not shown("jackpots_high_hand_awards_uncollected", room["cashier"])
    assert not shown("jackpots_high_hand_awards_to_pay", room["crew"]["floor"])

    services.high_hand_pay(actor=room["cashier"], fund="high-hand", period=old["period"],
                           slip=1, name="Player 1", identification="PA DL 1111")
    (left,) = items("jackpots_high_hand_awards_to_pay", room["cashier"])
    assert left.title == second.title
    assert items("jackpots_high_hand_awards_uncollected", room["finance"]) == []


@pytest.mark.regulation("637a.15(d)(1)", "637a.15(e)")
def test_a_box_count_at_the_table_goes_from_role_to_role_and_its_variance_is_signed_off(
        room: dict) -> None:
    """§ 637a.15(d)(1): the dealer counts the box at the closed table, a floorperson who
    watched witnesses, security carries it to the cage; § 637a.15(e): a cashier verifies
    the total. The box should hold $1.00; the dealer finds $0.90: a variance of −$0.10,
    explained by finance and signed off by a second person, not the explainer."""
    crew, table = room["crew"], room["table"]
    (box,) = PayoutBox.objects.filter(fund="bad-beat")
    assert box.expected_cents == 100
    opened = counts.count_open(actor=crew["floor"], fund="bad-beat", place="table")
    count_id = opened["count_id"]

    def only(key: str, who: Actor) -> WaitingItem:
        (item,) = [i for i in items("jackpots_counts_open", who) if count_id in i.url]
        return item

    def none_for(*who: Actor) -> None:
        for w in who:
            assert [i for i in items("jackpots_counts_open", w) if count_id in i.url] == []

    item = only("count_box", crew["dealer"])
    assert item.title == "Box count of the bad-beat fund at the table: $1.00 expected"
    assert item.url == (f"/console/do/count_box/bad-beat/?count_id={count_id}"
                        f"&table_id={table.pk}")
    none_for(crew["floor"], room["security"], room["cashier"])
    counts.count_box(actor=crew["dealer"], fund="bad-beat", count_id=count_id,
                     table_id=str(table.pk), counted_cents=90)

    item = only("count_witness", crew["floor"])
    assert item.first_by == crew["dealer"].username and item.action == "Witness the count"
    none_for(crew["dealer"], room["security"])
    counts.count_witness(actor=crew["floor"], fund="bad-beat", count_id=count_id)

    item = only("count_carry", room["security"])
    assert item.first_by == crew["floor"].username
    none_for(crew["floor"], room["cashier"])
    counts.count_carry(actor=room["security"], fund="bad-beat", count_id=count_id)

    item = only("count_verify", room["cashier"])
    assert item.url == f"/console/do/count_verify/bad-beat/?count_id={count_id}"
    counts.count_verify(actor=room["cashier"], fund="bad-beat", count_id=count_id,
                        counted_cents=90)

    item = only("explain", room["finance"])
    assert item.url.startswith("/console/do/count_variance_explain/bad-beat/")
    assert item.detail.endswith("; variance -$0.10")
    none_for(room["cashier"])
    counts.variance_explain(actor=room["finance"], fund="bad-beat", count_id=count_id,
                            explanation="A dime fell behind the box")
    mine = only("sign_off", room["finance"])
    assert (mine.first_by, mine.actionable) == (room["finance"].username, False)
    assert only("sign_off", room["finance2"]).actionable
    counts.variance_sign_off(actor=room["finance2"], fund="bad-beat", count_id=count_id)
    none_for(room["finance"], room["finance2"], crew["dealer"], crew["floor"],
             room["security"], room["cashier"])


def test_another_propertys_items_are_never_shown(room: dict, make_staff: Callable) -> None:
    other = property_register(licence_number="PA-OTHER-JB", name="Other Casino",
                              system="test")
    supervisor = actor_of(make_staff("poker_shift_supervisor", property=other))
    assert items("jackpots_bad_beats_to_verify", room["supervisor"]) != []
    assert items("jackpots_bad_beats_to_verify", supervisor) == []
    counts.count_open(actor=room["crew"]["floor"], fund="bad-beat", place="cage")
    floor = actor_of(make_staff("floorperson", property=other))
    assert items("jackpots_counts_open", room["crew"]["floor"]) != []
    assert items("jackpots_counts_open", floor) == []


VIEWERS = {"jackpots_bad_beats_to_verify": "supervisor", "jackpots_bad_beats_to_pay":
           "cashier", "jackpots_display_adjustments_to_witness": "floor",
           "jackpots_high_hand_awards_to_pay": "cashier",
           "jackpots_high_hand_awards_uncollected": "finance",
           "jackpots_counts_open": "floor"}


def _queries(room: dict) -> dict[str, int]:
    out = {}
    for key, who in VIEWERS.items():
        viewer = room["crew"]["floor"] if who == "floor" else room[who]
        with CaptureQueriesContext(connection) as q:
            found = items(key, viewer)
        out[key] = (len(q), len(found))
    return out


def test_each_list_reads_in_the_same_number_of_queries_at_3_and_30_items(room: dict) -> None:
    """Equal full houses share the award (the example submission divides ties equally):
    3 slips recorded, then 27 more, and 3 then 30 cage counts opened by hand; the High Hand
    and counts lists find 3, then 30, items in the same number of queries."""
    def grow(n: int) -> None:
        for _ in range(n):
            _record(room, 3)
            counts.count_open(actor=room["finance"], fund="bad-beat", place="cage")

    def close_all() -> None:
        slips = HighHandSlip.objects.filter(award_cents__isnull=True)
        ends = {s.period_end for s in slips}
        for end in ends:
            services.high_hand_periods_close_due(now=end + timedelta(seconds=1))

    grow(3)
    at_3 = _queries(room)
    assert at_3["jackpots_counts_open"][1] == 3
    grow(27)
    at_30 = _queries(room)
    assert at_30["jackpots_counts_open"][1] == 30
    assert {k: q for k, (q, _) in at_3.items()} == {k: q for k, (q, _) in at_30.items()}
    assert max(q for q, _ in at_30.values()) <= 2
    close_all()  # the awards: 30 at once, read in one query
    with CaptureQueriesContext(connection) as q:
        awards = items("jackpots_high_hand_awards_to_pay", room["cashier"])
    assert len(awards) == 30 and len(q) == 1


def test_the_jackpots_nav_item_counts_the_lists_of_the_people_it_is_shown_to() -> None:
    (ours,) = [n for n in REGISTRY.nav if n.label == "Jackpots"]
    assert set(ours.counts) <= set(REGISTRY.tasks)
    for role in ("poker_shift_supervisor", "cashier", "floorperson", "finance"):
        assert "Jackpots" in {i.label for _, g in nav_for(frozenset({role})) for i in g}
    assert "Jackpots" not in {i.label for _, g in nav_for(frozenset({"count_team"}))
                              for i in g}
