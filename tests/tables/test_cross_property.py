"""Another property's staff against every operation of the API (issue 11, finding 1).

The operations come from the OpenAPI schema itself, so an endpoint added later is in the
matrix without anyone remembering it: a path parameter the matrix cannot fill fails the
test until it is taught which of property A's rows to aim at. Staff of property B, each
role in turn, aim every read and every command at property A's tables, decks, rounds,
Rules Submissions, staff, role requests and streams. Nothing of A may come back and
nothing of A may change.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.actors import Actor
from casino.eventstore.store import NewEvent, Stream, append
from casino.models import CredentialReset, Event, LoginUnlockRequest, RoleGrant
from casino.roles import Role
from casino.services import credentials, property_register, staff, unlocks
from finance.models import table_day_stream
from tables.demo import deck_ready
from tables.services import rounds
from tests.console.conftest import verified_login  # the second factor given

pytestmark = pytest.mark.django_db
A_LICENCE = "PA-TEST-1"  # the demo_property fixture's


@pytest.fixture
def property_a(crew: dict[str, Actor], open_table: Callable, make_staff: Callable
               ) -> dict[str, Any]:
    """Property A with a table, a deck in play, a round, Rules Submissions, staff and a
    pending role request: every kind of row a URL can name."""
    table = open_table("five-card-hi-lo")
    deck = deck_ready(table, crew["dealer"], crew["floor"], "red", batch="A")
    rnd = rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    newcomer = make_staff(username="a-newcomer")
    grant = staff.role_grant_request(actor=crew["admin"], staff_id=newcomer.pk,
                                     role="floorperson", reason="training done")
    reset = credentials.credential_reset_request(actor=crew["admin"], staff_id=newcomer.pk,
                                                 what="password", reason="forgot it")
    unlock = unlocks.login_unlock_request(actor=crew["admin"], username=newcomer.username,
                                          reason="locked out after the break")
    _a_fund(crew["dealer"], table)
    exception = _an_exception(crew["dealer"], table)
    waitlist, call = _a_list(crew["floor"], open_table("holdem"))
    return {"fund": "bad-beat", "table": str(table.pk), "deck": str(deck.pk),
            "exception": exception, "waitlist": waitlist, "call": call,
            "round": str(rnd.pk),
            "rules": _rules_id(table), "staff": str(crew["dealer"].user_id),
            "grant": str(grant.pk), "stream": table.stream_id,
            "reset": str(reset.pk), "unlock": str(unlock.pk),
            "dealer": crew["dealer"].username,
            "credentials": [a.credential_number for a in crew.values()]}


def _a_list(floor: Actor, holdem: Any) -> tuple[str, str]:
    """A's Hold'em list with Ann Lee on it, called to seat 1 of A's Hold'em table: the
    rows the poker floor's paths name (waitlists/{id}, calls/{id})."""
    from poker_floor.services import calls, lists

    waitlist = lists.waitlist_open(actor=floor, game="holdem")
    lists.player_list(actor=floor, waitlist_id=waitlist.pk, name="Ann Lee")
    call = calls.call_next(actor=floor, waitlist_id=waitlist.pk, table_id=holdem.pk, seat=1)
    return str(waitlist.pk), str(call.pk)


def _a_fund(dealer: Actor, table: Any) -> None:
    """A's jackpot fund bad-beat, with $1 in it from one pot (the poker room's event)."""
    import uuid

    from casino.eventstore import projections
    from casino.eventstore.store import NewEvent, append

    meta = dealer.metadata(role="dealer", table=str(table.pk))
    hand = str(uuid.uuid4())
    append(("round", f"round-{hand}"), 0, [NewEvent("JackpotContributed", {
        "fund": "bad-beat", "kind": "bad_beat", "pot": 0, "amount_cents": 100,
        "table_id": str(table.pk), "gaming_day": meta["gaming_day"], "hand_id": hand})], meta)
    projections.catch_up("jackpot_funds")


def _an_exception(actor: Actor, table: Any) -> str:
    """A finance exception of property A's table (a drop short by $10). Appended as the
    close records one: the close itself waits for the gaming day to end."""
    exception_id = str(uuid.uuid4())
    day = actor.gaming_day().isoformat()
    append(Stream("finance_table_day", table_day_stream(table.pk, day)), 0, [NewEvent(
        "VarianceRecorded", {"exception_id": exception_id, "figure": "drop",
                             "expected_cents": 2000, "counted_cents": 1000,
                             "variance_cents": -1000})],
        actor.metadata(role="finance", table=table.pk, gaming_day=day))
    return exception_id


def _rules_id(table: Any) -> str:
    from tables.models import RulesSubmission

    return str(RulesSubmission.objects.filter(property=table.property, game=table.game)
               .values_list("pk", flat=True).first())


@pytest.fixture
def property_b_staff(make_staff: Callable) -> dict[str, APIClient]:
    """Property B's staff, one login per role (and one group-wide officer kept apart)."""
    other = property_register(licence_number="PA-OTHER-2", name="Other Casino", system="test")
    clients = {}
    for role in Role:
        c = APIClient()
        c.force_authenticate(make_staff(role.value, property=other))
        clients[role.value] = c
    return clients


# Which of A's rows a path aims at, by the path's first segment after /api/v1/.
TARGET = {"rules-submissions": "rules", "tables": "table", "decks": "deck", "rounds": "round",
          "staff": "staff", "role-grants": "grant", "streams": "stream",
          "poker-tables": "table", "hands": "round", "jackpot-funds": "fund",
          "finance/tables": "table", "finance/exceptions": "exception",
          "waitlists": "waitlist", "calls": "call", "credential-resets": "reset",
          "logins": "unlock"}
#: path parameters that name no row: a gaming day, a report's name (a property's own day
#: or report answers its own staff)
NOT_ROWS = {"day": lambda: "2026-01-02", "name": lambda: "master-game"}


def _operations() -> list[tuple[str, str, dict]]:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    ops = []
    for path, item in schema["paths"].items():
        for method, op in item.items():
            if method in ("get", "post", "patch", "put", "delete"):
                ops.append((path, method, op))
    return ops, schema


def _fill_path(path: str, ids: dict[str, Any]) -> str:
    params = re.findall(r"{([^}]+)}", path)
    if not params:
        return path
    path = re.sub(r"{(day|name)}", lambda m: NOT_ROWS[m.group(1)](), path)
    if not _names_a_row(path):
        return path
    segments = path.removeprefix("/api/v1/").split("/")
    first = "/".join(segments[:2]) if segments[0] == "finance" else segments[0]
    assert first in TARGET, (f"{path}: the cross-property matrix does not know which of "
                             f"property A's rows {first}/ names; add it to TARGET")
    return re.sub(r"{[^}]+}", ids[TARGET[first]], path)


def _names_a_row(path: str) -> bool:
    return any(p not in NOT_ROWS for p in re.findall(r"{([^}]+)}", path))


def _resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


# Body fields that name a row: aimed at property A's.
ID_FIELDS = {"table": "table", "table_id": "table", "deck": "deck", "deck_id": "deck",
             "round": "round", "dealer": "dealer"}


def _value(schema: dict, name: str, prop: dict, ids: dict[str, Any]) -> Any:
    prop = _resolve(schema, prop)
    if name in ID_FIELDS:
        return ids[ID_FIELDS[name]]
    if "enum" in prop:
        return prop["enum"][0]
    if "oneOf" in prop or "allOf" in prop:
        return _value(schema, name, (prop.get("oneOf") or prop["allOf"])[0], ids)
    kind = prop.get("type")
    return {"integer": 1, "number": 1, "boolean": False, "array": [], "object": {}}.get(
        kind, "x" * max(1, prop.get("minLength", 1)))


def _body(schema: dict, op: dict, ids: dict[str, Any]) -> dict:
    """A body of the operation's shape: every field filled, rows aimed at property A."""
    content = op.get("requestBody", {}).get("content", {})
    media = content.get("application/json")
    if media is None:
        return {}
    shape = _resolve(schema, media["schema"])
    return {name: _value(schema, name, prop, ids)
            for name, prop in shape.get("properties", {}).items()
            if not prop.get("readOnly")}


def _a_marks(ids: dict[str, Any]) -> list[str]:
    """Text that only property A's rows contain: their ids, A's licence number and, as
    JSON strings, its staff's usernames and credential numbers."""
    rows = [ids[k] for k in ("table", "deck", "round", "rules", "grant", "stream",
                             "exception", "waitlist", "call", "reset", "unlock")]
    people = [json.dumps(v) for v in [ids["dealer"], *ids["credentials"]]]
    return rows + people + [A_LICENCE]


def test_every_operation_refuses_another_propertys_staff(property_a, property_b_staff) -> None:  # noqa: ANN001
    """No property's staff reads or changes another property's records (issue 11)."""
    ops, schema = _operations()
    assert len(ops) > 40  # the whole API, not a stub
    events_of_a = Event.objects.filter(metadata__property=A_LICENCE).count()
    marks = _a_marks(property_a)
    seen = []
    for path, method, op in ops:
        url = _fill_path(path, property_a)
        body = _body(schema, op, property_a) if method != "get" else None
        for role, client in property_b_staff.items():
            response = getattr(client, method)(url, body, format="json") \
                if body is not None else client.get(url)
            seen.append((method, path, role, response.status_code))
            assert response.status_code < 500, (method, url, role, response.content)
            text = response.content.decode(errors="replace")
            if response.status_code < 300:
                leaked = [m for m in marks if m in text and m not in url]
                assert not leaked, (method, url, role, leaked)
            if _names_a_row(path) and response.status_code < 300:
                pytest.fail(f"{method.upper()} {url} answered {response.status_code} to "
                            f"property B's {role}")
    assert Event.objects.filter(metadata__property=A_LICENCE).count() == events_of_a
    assert RoleGrant.objects.get(pk=property_a["grant"]).state == "pending"
    assert CredentialReset.objects.get(pk=property_a["reset"]).state == "pending"
    assert LoginUnlockRequest.objects.get(pk=property_a["unlock"]).state == "pending"
    # Every path with an id was tried by every role: 404 (not found) or 403 (role) only.
    statuses = {code for _, path, _, code in seen if _names_a_row(path)}
    assert statuses <= {400, 403, 404, 405, 409, 415}, statuses


def test_another_propertys_log_is_not_readable(property_a, property_b_staff) -> None:  # noqa: ANN001
    """Finding 1: events/, streams/{id}/events/ and events/chain/ answered with every
    property's events, usernames and credential numbers included."""
    officer = property_b_staff["compliance"]
    page = officer.get("/api/v1/events/", {"limit": 1000}).json()
    assert page["results"], "B's own events are shown"
    assert {e["metadata"]["property"] for e in page["results"]} == {"PA-OTHER-2"}
    staff_page = officer.get("/api/v1/events/", {"stream_type": "staff", "limit": 1000}).json()
    assert property_a["dealer"] not in json.dumps(staff_page)
    stream = officer.get(f"/api/v1/streams/{property_a['stream']}/events/")
    assert (stream.status_code, stream.json()["code"]) == (404, "stream_not_found")
    later = officer.get(f"/api/v1/streams/{property_a['stream']}/events/",
                        {"from_position": 2})
    assert later.status_code == 404
    chain = officer.get("/api/v1/events/chain/").json()
    assert chain["ok"] is True and chain["scope"] == "PA-OTHER-2"
    assert chain["count"] == Event.objects.filter(metadata__property="PA-OTHER-2").count()
    assert chain["count"] < Event.objects.count()


def test_a_group_wide_compliance_officer_reads_every_property(property_a, make_staff) -> None:  # noqa: ANN001
    """The whole group's compliance role, granted by two people, sees both logs."""
    group = property_register(licence_number="PA-GROUP", name="Group office", system="test")
    officer = make_staff("compliance", property=group, group_wide=True)
    c = APIClient()
    c.force_authenticate(officer)
    stream = c.get(f"/api/v1/streams/{property_a['stream']}/events/")
    assert stream.status_code == 200
    chain = c.get("/api/v1/events/chain/").json()
    assert chain["scope"] == "all" and chain["count"] == Event.objects.count()


def test_group_wide_is_only_for_compliance_and_needs_two_people(crew, make_staff) -> None:  # noqa: ANN001
    from casino.domain.errors import DomainError

    person = make_staff()
    with pytest.raises(DomainError) as refused:
        staff.role_grant_request(actor=crew["admin"], staff_id=person.pk, role="finance",
                                 reason="audit", group_wide=True)
    assert refused.value.code == "invalid_input"
    grant = staff.role_grant_request(actor=crew["admin"], staff_id=person.pk,
                                     role="compliance", reason="group audit", group_wide=True)
    staff.role_grant_approve(actor=crew["compliance"], grant_id=grant.pk)
    person.staff.refresh_from_db()
    assert person.staff.group_wide is True
    kinds = list(Event.objects.filter(stream_id=f"staff-{person.pk}")
                 .values_list("type", flat=True))
    assert kinds[-2:] == ["RoleGranted", "StaffScopeChanged"]


def test_the_admin_site_lists_only_the_viewers_property(property_a, make_staff, client) -> None:  # noqa: ANN001
    """The read-only admin is scoped like the API: B's administrator finds none of A's
    tables, rounds, events or staff there."""
    other = property_register(licence_number="PA-OTHER-3", name="Third Casino", system="test")
    verified_login(client, make_staff("admin", property=other, admin_site=True))
    for url in ("/admin/tables/gametable/", "/admin/tables/round/", "/admin/tables/deck/",
                "/admin/casino/event/", "/admin/auth/user/", "/admin/casino/rolegrant/"):
        page = client.get(url)
        assert page.status_code == 200, url
        text = page.content.decode()
        assert not [m for m in _a_marks(property_a)[:6] if m in text], url
    assert client.get(f"/admin/tables/gametable/{property_a['table']}/change/").status_code \
        in (302, 404)


def test_every_event_of_the_demo_carries_its_property(settings, tmp_path) -> None:  # noqa: ANN001
    """The scoping of the log rests on it: every service records the property."""
    from django.core.management import call_command

    settings.VAR_DIR = tmp_path
    null = open("/dev/null", "w")
    call_command("seed_demo", stdout=null)
    call_command("seed_demo_tables", stdout=null)
    assert Event.objects.count() > 100
    without = Event.objects.exclude(metadata__property="PA-DEMO-0001")
    assert list(without.values_list("stream_id", "type")[:5]) == []
