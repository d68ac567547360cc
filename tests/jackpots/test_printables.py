"""The jackpot funds' printables in the console (issue 23, item 5;
``jackpots.console_pages``), each from the rows the API reads, with its figures worked by
hand and the signature lines the chapter asks for:

* the payout box count: at a closed table the dealer counts and the floorperson or above
  who watched signs (§ 637a.15(d)(1)), security carries, a cashier verifies (§ 637a.15(e));
* the High Hand Tracking Slip: every item of § 637a.16(f)(1)-(5) on each line;
* the Bad Beat payout record: the verification (§ 637a.15(f)), the shares and each player
  paid against identification (§ 637a.15(g)).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from casino.actors import Actor, actor_of
from casino.eventstore import projections
from casino.services import property_register
from jackpots.models import HighHandSlip
from tests.jackpots._hands import play_bad_beat, play_hand, seat_four, seat_three
from tests.console.conftest import client_of, text_of  # the second factor given

pytestmark = pytest.mark.django_db
API = "/api/v1/jackpot-funds/"


def _ok(client: Any, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = client.post(API + path, body, format="json")
    assert r.status_code in (200, 201), r.json()
    return r.json()


@pytest.fixture
def room(crew: dict[str, Actor], poker_table: Callable, as_actor: Callable,
         staff: Callable) -> dict[str, Any]:
    """Two hands at the example Hold'em table: $2.00 in its Bad Beat box and $2.00 in
    its High Hand box (tests/jackpots/test_counts.py)."""
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_three(dealer, setup["table"])
    play_hand(dealer, setup["table"])
    play_hand(dealer, setup["table"])
    projections.catch_up("jackpot_funds")
    people = {**crew, "cashier": staff("cashier"), "finance": staff("finance")}
    return {"table": setup["table"], "people": people,
            **{f"api_{k}": as_actor(v) for k, v in people.items()
               if k in ("dealer", "floor", "security", "cashier", "finance")}}


@pytest.mark.regulation("637a.15(d)(1)", "637a.15(e)")
def test_the_box_count_at_a_closed_table_prints_each_box_and_four_signatures(room) -> None:
    """$2.00 should be in the box, $2.00 counted: no variance (counted less should hold =
    $0.00). § 637a.15(d)(1): dealer and the floorperson who witnessed sign; security
    carries; § 637a.15(e): the cashier verifies the aggregate."""
    c = _ok(room["api_floor"], "bad-beat/counts/open/", {"place": "table"})["count_id"]
    _ok(room["api_dealer"], "bad-beat/counts/box/",
        {"count_id": c, "table_id": str(room["table"].pk), "counted_cents": 200})
    _ok(room["api_floor"], "bad-beat/counts/witness/", {"count_id": c})
    _ok(room["api_security"], "bad-beat/counts/carry/", {"count_id": c})
    _ok(room["api_cashier"], "bad-beat/counts/verify/", {"count_id": c, "counted_cents": 200})
    p = room["people"]
    r = client_of(p["cashier"]).get(f"/console/print/jackpots/bad-beat/counts/{c}/")
    assert r.status_code == 200
    text = text_of(r.content.decode())
    assert "Payout box count: bad-beat" in text and "at a closed table" in text
    assert f"{room['table'].name} $2.00 $2.00" in text
    assert "Total $2.00 $2.00" in text and "Variance (counted less should hold) $0.00" in text
    for role, who, rule in (("Dealer", "dealer", "§ 637a.15(d)(1)"),
                            ("Floorperson or above", "floor", "§ 637a.15(d)(1)"),
                            ("Security", "security", "§ 637a.15(d)(1)"),
                            ("Cashier", "cashier", "§ 637a.15(e)")):
        line = re.search(rf"{re.escape(role)}: [^()]*\({re.escape(rule)}\) Signature Name: "
                         r"(\S+) · Credential no.: (\S+)", text)
        assert line, role
        assert line.groups() == (p[who].username, p[who].credential_number)


@pytest.mark.regulation("637a.16(f)(1)", "637a.16(f)(2)", "637a.16(f)(3)", "637a.16(f)(4)",
                        "637a.16(f)(5)")
def test_the_high_hand_tracking_slip_prints_every_item_of_637a_16_f(room) -> None:
    """§ 637a.16(f)(1) the player's name, phone and seat, (2) the table, (3) the hand,
    (4) the dealer's name and credential, (5) the floorperson's name, credential and a
    place to sign, on each line of the period's slip."""
    p = room["people"]
    _ok(room["api_floor"], "high-hand/high-hands/record/", {
        "table_id": str(room["table"].pk), "seat": 4,
        "cards": ["Ks", "Kd", "Kh", "5c", "5d", "2s", "9h"],
        "player": {"name": "Ann Lee", "phone": "555-0104"}, "dealer": p["dealer"].username})
    period = HighHandSlip.objects.get().period
    r = client_of(p["finance"]).get(f"/console/print/jackpots/high-hand/high-hands/{period}/")
    assert r.status_code == 200
    text = text_of(r.content.decode())
    assert "High Hand Tracking Slip: high-hand" in text
    for item in ("(f)(1)", "(f)(2)", "(f)(3)", "(f)(4)", "(f)(5)"):
        assert item in text, item
    assert "Ann Lee 555-0104 seat 4" in text
    assert room["table"].name in text and "Full house, kings over fives" in text
    assert f"{p['dealer'].username} credential {p['dealer'].credential_number}" in text
    assert f"{p['floor'].username} credential {p['floor'].credential_number} signature" in text


@pytest.mark.regulation("637a.15(f)", "637a.15(g)")
def test_the_bad_beat_payout_record_prints_the_hand_the_shares_and_who_was_paid(
        crew: dict[str, Actor], poker_table: Callable, as_actor: Callable,
        staff: Callable) -> None:
    """§ 637a.15(f): verified by the poker shift supervisor; the $1.00 payout divided
    50/25/25 (tests/jackpots/test_bad_beat_hits.py): seat 1 $0.51 (the odd cent to the
    losing hand), seat 2 $0.25, seats 3 and 4 $0.12 each = $1.00; § 637a.15(g): paid at the
    table by finance, each player against identification, each with a line to sign."""
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_four(dealer, setup["table"])
    hand = play_bad_beat(dealer, setup["table"])["round_id"]
    projections.catch_up("jackpot_funds")
    supervisor, finance = staff("poker_shift_supervisor"), staff("finance")
    _ok(as_actor(supervisor), "bad-beat/bad-beats/verify/", {"hand_id": hand})
    ids = [{"seat": s, "name": n, "identification": i} for s, n, i in (
        (1, "Ann Lee", "PA DL 1111"), (2, "Bo Kim", "PA DL 2222"),
        (3, "Cy Ray", "Passport 3333"), (4, "Di Fox", "NJ DL 4444"))]
    _ok(as_actor(finance), "bad-beat/bad-beats/pay/",
        {"hand_id": hand, "payees": ids, "where": "table"})
    r = client_of(finance).get(f"/console/print/jackpots/bad-beat/bad-beats/{hand}/")
    assert r.status_code == 200
    text = text_of(r.content.decode())
    assert "Bad Beat payout record: bad-beat" in text and "Payout $1.00" in text
    assert "losing_hand 1 $0.51 Ann Lee, PA DL 1111 signature" in text
    assert "winning_hand 2 $0.25 Bo Kim, PA DL 2222" in text
    assert "table_share 3 $0.12 Cy Ray" in text and "table_share 4 $0.12 Di Fox" in text
    assert re.search(rf"Poker shift supervisor: verified the Bad Beat hand [^()]*"
                     rf"\(§ 637a.15\(f\)\) Signature Name: {supervisor.username} ", text)
    assert re.search(rf"Paid by: paid the payout at the table \(§ 637a.15\(g\)\) Signature "
                     rf"Name: {finance.username} ", text)
    assert "pending adjustment (§ 637a.15(f)(1))" in text


def test_a_role_that_does_not_read_the_funds_is_403_and_another_property_404(
        room, make_staff: Callable) -> None:
    c = _ok(room["api_floor"], "bad-beat/counts/open/", {"place": "cage"})["count_id"]
    url = f"/console/print/jackpots/bad-beat/counts/{c}/"
    assert client_of(room["people"]["floor"]).get(url).status_code == 200
    # security reads a count (it carries the boxes) but not the High Hand slips
    security = room["people"]["security"]
    assert client_of(security).get(url).status_code == 200
    assert client_of(security).get(
        "/console/print/jackpots/high-hand/high-hands/2026-11-25T20:00/").status_code == 403
    other = property_register(licence_number="PA-OTHER-JP", name="Other Casino",
                              system="test")
    cashier = actor_of(make_staff("cashier", property=other))
    assert client_of(cashier).get(url).status_code == 404


def test_an_unknown_hand_or_count_is_404(room) -> None:
    c = client_of(room["people"]["cashier"])
    assert c.get("/console/print/jackpots/bad-beat/counts/nope/").status_code == 404
    assert c.get("/console/print/jackpots/bad-beat/bad-beats/"
                 "00000000-0000-0000-0000-000000000000/").status_code == 404
    assert c.get("/console/print/jackpots/no-such-fund/counts/x/").status_code == 404


@pytest.mark.browser
def test_the_jackpot_count_and_tracking_slip_each_fit_one_letter_page(
        room, request: pytest.FixtureRequest) -> None:
    """The count sheet and the High Hand Tracking Slip: one US Letter page each, portrait,
    every text black, no serious axe violation (tests/finance/test_printables_letter.py)."""
    from tests.finance.test_printables_letter import LETTER_PORTRAIT_PT, letter_pages

    p = room["people"]
    c = _ok(room["api_floor"], "bad-beat/counts/open/", {"place": "cage"})["count_id"]
    _ok(room["api_floor"], "high-hand/high-hands/record/", {
        "table_id": str(room["table"].pk), "seat": 2,
        "cards": ["Ks", "Kd", "Kh", "5c", "5d"],
        "player": {"name": "Bo Kim", "phone": "555-0102"}, "dealer": p["dealer"].username})
    period = HighHandSlip.objects.get().period
    reader = client_of(p["finance"])
    pages = {"count": reader.get(f"/console/print/jackpots/bad-beat/counts/{c}/"),
             "tracking slip": reader.get(
                 f"/console/print/jackpots/high-hand/high-hands/{period}/")}
    pages = {k: r.content.decode() for k, r in pages.items() if r.status_code == 200}
    assert len(pages) == 2
    browser = request.getfixturevalue("browser")
    for what, html in pages.items():
        assert letter_pages(browser, html) == [LETTER_PORTRAIT_PT], what


def test_the_jackpot_records_page_links_each_printable(room) -> None:
    """``/console/jackpots/`` (jackpots.console_funds): a High Hand period and a box count
    of the room, each linked to its printable, which opens; security, who reads the counts
    but not the funds (COUNT_READERS, FUND_READERS), sees the counts only; a cashier of
    another property sees none of it."""
    p = room["people"]
    _ok(room["api_floor"], "high-hand/high-hands/record/", {
        "table_id": str(room["table"].pk), "seat": 4,
        "cards": ["Ks", "Kd", "Kh", "5c", "5d", "2s", "9h"],
        "player": {"name": "Ann Lee", "phone": "555-0104"}, "dealer": p["dealer"].username})
    count = _ok(room["api_floor"], "bad-beat/counts/open/", {"place": "cage"})["count_id"]
    period = HighHandSlip.objects.get().period
    finance = client_of(p["finance"])
    page = finance.get("/console/jackpots/")
    assert page.status_code == 200
    html = page.content.decode()
    slip_url = f"/console/print/jackpots/high-hand/high-hands/{period}/"
    count_url = f"/console/print/jackpots/bad-beat/counts/{count}/"
    assert f'href="{slip_url}"' in html and f'href="{count_url}"' in html
    assert "High Hand Tracking Slip" in html and "Box count sheet" in html
    assert finance.get(slip_url).status_code == 200
    assert finance.get(count_url).status_code == 200
    assert 'href="/console/jackpots/"' in html  # the nav's Jackpot records
    security = client_of(p["security"]).get("/console/jackpots/").content.decode()
    assert count_url in security and slip_url not in security
    assert "High Hand periods" not in security
