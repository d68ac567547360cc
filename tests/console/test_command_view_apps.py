"""The console form and the API refuse alike, app by app (issue 23, "Bad input"): each
app's two-person rule sent to the API and to the form gives the same problem code (the
API's ``code``, the form's ``data-code``) and appends nothing; a forged form for another
property's row of a command that carries no stream version (so no version check can
catch it first) is a 404 and appends nothing. Everything through the real services on
PostgreSQL; the people and rows are the tables', poker room's and jackpots' fixtures."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from casino.actors import Actor
from casino.declared import declared
from casino.eventstore.models import Event
from casino.services import property_register
from tests.console.conftest import verified_login
from tests.jackpots.test_console_tasks import IDS, room  # noqa: F401  (the fixture)
from tests.poker_room.conftest import as_actor, poker_table  # noqa: F401  (fixtures)
from tests.tables.conftest import (  # noqa: F401  (fixtures)
    crew,
    open_table,
    put_rules_in_effect,
    staff,
)

pytestmark = pytest.mark.postgres


def _user(actor: Actor) -> Any:
    return get_user_model().objects.get(pk=actor.user_id)


def _form(actor: Actor) -> Client:
    return verified_login(Client(), _user(actor))


def _api(actor: Actor) -> APIClient:
    c = APIClient()
    c.force_authenticate(_user(actor))
    return c


def _hidden(response: Any) -> dict[str, str]:
    assert response.status_code == 200, response.content.decode()[:500]
    return dict(re.findall(r'<input type="hidden" name="(_\w+)" value="([^"]*)"',
                           response.content.decode()))


def _api_path(name: str, pk: Any) -> str:
    return "/api/v1/" + re.sub(r"<[^>]+>", str(pk), declared(name).path)


# --- each app's two-person rule ------------------------------------------------------------
# each case: (who, command, row, form fields, API body); the refusal changes nothing, so
# the API and the form are sent the same row

def _rules_approved_by_the_submitter(crew: dict, room: dict, staff: Callable) -> tuple:
    """tables, § 601a.2 (tables.services.rules.rules_approve): the officer who submitted
    a version does not approve it."""
    from tables.domain.rules_options import example_options
    from tables.services import rules

    officer = staff("compliance")
    rs = rules.rules_draft(actor=officer, game="lunar-poker-589",
                           options=example_options("lunar-poker-589"))
    rules.rules_submit(actor=officer, rules_id=rs.pk)
    return officer, "rules_approve", rs.pk, {}, {}


def _grant_approved_by_who_asked(crew: dict, room: dict, staff: Callable) -> tuple:
    """casino (casino.services.staff.role_grant_approve): a role request is approved by
    a second person, never by who asked."""
    from casino.services.staff import role_grant_request

    asker = crew["admin"]
    grant = role_grant_request(actor=asker, staff_id=room["finance"].user_id,
                               role="cashier", reason="covers the cage")
    return asker, "role_grant_approve", grant.pk, {}, {}


def _bad_beat_paid_by_its_verifier(crew: dict, room: dict, staff: Callable) -> tuple:
    """jackpots, § 637a.15(g): the person who verified a Bad Beat does not pay it."""
    from jackpots import services

    both = staff("poker_shift_supervisor", "cashier")
    services.bad_beat_verify(actor=both, fund="bad-beat", hand_id=room["hand"])
    form = {"hand_id": str(room["hand"]), "where": "cage", "_rows-payees": str(len(IDS))}
    for i, p in enumerate(IDS):
        form |= {f"payees-{i}-{k}": str(v) for k, v in p.items()}
    return (both, "bad_beat_pay", "bad-beat", form,
            {"hand_id": str(room["hand"]), "where": "cage", "payees": IDS})


CASES = {"tables": _rules_approved_by_the_submitter, "casino": _grant_approved_by_who_asked,
         "jackpots": _bad_beat_paid_by_its_verifier}


@pytest.mark.parametrize("app", sorted(CASES))
def test_a_two_person_refusal_has_the_apis_code_in_the_form_and_appends_nothing(
        app: str, crew: dict, room: dict, staff: Callable) -> None:  # noqa: F811
    who, name, row, form, body = CASES[app](crew, room, staff)
    before = Event.objects.count()
    answer = _api(who).post(_api_path(name, row), body, format="json")
    assert answer.status_code == 409, answer.content
    code = answer.json()["code"]
    assert Event.objects.count() == before
    c = _form(who)
    url = f"/console/do/{name}/{row}/"
    hidden = _hidden(c.get(url))
    before = Event.objects.count()
    r = c.post(url, {**hidden, **form})
    html = r.content.decode()
    assert r.status_code == 409, html[:3000]
    assert set(re.findall(r'data-code="(\w+)"', html)) == {code}  # the API's, only
    assert "Nothing was recorded." in html
    assert Event.objects.count() == before


# --- a forged form for another property's row ----------------------------------------------

def _forged(room: dict) -> dict[str, tuple[str, str, Any, dict]]:
    """app → (role, command, this property's row, form fields): commands with no stream
    version, so only the service's scoping (casino.scoping) stands between the form and
    another property's row."""
    from casino.services.staff import role_grant_request

    grant = role_grant_request(actor=room["crew"]["admin"], staff_id=room["finance"].user_id,
                               role="cashier", reason="covers the cage")
    table = room["table"]
    return {
        "finance": ("dealer", "chips_sell", table.pk, {"amount_cents": "20.00"}),
        "poker_room": ("dealer", "seat_player", table.pk,
                       {"seat": "5", "buy_in_cents": "100.00", "paid_with": "cash"}),
        "casino": ("compliance", "role_grant_approve", grant.pk, {}),
        "jackpots": ("poker_shift_supervisor", "bad_beat_verify", "bad-beat",
                     {"hand_id": str(room["hand"])}),
    }


@pytest.mark.parametrize("app", ["casino", "finance", "jackpots", "poker_room"])
def test_a_forged_form_for_another_propertys_row_is_404_and_appends_nothing(
        app: str, room: dict, make_staff: Callable) -> None:  # noqa: F811
    role, name, row, form = _forged(room)[app]
    assert declared(name).stream is None
    other = property_register(licence_number="PA-FORGED-1", name="Elsewhere", system="test")
    c = verified_login(Client(), make_staff(role, property=other))
    before = Event.objects.count()
    r = c.post(f"/console/do/{name}/{row}/", {"_key": str(uuid.uuid4()), **form})
    assert r.status_code == 404, r.content.decode()[:3000]
    assert Event.objects.count() == before
