"""Finance's API (/api/v1/finance/): a table's gaming day through it end to end, every
bad input of issue 15 answered with its own status and problem+json ``code`` and nothing
appended, the roles of every endpoint, and the schema listing each operation with its
refusals. Figures are worked by hand in the docstrings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from casino.actors import Actor
from casino.eventstore.models import Event
from casino.roles import Role
from casino.services import property_register
from finance.models import FinanceException
from tests.finance.test_tray import CREDIT, FILL, OPENER, table_events, today

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"
V1 = "/api/v1/finance"
CASH = {"10000": 3, "2000": 4}  # 3 × $100 + 4 × $20 = $380.00


@contextmanager
def nothing_appended() -> Iterator[None]:
    before = Event.objects.count()
    yield
    assert Event.objects.count() == before, "a refused request appended events"


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    """``response`` is a problem of ``status`` with ``code``."""
    assert response.status_code == status, response.content[:400]
    assert response["Content-Type"] == PROBLEM
    body = response.json()
    assert (body["status"], body["code"]) == (status, code), body
    return body


class Desk:
    """One table and the team, each person with an API client; ``post`` and ``get`` as
    a named person, on the table's own URLs (``tables/<pk>/<path>``)."""

    def __init__(self, team: dict[str, Actor], table: Any, as_actor: Callable) -> None:
        self.team, self.table = team, table
        self.clients = {k: as_actor(a) for k, a in team.items()}
        self.url = f"{V1}/tables/{table.pk}/"

    def post(self, who: str, path: str, body: dict | None = None, **kw: Any) -> Any:
        return self.clients[who].post(self.url + path, body or {}, format="json", **kw)

    def get(self, who: str, url: str) -> Any:
        return self.clients[who].get(url)

    def ok(self, who: str, path: str, body: dict | None = None, status: int = 200) -> dict:
        response = self.post(who, path, body)
        assert response.status_code == status, response.content[:400]
        return response.json()

    def refused(self, who: str, path: str, body: dict | None, status: int, code: str
                ) -> dict:
        with nothing_appended():
            return problem(self.post(who, path, body), status, code)

    # the steps of a day
    def open_tray(self, **day: str) -> dict:
        self.ok("dealer", "inventory/", {"slip": "opener", "pieces": OPENER, **day})
        return self.ok("floor", "inventory/sign/", {"slip": "opener", **day})

    def request(self, kind: str = "fill") -> str:
        """The new slip's id: the one the table day did not list before."""
        day = today(self.team["dealer"]).isoformat()
        known = {s["slip_id"] for s in self.get("floor", f"{self.url}days/{day}/")
                 .json()["slips"]}
        body = self.ok("floor", "slips/", {"kind": kind, "pieces": FILL if kind == "fill"
                                            else CREDIT}, status=201)
        (new,) = {s["slip_id"] for s in body["slips"]} - known
        return new

    def complete(self, kind: str = "fill") -> dict:
        slip = self.request(kind)
        self.ok("cashier", "slips/prepare/", {"slip_id": slip})
        self.ok("runner", "slips/carry/", {"slip_id": slip})
        return self.ok("dealer", "slips/complete/", {"slip_id": slip})

    def removed(self, **day: str) -> dict:
        return self.ok("runner", "drop/remove/", dict(day))

    def counted(self, **day: str) -> dict:
        self.removed(**day)
        return self.ok("counter", "drop/count/", {"cash": CASH, **day})


@pytest.fixture
def desk(team: dict[str, Actor], open_table: Callable, as_actor: Callable) -> Desk:
    return Desk(team, open_table("five-card-hi-lo"), as_actor)


# --- a day through the API --------------------------------------------------------------

def test_a_table_day_through_the_api_reconciles_to_the_hand_worked_figures(desk: Desk) -> None:
    """Opener 40 × $25 + 100 × $5 = 150000; fill 20 × $25 = 50000; credit 10 × $5 =
    5000; chips sold 30000 + 8000 = 38000. Expected closer 150000 + 50000 − 5000 −
    38000 = 157000; expected drop 38000; counted 3 × 10000 + 4 × 2000 = 38000."""
    desk.open_tray()
    desk.complete("fill")
    desk.complete("credit")
    for amount in (30_000, 8_000):
        desk.ok("dealer", "chip-sales/", {"amount_cents": amount})
    desk.counted()
    desk.ok("counter2", "drop/sign/")
    desk.ok("cashier", "drop/accept/")
    day = today(desk.team["dealer"]).isoformat()
    row = desk.get("finance", f"{desk.url}days/{day}/").json()
    assert {k: row[k] for k in ("opener_cents", "closer_cents", "fills_cents",
                                "credits_cents", "chip_sales_cents", "open_slips",
                                "drop_state", "drop_counted_cents")} == {
        "opener_cents": 150_000, "closer_cents": None, "fills_cents": 50_000,
        "credits_cents": 5_000, "chip_sales_cents": 38_000, "open_slips": 0,
        "drop_state": "accepted", "drop_counted_cents": 38_000}
    day_figures = desk.get("finance", f"{V1}/gaming-days/{day}/").json()
    (figures,) = [t for t in day_figures["tables"] if t["table_id"] == str(desk.table.pk)]
    assert (figures["expected_closer_cents"], figures["expected_drop_cents"],
            figures["drop_variance_cents"]) == (157_000, 38_000, 0)


def test_a_slip_requested_is_created_201_and_listed_with_its_signers(desk: Desk) -> None:
    response = desk.post("floor", "slips/", {"kind": "fill", "pieces": FILL})
    assert response.status_code == 201
    (slip,) = response.json()["slips"]
    assert (slip["kind"], slip["state"], slip["total_cents"], slip["pieces"],
            slip["signed_by"]) == ("fill", "requested", 50_000, FILL,
                                   {desk.team["floor"].username: "requested"})


def test_every_step_through_the_api_carries_actor_role_and_credential(desk: Desk) -> None:
    desk.open_tray()
    desk.complete("fill")
    events = table_events(desk.table, today(desk.team["dealer"]))
    assert len(events) == 6
    for e in events:
        assert {"actor", "role", "credential_number"} <= set(e.metadata), e.metadata
        assert e.metadata["credential_number"].startswith("T-")


# --- the bad inputs of issue 15: each its own code, nothing appended --------------------

def test_a_fill_completed_before_the_runner_signed_is_409_fill_out_of_order(
        desk: Desk) -> None:
    slip = desk.request()
    desk.ok("cashier", "slips/prepare/", {"slip_id": slip})
    desk.refused("dealer", "slips/complete/", {"slip_id": slip}, 409, "fill_out_of_order")


def test_the_closer_while_a_slip_is_unsigned_is_409_fill_unsigned(desk: Desk) -> None:
    desk.open_tray()
    desk.request("credit")
    desk.refused("dealer", "inventory/", {"slip": "closer", "pieces": OPENER}, 409,
                 "fill_unsigned")


def test_the_same_person_signing_two_steps_of_a_slip_is_409_signed_already(
        desk: Desk, staff: Callable, as_actor: Callable) -> None:
    desk.clients["both"] = as_actor(staff("cashier", "security"))
    slip = desk.request()
    desk.ok("both", "slips/prepare/", {"slip_id": slip})
    desk.refused("both", "slips/carry/", {"slip_id": slip}, 409, "signed_already")


def test_a_count_by_someone_who_worked_the_table_is_409_worked_the_table(
        desk: Desk, staff: Callable, as_actor: Callable) -> None:
    """A count-team member who is also a floorperson signed this table's opener."""
    desk.clients["floor"] = as_actor(staff("floorperson", "count_team"))
    desk.open_tray()
    desk.removed()
    desk.refused("floor", "drop/count/", {"cash": CASH}, 409, "worked_the_table")


def test_an_inventory_slip_with_a_negative_count_is_400_negative_count(desk: Desk) -> None:
    body = desk.refused("dealer", "inventory/", {"slip": "opener",
                                                 "pieces": {"2500": 40, "500": -1}},
                        400, "negative_count")
    assert body["field"] == "pieces"


def test_a_sign_off_by_the_person_who_explained_is_409_same_person(desk: Desk) -> None:
    exception_id = short_yesterday(desk)
    url = f"{V1}/exceptions/{exception_id}/"
    explain = desk.clients["finance"].post(url + "explain/", {"explanation": "miscount"},
                                           format="json")
    assert explain.status_code == 200 and explain.json()["state"] == "explained"
    with nothing_appended():
        problem(desk.clients["finance"].post(url + "sign-off/", {}, format="json"), 409,
                "same_person")
    signed = desk.clients["auditor"].post(url + "sign-off/", {}, format="json")
    assert signed.status_code == 200 and signed.json()["state"] == "signed_off"


def short_yesterday(desk: Desk) -> str:
    """Yesterday's tray opened at 150000 and closed at 40 × $25 + 80 × $5 = 140000, the
    empty box counted; finance closes the day: one exception, −10000. Its id."""
    day = {"gaming_day": (today(desk.team["dealer"]) - timedelta(days=1)).isoformat()}
    desk.open_tray(**day)
    desk.ok("dealer", "inventory/", {"slip": "closer", "pieces": {"2500": 40, "500": 80},
                                     **day})
    desk.ok("floor", "inventory/sign/", {"slip": "closer", **day})
    desk.removed(**day)
    desk.ok("counter", "drop/count/", {"cash": {}, **day})
    desk.ok("counter2", "drop/sign/", day)
    desk.ok("cashier", "drop/accept/", day)
    closed = desk.clients["finance"].post(f"{V1}/gaming-days/close/", day, format="json")
    assert closed.status_code == 200, closed.content[:400]
    (found,) = FinanceException.objects.all()
    assert found.variance_cents == -10_000
    return str(found.exception_id)


def test_an_exception_not_explained_yet_is_409_exception_unexplained(desk: Desk) -> None:
    exception_id = short_yesterday(desk)
    with nothing_appended():
        problem(desk.clients["auditor"].post(f"{V1}/exceptions/{exception_id}/sign-off/",
                                             {}, format="json"), 409, "exception_unexplained")


def test_an_explanation_that_is_not_text_is_400_invalid_explanation(desk: Desk) -> None:
    exception_id = short_yesterday(desk)
    with nothing_appended():
        problem(desk.clients["finance"].post(f"{V1}/exceptions/{exception_id}/explain/",
                                             {"explanation": {"why": 1}}, format="json"),
                400, "invalid_explanation")


@pytest.mark.parametrize("exception_id", ["nope", "00000000-0000-0000-0000-000000000000"])
def test_an_unknown_exception_is_404_exception_not_found(
        desk: Desk, exception_id: Any) -> None:
    with nothing_appended():
        problem(desk.clients["finance"].post(f"{V1}/exceptions/{exception_id}/explain/",
                                             {"explanation": "?"}, format="json"),
                404, "exception_not_found")


def test_an_unknown_denomination_is_400_invalid_denomination(desk: Desk) -> None:
    desk.refused("dealer", "inventory/", {"slip": "opener", "pieces": {"300": 1}}, 400,
                 "invalid_denomination")


@pytest.mark.parametrize("pieces", [[["2500", 40]], "2500x40", 40, {}])
def test_pieces_not_listed_by_denomination_are_400_invalid_denomination(
        desk: Desk, pieces: Any) -> None:
    desk.refused("dealer", "inventory/", {"slip": "opener", "pieces": pieces}, 400,
                 "invalid_denomination")


def test_a_count_of_a_billion_chips_is_400_invalid_count(desk: Desk) -> None:
    """Past the database's 64-bit integers once totalled: refused before."""
    desk.refused("dealer", "inventory/", {"slip": "opener", "pieces": {"500000": 10**18}},
                 400, "invalid_count")


def test_the_opener_recorded_twice_is_409_inventory_recorded_already(desk: Desk) -> None:
    desk.open_tray()
    desk.refused("dealer", "inventory/", {"slip": "opener", "pieces": OPENER}, 409,
                 "inventory_recorded_already")


@pytest.mark.parametrize("path, before", [("drop/count/", "in_play"),
                                          ("drop/sign/", "removed"),
                                          ("drop/accept/", "counted")])
def test_drop_steps_out_of_order_are_409_count_out_of_order(
        desk: Desk, path: str, before: str) -> None:
    if before == "removed":
        desk.removed()
    elif before == "counted":
        desk.counted()
    who = {"drop/count/": "counter", "drop/sign/": "counter2", "drop/accept/": "cashier"}
    desk.refused(who[path], path, {"cash": CASH}, 409, "count_out_of_order")


def test_the_second_count_signature_by_the_counter_is_409_signed_already(desk: Desk) -> None:
    desk.counted()
    desk.refused("counter", "drop/sign/", {}, 409, "signed_already")


def test_a_dealer_cannot_prepare_a_slip(desk: Desk) -> None:
    slip = desk.request()
    desk.refused("dealer", "slips/prepare/", {"slip_id": slip}, 403, "role_required")


def test_a_cashier_cannot_count(desk: Desk) -> None:
    desk.removed()
    desk.refused("cashier", "drop/count/", {"cash": CASH}, 403, "role_required")


def test_another_propertys_table_is_404_table_not_found(
        desk: Desk, make_staff: Callable) -> None:
    other = property_register(licence_number="PA-OTHER-2", name="Other Casino",
                              system="test")
    client = APIClient()
    client.force_authenticate(make_staff("dealer", property=other))
    with nothing_appended():
        problem(client.post(desk.url + "inventory/", {"slip": "opener", "pieces": OPENER},
                            format="json"), 404, "table_not_found")
    reader = APIClient()
    reader.force_authenticate(make_staff("finance", property=other))
    day = today(desk.team["dealer"]).isoformat()
    problem(reader.get(f"{desk.url}days/{day}/"), 404, "table_not_found")


@pytest.mark.parametrize("day", ["2024-13-01", "yesterday", "2024-02-30"])
def test_a_bad_gaming_day_is_400_invalid_gaming_day(desk: Desk, day: str) -> None:
    body = desk.refused("dealer", "inventory/", {"slip": "opener", "pieces": OPENER,
                                                 "gaming_day": day}, 400,
                        "invalid_gaming_day")
    assert body["field"] == "gaming_day"
    problem(desk.get("finance", f"{desk.url}days/{day}/"), 400, "invalid_gaming_day")
    problem(desk.get("finance", f"{V1}/gaming-days/{day}/"), 400, "invalid_gaming_day")


def test_a_gaming_day_still_to_come_is_400_invalid_gaming_day(desk: Desk) -> None:
    tomorrow = (today(desk.team["dealer"]) + timedelta(days=1)).isoformat()
    desk.refused("dealer", "inventory/", {"slip": "opener", "pieces": OPENER,
                                          "gaming_day": tomorrow}, 400, "invalid_gaming_day")
    desk.refused("runner", "drop/remove/", {"gaming_day": tomorrow}, 400,
                 "invalid_gaming_day")
    problem(desk.get("finance", f"{desk.url}days/{tomorrow}/"), 400, "invalid_gaming_day")


@pytest.mark.parametrize("amount", [0, -100, 12.5, 100.0, "100", True, [100], 10**20])
def test_a_chip_sale_of_nothing_a_fraction_or_too_much_is_400_invalid_amount(
        desk: Desk, amount: Any) -> None:
    desk.refused("dealer", "chip-sales/", {"amount_cents": amount}, 400, "invalid_amount")


def test_a_chip_sale_without_an_amount_is_400_invalid_input(desk: Desk) -> None:
    body = desk.refused("dealer", "chip-sales/", {}, 400, "invalid_input")
    assert "amount_cents" in body["errors"]


def test_a_chip_sale_in_a_round_of_no_table_is_404_round_not_found(desk: Desk) -> None:
    desk.refused("dealer", "chip-sales/", {"amount_cents": 500,
                                           "round_id": "00000000-0000-0000-0000-000000000001"},
                 404, "round_not_found")


def test_a_void_reason_with_a_nul_character_is_400_invalid_reason(desk: Desk) -> None:
    """PostgreSQL's jsonb cannot hold NUL: refused with the field's own code first."""
    slip = desk.request()
    desk.refused("floor", "slips/void/", {"slip_id": slip, "reason": "spoiled\x00"}, 400,
                 "invalid_reason")


def test_a_malformed_body_is_400_parse_error(desk: Desk) -> None:
    with nothing_appended():
        response = desk.clients["dealer"].post(desk.url + "inventory/", "{not json",
                                               content_type="application/json")
        problem(response, 400, "parse_error")


# --- roles of every endpoint ------------------------------------------------------------

READERS = {Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.CASHIER, Role.COUNT_TEAM,
           Role.SECURITY, Role.FINANCE, Role.COMPLIANCE}
FLOOR = {Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR}
#: (method, path under /api/v1/finance/ with {t} the table, {x} an exception) → the roles
#: admitted (issue 15, "Roles"); every other role is refused 403 role_required.
MATRIX: dict[tuple[str, str], set[Role]] = {
    ("post", "tables/{t}/inventory/"): {Role.DEALER},
    ("post", "tables/{t}/inventory/sign/"): FLOOR,
    ("post", "tables/{t}/chip-sales/"): {Role.DEALER},
    ("post", "tables/{t}/slips/"): FLOOR,
    ("post", "tables/{t}/slips/prepare/"): {Role.CASHIER},
    ("post", "tables/{t}/slips/carry/"): {Role.SECURITY},
    ("post", "tables/{t}/slips/complete/"): {Role.DEALER} | FLOOR,
    ("post", "tables/{t}/slips/void/"): {Role.CASHIER} | FLOOR,
    ("post", "tables/{t}/drop/remove/"): {Role.SECURITY},
    ("post", "tables/{t}/drop/count/"): {Role.COUNT_TEAM},
    ("post", "tables/{t}/drop/sign/"): {Role.COUNT_TEAM},
    ("post", "tables/{t}/drop/accept/"): {Role.CASHIER},
    ("post", "exceptions/{x}/explain/"): {Role.FINANCE},
    ("post", "exceptions/{x}/sign-off/"): {Role.FINANCE, Role.COMPLIANCE},
    ("post", "gaming-days/close/"): {Role.FINANCE},
    ("get", "tables/{t}/days/{d}/"): READERS,
    ("get", "exceptions/"): READERS,
    ("get", "gaming-days/{d}/"): READERS,
}


def test_every_finance_endpoint_refuses_the_roles_it_does_not_name(
        desk: Desk, api_as: Callable, make_staff: Callable) -> None:
    """Deny by default: each role not admitted meets 403 role_required, no credentials
    401, and nothing is appended."""
    clients = {role: api_as(role.value) for role in Role}
    day = today(desk.team["dealer"]).isoformat()
    with nothing_appended():
        for (method, path), admitted in MATRIX.items():
            url = f"{V1}/" + path.format(t=desk.table.pk, x="00000000-0000-0000-0000-"
                                         "000000000000", d=day)
            for role, client in clients.items():
                if role in admitted:
                    continue
                response = getattr(client, method)(url, {}, format="json") \
                    if method == "post" else client.get(url)
                problem(response, 403, "role_required")
            anonymous = getattr(APIClient(), method)(url)
            problem(anonymous, 401, "not_authenticated")


# --- the schema -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def _operation(schema: dict, method: str, path: str) -> dict:
    templated = (f"{V1}/" + path).replace("{t}", "{id}").replace("{x}", "{id}") \
        .replace("{d}", "{day}")
    assert templated in schema["paths"], f"{templated} is not in the schema"
    return schema["paths"][templated][method]


def test_every_finance_endpoint_is_in_the_schema_with_its_refusals(schema: dict) -> None:
    """Tests are generated from the schema (DESIGN §5): a finance operation missing from
    it would escape them. Each lists 401 and 403 (it names roles), a command 400 and 409
    too, each as problem+json."""
    for (method, path) in MATRIX:
        responses = _operation(schema, method, path)["responses"]
        wanted = {"401", "403"} | ({"400", "409"} if method == "post" else set())
        assert wanted <= set(responses), (path, sorted(responses))
        for status in wanted:
            assert PROBLEM in responses[status]["content"], (path, status)


def test_the_schema_lists_the_400_of_a_bad_gaming_day_in_the_url(schema: dict) -> None:
    """GET tables/{id}/days/{day}/ and gaming-days/{day}/ answer 400 invalid_gaming_day
    for a day that is not a date (tested above): the schema must say so, or a client —
    and Schemathesis — meets an answer it does not list."""
    for path in ("tables/{t}/days/{d}/", "gaming-days/{d}/"):
        assert "400" in _operation(schema, "get", path)["responses"], path


def test_a_close_refused_for_open_items_lists_them_as_the_day_does(desk: Desk) -> None:
    """Issue 15, bad input ("a close while a count is unsigned"): 409 ``open_items``, and
    the problem carries the items as a member, ``open_items``, each as
    ``GET gaming-days/{day}/`` lists it (not only as text in ``detail``), with
    ``open_count``; nothing appended. Yesterday's Hi-Lo table: nothing recorded but its
    box counted and not signed, so its opener and closer are missing too."""
    day = (today(desk.team["dealer"]) - timedelta(days=1)).isoformat()
    desk.counted(gaming_day=day)
    with nothing_appended():
        body = problem(desk.clients["finance"].post(f"{V1}/gaming-days/close/",
                                                    {"gaming_day": day}, format="json"),
                       409, "open_items")
    table = {"table": desk.table.name, "table_id": str(desk.table.pk)}
    assert body["open_items"] == [{"item": "no_opener", **table},
                                  {"item": "no_closer", **table},
                                  {"item": "count_unsigned", **table}]
    assert body["open_count"] == 3
    assert body["open_items"] == desk.get("finance",
                                          f"{V1}/gaming-days/{day}/").json()["open_items"]


def test_the_reconciliation_says_when_the_gaming_day_begins_and_ends(desk: Desk) -> None:
    """The gaming day runs from its start hour (6 AM, America/New_York) to the next day's.
    The clocks fall back at 2 AM on Nov 1, 2026, inside the gaming day of Oct 31: it
    begins at 6:00 EDT (UTC−4) and ends at 6:00 EST (UTC−5) on Nov 1, 25 hours later.
    The answer gives both with their offsets, and the gaming-day page says them on the
    property's wall clock."""
    answer = desk.get("finance", f"{V1}/gaming-days/2026-10-31/").json()
    assert (answer["starts_at"], answer["ends_at"]) == ("2026-10-31T06:00:00-04:00",
                                                        "2026-11-01T06:00:00-05:00")
    client = Client()
    client.force_login(get_user_model().objects.get(pk=desk.team["finance"].user_id))
    page = client.get("/finance/days/2026-10-31/").content.decode()
    assert "Oct 31, 2026, 6:00 AM EDT" in page and "Nov 1, 2026, 6:00 AM EST" in page


def test_a_close_of_the_day_being_played_says_when_it_ends(desk: Desk) -> None:
    """409 ``gaming_day_not_ended`` says when the day ends, on the property's clock. At
    17:00 UTC on Nov 25, 2026 it is noon in New York (EST, UTC−5): the gaming day of Nov
    25 is being played, and it ends at the next day's start hour, Nov 26, 6:00 AM EST."""
    with time_machine.travel(datetime(2026, 11, 25, 17, 0, tzinfo=UTC), tick=True), \
            nothing_appended():
        body = problem(desk.clients["finance"].post(f"{V1}/gaming-days/close/",
                                                    {"gaming_day": "2026-11-25"},
                                                    format="json"),
                       409, "gaming_day_not_ended")
    assert body["detail"] == ("the gaming day Nov 25, 2026 has not ended: it ends "
                              "Nov 26, 2026, 6:00 AM EST")


def test_the_schema_declares_the_open_items_of_a_refused_close(schema: dict) -> None:
    """The 409 of POST gaming-days/close/ declares its ``open_items`` member (an array of
    the open items GET gaming-days/{day}/ lists) and ``open_count``."""
    refusal = _operation(schema, "post", "gaming-days/close/")["responses"]["409"]
    declared = refusal["content"][PROBLEM]["schema"]["allOf"][1]["properties"]
    assert declared["open_items"]["type"] == "array"
    item = declared["open_items"]["items"]["$ref"].rsplit("/", 1)[-1]
    assert {"item", "table", "table_id"} <= set(schema["components"]["schemas"][item][
        "properties"])
    assert declared["open_count"]["type"] == "integer"
    assert "open_items" in refusal["description"]
    listed = _operation(schema, "get", "gaming-days/{d}/")["responses"]["200"]
    day_schema = listed["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert schema["components"]["schemas"][day_schema]["properties"]["open_items"][
        "items"]["$ref"].endswith("/" + item)


# --- generated input: no 500, only answers the schema lists -----------------------------

#: examples per finance operation and generation mode (positive, negative), fixed seed
FUZZ_EXAMPLES = 12
REPORTS = ("master-game", "statistical", "poker-revenue", "jackpot-funds", "exceptions")


def _aimed(case: Any, ids: dict[str, list[str]], choice: int) -> Any:
    """``case`` with its path parameters and the ids in its body set, most of the time,
    to rows that exist (the table, its slip, the exception, a gaming day, a report), so
    the commands reach their rules and not only 404."""
    if not choice:
        return case
    for name in list(case.path_parameters or {}):
        known = ids.get(("exception" if "/exceptions/" in case.operation.path
                         else "table") if name == "id" else name, [])
        if known:
            case.path_parameters[name] = known[choice % len(known)]
    if isinstance(case.body, dict):
        for name in ("slip_id", "slip", "kind", "gaming_day"):
            if name in case.body and ids.get(name):
                case.body[name] = ids[name][choice % len(ids[name])]
    return case


def test_no_input_to_a_finance_endpoint_reaches_a_500_or_an_answer_the_schema_does_not_list(
        desk: Desk, staff: Callable) -> None:
    """Schemathesis over every finance operation of /api/schema/, each as a role it
    admits, valid and invalid input, ids aimed at a table mid-day (opener signed, a fill
    requested, the box removed) and at an open exception. tests/casino/test_api_fuzz.py
    covers the whole API but cannot aim at a finance table (no list of them to draw ids
    from), so nearly all its finance requests end in 404; this one gets past it. On
    SQLite and PostgreSQL alike (a few hundred requests)."""
    import schemathesis
    from django.db import DatabaseError, transaction
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st
    from knox.models import AuthToken
    from schemathesis import GenerationMode
    from schemathesis.core.failures import FailureGroup

    from casino.wsgi import application
    from tests.casino.test_api_fuzz import CHECKS, same_connection

    exception_id = short_yesterday(desk)
    desk.open_tray()
    slip = desk.request()
    desk.removed()
    day = today(desk.team["dealer"])
    ids = {"table": [str(desk.table.pk)], "exception": [exception_id],
           "day": [day.isoformat(), (day - timedelta(days=1)).isoformat(), "2024-13-01"],
           "name": list(REPORTS), "slip_id": [slip], "slip": ["opener", "closer"],
           "kind": ["fill", "credit"], "gaming_day": [day.isoformat()]}
    tokens = {role: AuthToken.objects.create(user=_user(staff, role))[1] for role in Role}
    failures: dict[str, str] = {}
    statuses: dict[int, int] = {}

    def send(case: Any, headers: dict[str, str]) -> None:
        try:
            with transaction.atomic():
                response = case.call(headers=headers)
        except DatabaseError as exc:
            failures.setdefault(f"{case.operation.label}: {exc!r}", "database error")
            return
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        try:
            case.validate_response(response, checks=CHECKS, headers=headers)
        except FailureGroup as group:
            for failure in group.exceptions:
                failures.setdefault(
                    f"{case.operation.label} [{response.status_code}] {failure.title}",
                    f"{failure.message[:300]}\n    {case.as_curl_command(headers=headers)}")

    with same_connection():
        schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
        operations = [r.ok() for r in schema.get_all_operations()
                      if r.ok().path.startswith(f"{V1}/")]
        assert len(operations) >= len(MATRIX), [o.label for o in operations]
        for operation in operations:
            own = "{x}" if "/exceptions/" in operation.path else "{t}"
            path = operation.path.removeprefix(f"{V1}/").replace("{id}", own) \
                .replace("{day}", "{d}")
            admitted = MATRIX.get((operation.method.lower(), path), READERS)
            role = sorted(admitted)[0]
            headers = {"Authorization": f"Token {tokens[role]}"}
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                @settings(max_examples=FUZZ_EXAMPLES, derandomize=True, database=None,
                          deadline=None, phases=[Phase.generate],
                          suppress_health_check=list(HealthCheck))
                @given(case=st.builds(lambda c, n: _aimed(c, ids, n),
                                      operation.as_strategy(generation_mode=mode),
                                      st.integers(0, 6)))
                def cases(case: Any) -> None:
                    send(case, headers)

                try:
                    cases()
                except Exception as exc:  # Unsatisfiable: nothing to make invalid
                    if type(exc).__name__ != "Unsatisfiable":
                        raise
    print(f"\nfinance fuzz: {sum(statuses.values())} requests, statuses "
          f"{dict(sorted(statuses.items()))}")
    assert statuses.get(200, 0) + statuses.get(201, 0) > 0, "no request got through"
    assert not failures, "\n".join(f"{k}\n    {v}" for k, v in sorted(failures.items()))


def _user(staff: Callable, role: Role) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=staff(role.value).user_id)
