"""The High Hand slip's player and payee (§ 637a.16(f)(1), (h)) and the Bad Beat payout's
payees (§ 637a.15(g)) are personal data (issue 24 item 8): sealed in the events under a
key of the slip's or the payout's own, kept for the retention period from the end of the
record (the slip not awarded at the period's close, or paid; the payout made), then
erased by the beat task. After the erasure every read (the API, the printables, the
console's history) says "erased", while the events, their chain and their seals are as
they were and ``verify_events`` passes."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from casino import personal_data
from casino.domain.errors import ConflictError
from casino.eventstore import projections
from casino.eventstore.seals import seal_now
from casino.models import Event, PersonalDataKey
from jackpots import services
from jackpots.models import BadBeatHit, Fund, HighHandSlip
from tests.console.conftest import client_of, text_of
from tests.jackpots._hands import play_bad_beat, seat_four

pytestmark = pytest.mark.django_db
API = "/api/v1/jackpot-funds/"
PAYEES = [{"seat": 1, "name": "Ann Lee", "identification": "PA DL 1111"},
          {"seat": 2, "name": "Bo Kim", "identification": "PA DL 2222"},
          {"seat": 3, "name": "Cy Ray", "identification": "Passport 3333"},
          {"seat": 4, "name": "Di Fox", "identification": "NJ DL 4444"}]
#: every detail a person gave, none of which may be read in clear after the erasure
DETAILS = ["Ann Lee", "Bo Kim", "Cy Ray", "Di Fox", "PA DL 1111", "PA DL 2222",
           "Passport 3333", "NJ DL 4444", "Eve Park", "555-0104", "Gus Hale", "555-0102",
           "PA DL 7777"]
#: the product's defaults: five years (and a leap day) from the end of the record
FIVE_YEARS = timedelta(days=1826)


def _ok(client: Any, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = client.post(API + path, body, format="json")
    assert r.status_code in (200, 201), r.json()
    return r.json()


@pytest.fixture
def paid(crew: dict, poker_table: Callable, as_actor: Callable, staff: Callable) -> dict:
    """A Bad Beat at the example Hold'em table verified and paid to four players; two
    High Hand slips in one period (Eve Park's full house, then Gus Hale's four nines),
    the period closed and the award paid to Gus Hale at the cage."""
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_four(dealer, setup["table"])
    hand = play_bad_beat(dealer, setup["table"])["round_id"]
    projections.catch_up("jackpot_funds")
    people = {"supervisor": staff("poker_shift_supervisor"), "finance": staff("finance"),
              "floor": crew["floor"], "compliance": staff("compliance"),
              "dealer": crew["dealer"]}
    api = {k: as_actor(v) for k, v in people.items()}
    _ok(api["supervisor"], "bad-beat/bad-beats/verify/", {"hand_id": hand})
    _ok(api["finance"], "bad-beat/bad-beats/pay/",
        {"hand_id": hand, "payees": PAYEES, "where": "table"})
    slip = {"table_id": str(setup["table"].pk), "dealer": people["dealer"].username}
    _ok(api["floor"], "high-hand/high-hands/record/", {
        **slip, "seat": 4, "cards": ["Ks", "Kd", "Kh", "5c", "5d"],
        "player": {"name": "Eve Park", "phone": "555-0104"}})
    r = _ok(api["floor"], "high-hand/high-hands/record/", {
        **slip, "seat": 2, "cards": ["9c", "9s", "9h", "9d", "2h"],
        "player": {"name": "Gus Hale", "phone": "555-0102"}})
    closed_at = datetime.fromisoformat(r["period_end"]) + timedelta(seconds=1)
    assert services.high_hand_periods_close_due(now=closed_at) == 1
    before_pay = timezone.now()
    _ok(api["finance"], "high-hand/high-hands/pay/", {
        "period": r["period"], "slip": 2, "name": "Gus Hale", "identification": "PA DL 7777"})
    projections.catch_up("jackpot_funds")
    return {"hand": hand, "period": r["period"], "closed_at": closed_at,
            "paid_between": (before_pay, timezone.now()), "people": people, "api": api,
            "table": setup["table"]}


def _slip_subject(number: int) -> Any:
    return HighHandSlip.objects.get(slip=number).personal_subject


def _payout_subject(hand: str) -> Any:
    return BadBeatHit.objects.get(hand_id=hand).payees_subject


def _stored() -> list[tuple]:
    """Each event as the database holds it: its position, hashes and the bytes of its
    data and metadata."""
    with connection.cursor() as cur:
        cur.execute("SELECT position, prev_hash, hash, data::text, metadata::text "
                    "FROM casino_event ORDER BY position" if connection.vendor ==
                    "postgresql" else "SELECT position, prev_hash, hash, data, metadata "
                    "FROM casino_event ORDER BY position")
        return cur.fetchall()


def _digest(rows: list[tuple]) -> str:
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def _reads(paid: dict) -> str:
    """Everything a person reads about these records: the API's slips and hits, the
    printed slip and payout record, the fund streams' histories, the records page."""
    p, fin = paid["people"], paid["api"]["finance"]
    period = HighHandSlip.objects.get(slip=1).period
    pages = [fin.get(API + "high-hand/high-hands/").content.decode(),
             fin.get(API + "bad-beat/bad-beats/").content.decode()]
    console = client_of(p["finance"])
    for url in (f"/console/print/jackpots/high-hand/high-hands/{period}/",
                f"/console/print/jackpots/bad-beat/bad-beats/{paid['hand']}/",
                "/console/jackpots/"):
        r = console.get(url)
        assert r.status_code == 200, url
        pages.append(text_of(r.content.decode()))
    officer = client_of(p["compliance"])
    for fund in ("high-hand", "bad-beat"):
        stream = Fund.objects.get(name=fund).stream_id
        r = officer.get(f"/console/events/stream/{stream}/")
        assert r.status_code == 200
        pages.append(text_of(r.content.decode()))
    return "\n".join(pages)


def test_the_details_are_never_in_clear_in_the_events(paid) -> None:
    stored = "\n".join(f"{data} {meta}" for _, _, _, data, meta in _stored())
    assert [d for d in DETAILS if d in stored] == []


def test_every_read_shows_the_details_while_the_keys_exist(paid) -> None:
    text = _reads(paid)
    assert [d for d in DETAILS if d not in text] == []


def test_each_record_is_kept_from_its_end(paid) -> None:
    """Eve Park's slip was not awarded: its record ended when the period closed. Gus
    Hale's ended when he was paid; the Bad Beat payout's when it was made."""
    keys = {k.subject: k for k in PersonalDataKey.objects.all()}
    assert keys[_slip_subject(1)].retain_until == paid["closed_at"] + FIVE_YEARS
    low, high = paid["paid_between"]
    assert low + FIVE_YEARS <= keys[_slip_subject(2)].retain_until <= high + FIVE_YEARS
    payout = keys[_payout_subject(paid["hand"])]
    # (the key made in the payment's transaction, a moment before its retention is read)
    assert abs(payout.retain_until - payout.created_at - FIVE_YEARS) < timedelta(seconds=1)
    assert {k.kind for k in keys.values()} == {"high_hand_slip", "bad_beat_payout"}


def test_after_the_retention_the_details_are_gone_from_every_read_and_the_log_is_intact(
        paid, capsys) -> None:  # noqa: ANN001
    seal_now()
    before = _stored()
    fingerprint = _digest(before)
    # a day past the latest retention: each of the three records is erased, once
    later = paid["paid_between"][1] + FIVE_YEARS + timedelta(days=1)
    assert personal_data.erase_due(later) == 3
    assert personal_data.erase_due(later) == 0
    # the events stored before are byte for byte the same; three erasures follow them
    after = _stored()
    assert _digest(after[:len(before)]) == fingerprint
    erased = Event.objects.filter(type="PersonalDataErased")
    assert sorted(e.data["kind"] for e in erased) == [
        "bad_beat_payout", "high_hand_slip", "high_hand_slip"]
    assert len(after) == len(before) + 3
    seal_now()
    call_command("verify_events", "--no-progress")
    assert f"ok: {len(after)} events in " in capsys.readouterr().out
    # gone from every read, at once (the follower's rows were blanked with the erasure)
    text = _reads(paid)
    assert [d for d in DETAILS if d in text] == []
    slips = paid["api"]["finance"].get(API + "high-hand/high-hands/").json()
    assert [(s["slip"], s["player_name"], s["player_phone"]) for s in slips] == [
        (1, "erased", "erased"), (2, "erased", "erased")]
    [hit] = paid["api"]["finance"].get(API + "bad-beat/bad-beats/").json()
    assert [(p["seat"], p["amount_cents"], p["name"], p["identification"])
            for p in hit["payees"]] == [(1, 51, "erased", "erased"), (2, 25, "erased", "erased"),
                                        (3, 12, "erased", "erased"), (4, 12, "erased", "erased")]


def test_a_rebuild_after_the_erasure_finds_nothing_to_unseal(paid) -> None:
    personal_data.erase_due(paid["paid_between"][1] + FIVE_YEARS + timedelta(days=1))

    def rows() -> tuple:
        return (sorted(HighHandSlip.objects.values_list(
                    "slip", "player_name", "player_phone", "paid_identification",
                    "personal_erased")),
                list(BadBeatHit.objects.values_list("payees", "personal_erased")))

    erased = rows()
    assert erased[0] == [(1, "erased", "erased", "", True),
                         (2, "erased", "erased", "erased", True)]
    projections.rebuild("jackpot_funds")
    assert rows() == erased


def test_a_compliance_officer_erases_one_slip_on_the_players_request(paid) -> None:
    personal_data.personal_data_erase(_slip_subject(1), actor=paid["people"]["compliance"],
                                      reason="the player asked at the desk")
    r = paid["api"]["finance"].get(API + "high-hand/high-hands/").json()
    assert [(s["slip"], s["player_name"]) for s in r] == [(1, "erased"), (2, "Gus Hale")]


def test_an_erased_slip_records_nothing_more_about_its_player(
        crew: dict, poker_table: Callable, as_actor: Callable, staff: Callable) -> None:
    """A player who asked for the erasure before collecting the award: the payment names
    them, which the erased slip can no longer hold (409), and nothing is appended."""
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_four(dealer, setup["table"])
    play_bad_beat(dealer, setup["table"])
    projections.catch_up("jackpot_funds")
    r = _ok(as_actor(crew["floor"]), "high-hand/high-hands/record/", {
        "table_id": str(setup["table"].pk), "dealer": crew["dealer"].username, "seat": 2,
        "cards": ["9c", "9s", "9h", "9d", "2h"],
        "player": {"name": "Gus Hale", "phone": "555-0102"}})
    services.high_hand_periods_close_due(
        now=datetime.fromisoformat(r["period_end"]) + timedelta(seconds=1))
    personal_data.personal_data_erase(_slip_subject(1), actor=staff("compliance"),
                                      reason="asked")
    finance = staff("finance")
    before = Event.objects.count()
    with pytest.raises(ConflictError) as refused:
        services.high_hand_pay(actor=finance, fund="high-hand",
                               period=r["period"], slip=1, name="Gus Hale",
                               identification="PA DL 7777")
    assert (refused.value.code, Event.objects.count()) == ("personal_data_erased", before)
