"""The rounds and hands behind a table's gaming-day figures (:mod:`finance.behind`): each
round's or hand's amounts from its own events, the table day's finance events with their
people, and totals that agree with the figures the reports print; over the small day of
:mod:`tests.finance._day` (every figure worked by hand there and below).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client

from casino.domain.gaming_day import gaming_day_bounds
from finance.behind import table_day_behind
from tables.services import banked, rounds
from tests.finance._day import SmallDay, small_day
from tests.tables import conftest as _tables
from tests.console.conftest import verified_login  # the second factor given

pytestmark = pytest.mark.django_db
# the tables app's deck fixtures (tests/finance/conftest.py shares the others)
ready_deck = _tables.ready_deck
deck_in_play = _tables.deck_in_play


@pytest.fixture
def day(team, open_table, deck_in_play, poker_table, as_actor) -> SmallDay:
    """The small day of :func:`tests.finance._day.small_day`, counted and accepted."""
    return small_day(team, open_table=open_table, deck_in_play=deck_in_play,
                     poker_table=poker_table, as_actor=as_actor)


def _behind(d: SmallDay, table: Any) -> dict[str, Any]:
    return table_day_behind(d.team["finance"], table.pk, d.day)


def _steps(item: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    return [(s["step"], s["by"], s["role"], s["credential_number"]) for s in item["steps"]]


def _who(actor: Any, role: str) -> tuple[str, str, str]:
    return actor.username, role, actor.credential_number


# --- the rounds and hands ---------------------------------------------------------------------

def test_the_banked_round_behind_the_day_with_its_result(day) -> None:
    """§ 579.11(g)(1), § 579.11(l): the one Hi-Lo round (tests/tables/test_banked_api.py
    ``test_hilo_player_wins_both_hands``): Ante 10.00 + Tie 5.00 + Play 10.00 = 25.00 put
    up; Ante and Play paid 1 to 1 = 20.00 + 20.00 = 40.00 returned; house 25 − 40 =
    −15.00, counted on the day."""
    b = _behind(day, day.hilo)
    assert b["kind"] == "banked"
    assert [(r["number"], r["state"], r["wagered_cents"], r["returned_cents"],
             r["house_win_cents"], r["counted_on"]) for r in b["rounds"]] == [
        (1, "closed", 2_500, 4_000, -1_500, day.day.isoformat())]
    assert (b["totals"]["rounds"], b["totals"]["wagered_cents"],
            b["totals"]["returned_cents"], b["totals"]["house_win_cents"]) == (
        1, 2_500, 4_000, -1_500)


def test_each_banked_round_links_to_its_reconstruction(day) -> None:
    """§ 589.11(f), § 579.11(l): the round's reconstruction endpoint answers finance."""
    b = _behind(day, day.hilo)
    link = b["rounds"][0]["reconstruction"]
    assert link == f"/api/v1/rounds/{b['rounds'][0]['round_id']}/reconstruction"
    client = Client()
    verified_login(client, get_user_model().objects.get(pk=day.team["finance"].user_id))
    answer = client.get(link)
    assert answer.status_code == 200
    assert answer.json()["house_win_cents"] == -1_500


def test_the_hands_behind_a_poker_day_with_their_rake_and_contributions(day) -> None:
    """§ 637a.17(b)(1), § 637a.15(c), § 637a.16(c): two hands, each a $24.00 pot (three
    players at $8.00); rake 10 % = $2.40, in $1 chips $2.00; then $1.00 to the Bad Beat
    fund and $1.00 to the High Hand fund. Day: rake 2 × 2.00 = 4.00, contributions
    2 × 2.00 = 4.00 (2.00 to each fund)."""
    b = _behind(day, day.poker)
    assert b["kind"] == "poker"
    each = [{"fund": "bad-beat", "amount_cents": 100},
            {"fund": "high-hand", "amount_cents": 100}]
    # § 637a.1: the Pot after the $2.00 rake and the $2.00 of contributions is $20.00
    assert [(r["number"], r["gross_pot_cents"], r["rake_cents"], r["contributions"],
             r["pot_cents"]) for r in b["rounds"]] == [
        (1, 2_400, 200, each, 2_000), (2, 2_400, 200, each, 2_000)]
    t = b["totals"]
    assert (t["hands"], t["rake_cents"], t["contributed_cents"], t["contributions"]) == (
        2, 400, 400, [{"fund": "bad-beat", "amount_cents": 200},
                      {"fund": "high-hand", "amount_cents": 200}])


def test_each_hand_links_to_its_history_step_by_step(day) -> None:
    """§ 637a.18(a): the hand's record, step by step, answers finance."""
    hand = _behind(day, day.poker)["rounds"][0]
    assert hand["reconstruction"] == f"/api/v1/hands/{hand['round_id']}/history/steps/"
    client = Client()
    verified_login(client, get_user_model().objects.get(pk=day.team["finance"].user_id))
    assert client.get(hand["reconstruction"]).status_code == 200


def test_time_charges_behind_a_poker_day_only_verified_ones_count(day) -> None:
    """§ 637a.17(b)(3)(iv)-(v): two periods of $4 × 3 players = $12.00 each assessed; the
    first verified by the floorperson: $12.00 counts, $12.00 waits."""
    b = _behind(day, day.poker)
    assert [(p["total_cents"], p["verified_by"]) for p in b["time_charges"]] == [
        (1_200, day.team["floor"].username), (1_200, "")]
    assert (b["totals"]["time_charges_cents"], b["totals"]["time_charges_pending_cents"]) \
        == (1_200, 1_200)


def test_a_round_across_the_days_start_is_listed_on_both_days_counted_on_one(
        team, open_table, deck_in_play) -> None:
    """The Hi-Lo round of ``test_hilo_player_wins_both_hands`` (house −15.00) opened ten
    minutes before today's gaming day starts (06:00 local: still yesterday's day) and
    settled and closed a minute after: it is listed behind both days, and its result
    counts on the day its close is recorded for, today, as the table results add it up
    (§ 579.11(l)). Each day's events agree with the reports' figures (yesterday: nothing)."""
    dealer = team["dealer"]
    prop = dealer.property
    today = dealer.gaming_day()
    start, _ = gaming_day_bounds(today, time_zone=prop.time_zone,
                                 start_hour=prop.gaming_day_start_hour)
    with time_machine.travel(start - timedelta(minutes=10), tick=True):
        table = open_table("five-card-hi-lo")
        rid = rounds.round_open(actor=dealer, table_id=table.pk,
                                deck_id=deck_in_play(table).pk).pk
        banked.round_place_wager(actor=dealer, round_id=rid, position=1, wager="ante",
                                 amount=1000)
        banked.round_place_wager(actor=dealer, round_id=rid, position=1, wager="tie",
                                 amount=500)
        banked.round_no_more_bets(actor=dealer, round_id=rid)
    with time_machine.travel(start + timedelta(minutes=1), tick=True):
        banked.round_deal(actor=dealer, round_id=rid,
                          hands={"1": ["Ks", "Qd", "9c", "3h", "2d"]},
                          dealer=["Jh", "Tc", "8s", "6d", "4c"])
        banked.round_decide(actor=dealer, round_id=rid, position=1, decision="play")
        banked.round_set_hands(actor=dealer, round_id=rid, position=1,
                               high=["Ks", "Qd", "9c"], low=["3h", "2d"])
        banked.round_lock_decisions(actor=dealer, round_id=rid)
        banked.round_close_banked(actor=dealer, round_id=rid)
    days = [table_day_behind(team["finance"], table.pk, d)
            for d in (today - timedelta(days=1), today)]
    assert [[(r["number"], r["counted_on"]) for r in b["rounds"]] for b in days] == [
        [(1, today.isoformat())], [(1, today.isoformat())]]
    assert [b["totals"]["house_win_cents"] for b in days] == [0, -1_500]
    assert all(c["agrees"] for b in days for c in b["checks"])


# --- the finance events -----------------------------------------------------------------------

def test_each_fill_and_credit_slip_names_its_four_signatures(day) -> None:
    """A fill (20 × $25 = $500.00) and a credit (8 × $25 = $200.00), each requested by
    the floorperson, prepared by the cashier, carried by the runner (security) and signed
    at the table by the dealer, each with the person's credential."""
    team = day.team
    slips = _behind(day, day.hilo)["slips"]
    assert [(s["kind"], s["total_cents"], s["state"]) for s in slips] == [
        ("fill", 50_000, "completed"), ("credit", 20_000, "completed")]
    signatures = [("SlipRequested", *_who(team["floor"], "floorperson")),
                  ("SlipPrepared", *_who(team["cashier"], "cashier")),
                  ("SlipCarried", *_who(team["runner"], "security")),
                  ("SlipCompleted", *_who(team["dealer"], "dealer"))]
    assert [_steps(s) for s in slips] == [signatures, signatures]


def test_the_tray_slips_and_the_drop_count_with_their_people(day) -> None:
    """The opener ($5,000.00) and closer ($4,985.00) recorded by the dealer and signed by
    the floorperson; the box removed by security, counted by one of the count team
    (2 × $100 + 4 × $20 = $280.00), signed by another, accepted by the cashier."""
    team = day.team
    b = _behind(day, day.hilo)
    record, sign = _who(team["dealer"], "dealer"), _who(team["floor"], "floorperson")
    assert [(s["slip"], s["total_cents"], _steps(s)) for s in b["inventories"]] == [
        ("opener", 500_000, [("InventorySlipRecorded", *record),
                             ("InventorySlipSigned", *sign)]),
        ("closer", 498_500, [("InventorySlipRecorded", *record),
                             ("InventorySlipSigned", *sign)])]
    assert (b["drop"]["state"], b["drop"]["counted_cents"], b["drop"]["cash"]) == (
        "accepted", 28_000, {"10000": 2, "2000": 4})
    assert _steps(b["drop"]) == [("DropBoxRemoved", *_who(team["runner"], "security")),
                                 ("DropCounted", *_who(team["counter"], "count_team")),
                                 ("DropCountSigned", *_who(team["counter2"], "count_team")),
                                 ("DropCountAccepted", *_who(team["cashier"], "cashier"))]


def test_every_finance_event_is_listed_in_order_with_its_amount(day) -> None:
    """Opener recorded and signed, $300.00 of chips sold, the fill's and the credit's four
    steps, the closer, the box's four steps and the $20.00 drop shortage the cashier's
    acceptance records as an exception: 2 + 1 + 8 + 2 + 4 + 1 = 18 events."""
    events = _behind(day, day.hilo)["finance_events"]
    assert [e["event"] for e in events] == [
        "InventorySlipRecorded", "InventorySlipSigned", "ChipsSold",
        "SlipRequested", "SlipPrepared", "SlipCarried", "SlipCompleted",
        "SlipRequested", "SlipPrepared", "SlipCarried", "SlipCompleted",
        "InventorySlipRecorded", "InventorySlipSigned",
        "DropBoxRemoved", "DropCounted", "DropCountSigned", "DropCountAccepted",
        "VarianceRecorded"]
    sold = events[2]
    assert (sold["amount_cents"], sold["what"], sold["by"], sold["role"]) == (
        30_000, "chips sold for cash: $300.00", day.team["dealer"].username, "dealer")
    # the exception the cashier's acceptance records: its amount is the variance, counted
    # $280.00 against the expected $300.00 (−$20.00), not the count again; recorded by the
    # same person and role as the acceptance
    shortage = events[-1]
    assert (shortage["amount_cents"], shortage["what"], shortage["role"]) == (
        -2_000, "drop variance -$20.00", events[-2]["role"])


def test_the_banked_days_events_add_up_to_the_reports_figures(day) -> None:
    """The Master Game Report's figures (finance.figures.frozen) against the events:
    banked win −15.00 (the round), chip sales 300.00, fills 500.00, credits 200.00, opener
    5,000.00, closer 4,985.00, counted drop 280.00; no rake or time charges."""
    b = _behind(day, day.hilo)
    got = {c["figure"]: (c["from_events"], c["report"], c["agrees"]) for c in b["checks"]}
    assert got == {
        "banked_win_cents": (-1_500, -1_500, True), "rake_cents": (0, 0, True),
        "time_charges_cents": (0, 0, True), "chip_sales_cents": (30_000, 30_000, True),
        "fills_cents": (50_000, 50_000, True), "credits_cents": (20_000, 20_000, True),
        "opener_cents": (500_000, 500_000, True), "closer_cents": (498_500, 498_500, True),
        "drop_counted_cents": (28_000, 28_000, True)}


def test_the_poker_days_events_add_up_to_the_reports_figures(day) -> None:
    """Rake 4.00 (two hands at 2.00), verified time charges 12.00, chip sales 300.00,
    opener 2,500.00, closer 2,200.00, counted drop $300 + 16 × $1 = 316.00."""
    b = _behind(day, day.poker)
    got = {c["figure"]: (c["from_events"], c["report"]) for c in b["checks"]}
    assert all(c["agrees"] for c in b["checks"])
    assert (got["rake_cents"], got["time_charges_cents"], got["chip_sales_cents"],
            got["opener_cents"], got["closer_cents"], got["drop_counted_cents"]) == (
        (400, 400), (1_200, 1_200), (30_000, 30_000), (250_000, 250_000),
        (220_000, 220_000), (31_600, 31_600))


def test_a_day_without_play_lists_nothing_and_agrees(team, open_table) -> None:
    """The day before the table played: no rounds, no events, nothing to disagree."""
    table = open_table("five-card-hi-lo")
    b = table_day_behind(team["finance"], table.pk,
                         team["finance"].gaming_day() - timedelta(days=1))
    assert (b["rounds"], b["finance_events"], b["figures"]) == ([], [], None)
    assert all(c["agrees"] for c in b["checks"])


# --- the API and the page -----------------------------------------------------------------------

def _url(table_id: Any, day: Any) -> str:
    return f"/api/v1/finance/tables/{table_id}/days/{day}/behind/"


def test_the_api_answers_the_rounds_behind_as_json(day, api_as: Callable) -> None:
    r = api_as("compliance").get(_url(day.hilo.pk, day.day.isoformat()))
    assert r.status_code == 200
    assert r.json()["rounds"][0]["house_win_cents"] == -1_500


def test_another_propertys_table_is_not_found(day, make_staff: Callable) -> None:
    """Issue 11: another property's table is answered as one that does not exist."""
    from casino.services import property_register
    from rest_framework.test import APIClient

    other = property_register(licence_number="PA-OTHER-R2", name="Other", system="test")
    client = APIClient()
    client.force_authenticate(make_staff("finance", property=other))
    r = client.get(_url(day.hilo.pk, day.day.isoformat()))
    assert (r.status_code, r.json()["code"]) == (404, "table_not_found")


@pytest.mark.parametrize("bad", ["yesterday", "2024-02-30", "9999-12-31"])
def test_a_day_that_is_not_a_past_or_current_gaming_day_is_refused(team, open_table,
                                                                   api_as: Callable,
                                                                   bad: str) -> None:
    table = open_table("five-card-hi-lo")
    r = api_as("finance").get(_url(table.pk, bad))
    assert (r.status_code, r.json()["code"]) == (400, "invalid_gaming_day")


def test_a_role_that_does_not_read_finance_is_refused(team, open_table,
                                                      api_as: Callable) -> None:
    table = open_table("five-card-hi-lo")
    assert api_as("dealer").get(_url(table.pk, team["dealer"].gaming_day())).status_code \
        == 403


def test_the_printable_page_lists_the_rounds_and_the_slips(day) -> None:
    client = Client()
    verified_login(client, get_user_model().objects.get(pk=day.team["auditor"].user_id))
    page = client.get(f"/finance/behind/{day.hilo.pk}/{day.day.isoformat()}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "/reconstruction" in html and "-$15.00" in html and "$500.00" in html
    # the one sale of chips for cash, $300.00 (tests/finance/_day.py)
    assert "Chip sales for cash: 1 sale(s), $300.00." in html
    assert day.team["runner"].username in html


def test_the_page_for_an_unknown_table_says_so(team) -> None:
    client = Client()
    verified_login(client, get_user_model().objects.get(pk=team["finance"].user_id))
    page = client.get(f"/finance/behind/not-a-table/{team['finance'].gaming_day()}/")
    assert page.status_code == 404 and "table_not_found" in page.content.decode()


def test_the_page_refuses_a_login_without_a_finance_role(team, open_table) -> None:
    table = open_table("five-card-hi-lo")
    client = Client()
    verified_login(client, get_user_model().objects.get(pk=team["dealer"].user_id))
    assert client.get(f"/finance/behind/{table.pk}/{team['dealer'].gaming_day()}/"
                      ).status_code == 403
