"""The poker floor's read API (issue 24): ``GET /api/v1/waitlists/`` — every list of the
caller's property with its players in calling order and its open calls, names, phones
and e-mail for the floor's roles only — and the roles and property scoping of
``GET /api/v1/waitlists/{id}/fairness/`` (its content: tests/poker_floor/test_fairness.py)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def _lists(as_actor: Any, actor: Any) -> Any:
    return as_actor(actor).get("/api/v1/waitlists/")


def test_the_floor_reads_the_lists_with_each_players_details(holdem, as_actor) -> None:
    r = _lists(as_actor, holdem.floor["floor"])
    assert r.status_code == 200
    [wl] = r.json()
    assert (wl["id"], wl["name"], wl["kind"]) == (str(holdem.waitlist.pk),
                                                   "$4.00/$8.00 fixed limit Hold'em",
                                                   "waitlist")
    assert (wl["tables_open"], wl["waiting_count"], wl["calls"]) == (2, 3, [])
    assert [(e["position"], e["initials"], e["name"], e["phone"]) for e in wl["entries"]] == [
        (1, "A.L.", "Ann Lee", "+12015550123"), (2, "B.S.", "Bob Stone", "+12125550199"),
        (3, "C.Y.", "Cy Young", "+16175550142")]
    assert wl["entries"][0]["entry"] == str(holdem.entries[0].pk)


@pytest.mark.parametrize("who", ("dealer", "compliance", "security"))
def test_other_readers_get_initials_and_no_name_phone_or_email(holdem, as_actor, who: str
                                                               ) -> None:
    r = _lists(as_actor, holdem.floor[who])
    assert r.status_code == 200
    body = r.content.decode()
    for personal in ("Ann", "Bob", "Cy Young", "+1201", "+1212", "+1617", '"name"',
                     '"phone"', '"email"'):
        assert personal not in body.replace('"name":"$4.00/$8.00 fixed limit Hold\'em"', "")
    assert [e["initials"] for e in r.json()[0]["entries"]] == ["A.L.", "B.S.", "C.Y."]


@pytest.mark.parametrize("who", ("cashier", "finance", "admin", "count_team", "nobody"))
def test_the_lists_are_refused_to_other_roles(holdem, as_actor, who: str) -> None:
    r = _lists(as_actor, holdem.floor[who])
    assert r.status_code == 403
    assert r["Content-Type"].startswith("application/problem+json")


def test_another_propertys_lists_are_not_given(holdem, as_actor, other_property, make_floor
                                               ) -> None:
    theirs = make_floor(other_property)
    assert _lists(as_actor, theirs["floor"]).json() == []


@pytest.mark.parametrize("who", ("dealer", "security", "cashier"))
def test_the_fairness_record_is_refused_to_other_roles(holdem, as_actor, who: str) -> None:
    r = as_actor(holdem.floor[who]).get(f"/api/v1/waitlists/{holdem.waitlist.pk}/fairness/")
    assert r.status_code == 403


def test_another_propertys_fairness_record_is_not_found(holdem, as_actor, other_property,
                                                        make_floor) -> None:
    theirs = make_floor(other_property)
    r = as_actor(theirs["compliance"]).get(f"/api/v1/waitlists/{holdem.waitlist.pk}/fairness/")
    assert r.status_code == 404
    assert r.json()["code"] == "waitlist_not_found"


@pytest.mark.parametrize("day", ("yesterday", "2026-13-01", "26-11-2026"))
def test_a_day_that_is_not_a_date_is_a_problem(holdem, as_actor, day: str) -> None:
    r = as_actor(holdem.floor["compliance"]).get(
        f"/api/v1/waitlists/{holdem.waitlist.pk}/fairness/", {"day": day})
    assert r.status_code == 400
    assert r["Content-Type"].startswith("application/problem+json")
    assert (r.json()["code"], r.json().get("field")) == ("invalid_gaming_day", "day")
