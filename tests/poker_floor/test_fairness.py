"""The fairness record (issue 24, item 9): a list's steps of one gaming day reconstructed
from its events — additions, a call out of turn with its reason and the players it passed
over, a call in turn, a timeout with the new position, the seat offered again, a page
that failed, a seat — each with its time, who recorded it, the player's initials (never a
name) and their place on the list then; worked by hand from a sequence of commands.

The sequence (the ``holdem`` fixture: tables T1 and T2, seat 9 free at each; Ann Lee, Bob
Stone, Cy Young listed in that order), every step on today's gaming day:

1. Di Ross is added: order Ann, Bob, Cy, Di (Di at 4).
2. The floor calls Cy (position 3) to T1 seat 9, out of turn "asked for T1's dealer":
   Ann (1) and Bob (2) are passed over.
3. Cy's page fails: Cy gave a phone and no SMS service is configured (no channel).
4. The floor calls the next player to T2 seat 9: Ann (1), in turn (Cy is called already).
5. Ann does not come (a "minute" is a millisecond in the test): the posted
   procedure moves her 3 places down from 1: Bob, Cy, Di, Ann (Ann at 4); T2 seat 9 is
   offered again to the first eligible player, Bob (1), in turn.
6. The dealer seats Cy at T1 seat 9: Cy leaves the list: Bob, Di, Ann.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import time

import pytest
from django.utils import timezone

from poker_floor import fairness
from poker_floor.services import calls
from poker_floor.services.pages import call_page
from tests.console.conftest import client_of, text_of
from tests.poker_floor._helpers import BUY_IN, event_count

pytestmark = pytest.mark.django_db

REASON = "asked for T1's dealer"


@pytest.fixture
def day(holdem, settings) -> Any:
    """The sequence of the module's docstring, played through the services."""
    # a "minute" of a millisecond: a call is due at once, the timeout may follow
    settings.FLOOR_CALL_MINUTE_SECONDS = 0.001
    settings.FLOOR_AUTO_CALL = True
    f = holdem.floor
    t1, t2 = holdem.tables
    ann, bob, cy = holdem.entries
    di = f.list_player(holdem.waitlist, "Di Ross")
    cy_call = calls.call_player(actor=f["floor"], waitlist_id=holdem.waitlist.pk,
                                entry_id=cy.pk, table_id=t1.pk, seat=9, reason=REASON)
    call_page(cy_call.pk)
    ann_call = calls.call_next(actor=f["floor"], waitlist_id=holdem.waitlist.pk,
                               table_id=t2.pk, seat=9)
    time.sleep(max(0.0, (ann_call.deadline_at - timezone.now()).total_seconds()))
    calls.call_timeout(actor=f["supervisor"], call_id=ann_call.pk)
    calls.call_seat(actor=f["dealer"], call_id=cy_call.pk, buy_in_cents=BUY_IN,
                    paid_with="cash")
    return {"ann": str(ann.pk), "bob": str(bob.pk), "cy": str(cy.pk), "di": str(di.pk),
            "t1": t1, "t2": t2, "floor": f, "waitlist": holdem.waitlist}


def _record(day: dict, who: str = "compliance", **kw: Any) -> dict[str, Any]:
    f = day["floor"]
    return fairness.fairness_record(day["waitlist"], f[who].gaming_day(), actor=f[who], **kw)


def _row(s: fairness.Step) -> tuple:
    return (s.kind, s.player.initials if s.player else None,
            s.player.position if s.player else None)


def test_every_step_of_the_day_in_order_with_the_players_place_then(day) -> None:
    steps = _record(day)["steps"]
    assert [_row(s) for s in steps] == [
        ("list", None, None),                       # the list opened (the fixture)
        ("added", "A.L.", 1), ("added", "B.S.", 2), ("added", "C.Y.", 3),
        ("added", "D.R.", 4),                       # 1.
        ("called", "C.Y.", 3),                      # 2. out of turn
        ("passed", "A.L.", 1), ("passed", "B.S.", 2),
        ("page failed", "C.Y.", 3),                 # 3.
        ("called", "A.L.", 1),                      # 4. in turn
        ("timed out", "A.L.", 4),                   # 5. moved down 3 places from 1
        ("called", "B.S.", 1),                      #    the seat offered again
        ("seated", "C.Y.", None),                   # 6. off the list
    ]


def test_the_out_of_turn_call_names_its_reason_and_the_players_passed_over(day) -> None:
    steps = _record(day)["steps"]
    call = steps[5]
    assert (call.in_turn, call.reason, call.table_name, call.seat) == (
        False, REASON, day["t1"].name, 9)
    assert [(p.initials, p.position) for p in call.passed] == [("A.L.", 1), ("B.S.", 2)]
    assert call.text == (f"C.Y. (position 3) called out of turn ({REASON}) to seat 9 at "
                         f"{day['t1'].name}; passed over: A.L. (position 1), B.S. (position 2).")
    assert (call.actor, call.role) == (day["floor"]["floor"].username, "floorperson")


def test_i_was_skipped_is_answered_by_the_pass_naming_who_was_called_instead_and_why(day
                                                                                    ) -> None:
    steps = _record(day, entry=day["ann"])["steps"]
    assert [_row(s) for s in steps] == [("added", "A.L.", 1), ("called", "C.Y.", 3),
                                        ("passed", "A.L.", 1), ("called", "A.L.", 1),
                                        ("timed out", "A.L.", 4)]
    passed = steps[2]
    assert (passed.called_instead.initials, passed.called_instead.position, passed.reason) == (
        "C.Y.", 3, REASON)
    assert passed.text == (f"A.L. (position 1) passed over: C.Y. called instead to seat 9 at "
                           f"{day['t1'].name} ({REASON}).")


def test_the_timeout_gives_the_new_position_and_the_misses(day) -> None:
    timed_out = _record(day)["steps"][10]
    assert (timed_out.moved_to, timed_out.missed, timed_out.by) == (
        4, 1, f"{day['floor']['supervisor'].username} (poker shift supervisor)")
    assert timed_out.text == "A.L. did not come in time (call missed 1 time): moved down to " \
                             "position 4."


def test_the_list_at_the_start_and_end_of_the_day(day) -> None:
    record = _record(day)
    assert record["waiting_at_start"] == []
    assert [(w.initials, w.position) for w in record["waiting_at_end"]] == [
        ("B.S.", 1), ("D.R.", 2), ("A.L.", 3)]


def test_another_day_shows_no_step_but_the_list_as_it_stood(day) -> None:
    today = day["floor"]["compliance"].gaming_day()
    f = day["floor"]
    before = fairness.fairness_record(day["waitlist"], today - timedelta(days=1),
                                      actor=f["compliance"])
    after = fairness.fairness_record(day["waitlist"], today + timedelta(days=1),
                                     actor=f["compliance"])
    assert (before["steps"], before["waiting_at_start"]) == ([], [])
    assert after["steps"] == []
    assert [(w.initials, w.position) for w in after["waiting_at_start"]] == [
        ("B.S.", 1), ("D.R.", 2), ("A.L.", 3)]


def test_the_record_never_names_a_player(day) -> None:
    record = _record(day)
    words = " ".join(s.text for s in record["steps"])
    for name in ("Ann", "Lee", "Bob", "Stone", "Cy Young", "Di", "Ross", "+1"):
        assert name not in words


def test_reading_the_record_appends_nothing(day) -> None:
    before = event_count()
    _record(day)
    assert event_count() == before


def test_the_api_gives_the_same_steps(day, as_actor) -> None:
    f = day["floor"]
    r = as_actor(f["compliance"]).get(f"/api/v1/waitlists/{day['waitlist'].pk}/fairness/",
                                      {"day": f["compliance"].gaming_day().isoformat()})
    assert r.status_code == 200
    steps = r.json()["steps"]
    assert [(s["kind"], (s["player"] or {}).get("initials"),
             (s["player"] or {}).get("position")) for s in steps][4:8] == [
        ("added", "D.R.", 4), ("called", "C.Y.", 3), ("passed", "A.L.", 1),
        ("passed", "B.S.", 2)]
    assert steps[6]["called_instead"] == {"entry": day["cy"], "initials": "C.Y.", "position": 3}
    assert steps[5]["passed"] == [{"entry": day["ann"], "initials": "A.L.", "position": 1},
                                  {"entry": day["bob"], "initials": "B.S.", "position": 2}]
    assert [w["initials"] for w in r.json()["waiting_at_end"]] == ["B.S.", "D.R.", "A.L."]
    body = r.content.decode()
    assert "Ann" not in body and "Young" not in body


def test_the_api_narrows_to_one_player(day, as_actor) -> None:
    f = day["floor"]
    r = as_actor(f["supervisor"]).get(f"/api/v1/waitlists/{day['waitlist'].pk}/fairness/",
                                      {"entry": day["bob"]})
    assert [s["kind"] for s in r.json()["steps"]] == ["added", "called", "passed", "called"]


def test_the_page_shows_every_step(day) -> None:
    f = day["floor"]
    r = client_of(f["compliance"]).get(f"/console/poker/lists/{day['waitlist'].pk}/fairness/")
    assert r.status_code == 200
    text = text_of(r.content.decode())
    assert "13 steps on" in text
    assert (f"Called C.Y. 3 C.Y. (position 3) called out of turn ({REASON}) to seat 9 at "
            f"{day['t1'].name}; passed over: A.L. (position 1), B.S. (position 2).") in text
    assert (f"Passed A.L. 1 A.L. (position 1) passed over: C.Y. called instead to seat 9 at "
            f"{day['t1'].name} ({REASON}).") in text
    assert "Timed out A.L. 4 A.L. did not come in time" in text
    assert "Page failed C.Y. 3 The page to C.Y. failed: no channel." in text
    assert f"Seated C.Y. — C.Y. seated at seat 9 at {day['t1'].name}." in text
    assert "Waiting at the end of the day's steps: 1. B.S., 2. D.R., 3. A.L." in text


def test_the_page_narrows_to_one_player_and_a_bad_day_is_a_sentence(day) -> None:
    f = day["floor"]
    c = client_of(f["floor"])
    url = f"/console/poker/lists/{day['waitlist'].pk}/fairness/"
    text = text_of(c.get(url, {"entry": day["bob"]}).content.decode())
    assert "Only the steps of B.S.: their own, and every call that passed them over." in text
    assert "4 steps on" in text
    bad = c.get(url, {"day": "26/11/2026"})
    assert bad.status_code == 400
    assert "The day is a date, YYYY-MM-DD." in text_of(bad.content.decode())


def test_an_erased_player_is_shown_as_erased(day) -> None:
    from casino.personal_data import personal_data_erase

    f = day["floor"]
    personal_data_erase(day["ann"], actor=f["compliance"], reason="the player asked")
    steps = _record(day, entry=day["ann"])["steps"]
    assert [_row(s) for s in steps] == [("added", "erased", 1), ("called", "C.Y.", 3),
                                        ("passed", "erased", 1), ("called", "erased", 1),
                                        ("timed out", "erased", 4)]
