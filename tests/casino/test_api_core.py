"""Core API: the role matrix of every endpoint, problem+json errors, health, docs."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from casino.eventstore.store import NewEvent, append
from casino.roles import Role
from tests.console.conftest import verified_login  # the second factor given

pytestmark = pytest.mark.django_db
PROBLEM = "application/problem+json"

# endpoint -> roles admitted; every other role gets 403, no credentials 401.
MATRIX = {
    "/api/v1/events/": {Role.COMPLIANCE, Role.FINANCE},
    "/api/v1/streams/staff-1/events/": {Role.COMPLIANCE, Role.FINANCE},
    "/api/v1/events/chain/": {Role.COMPLIANCE},
    "/api/v1/me/": set(Role),
}


@pytest.mark.parametrize("url", list(MATRIX))
@pytest.mark.parametrize("role", list(Role))
def test_role_matrix(api_as, url: str, role: Role) -> None:  # noqa: ANN001
    client = api_as(role.value)
    allowed = MATRIX[url]
    if "staff-1" in url:  # the stream of this very user's enrolment
        url = f"/api/v1/streams/staff-{client.user.pk}/events/"
    response = client.get(url)
    if role in allowed:
        assert response.status_code == 200, response.content
    else:
        assert response.status_code == 403
        assert response["Content-Type"] == PROBLEM
        assert response.json()["code"] == "role_required"


@pytest.mark.parametrize("url", list(MATRIX))
def test_unauthenticated_callers_get_401_problem(url: str) -> None:
    response = APIClient().get(url)
    assert response.status_code == 401
    assert response["Content-Type"] == PROBLEM
    assert response.json()["code"] == "not_authenticated"


def test_user_with_no_role_is_denied_everything(api_as) -> None:  # noqa: ANN001
    client = api_as()
    for url in MATRIX:
        assert client.get(url).status_code == 403


def test_superuser_flag_grants_nothing_in_the_api(make_staff) -> None:  # noqa: ANN001
    client = APIClient()
    client.force_authenticate(make_staff(Role.DEALER.value, admin_site=True))
    assert client.get("/api/v1/events/").status_code == 403


def test_event_list_pages_by_position(api_as) -> None:  # noqa: ANN001
    client = api_as("compliance")
    for i in range(5):
        append(("test", "paged"), i, [NewEvent("E", {"i": i})], {"actor": "t", "property": "PA-TEST-1"})
    first = client.get("/api/v1/events/", {"stream_id": "paged", "limit": 2}).json()
    assert [e["data"]["i"] for e in first["results"]] == [0, 1]
    second = client.get(first["next"]).json()
    assert [e["data"]["i"] for e in second["results"]] == [2, 3]


@pytest.mark.parametrize("params, field", [({"limit": "abc"}, "limit"),
                                           ({"limit": 0}, "limit"),
                                           ({"limit": 5000}, "limit"),
                                           ({"from_position": -3}, "from_position")])
def test_bad_paging_is_a_400_problem_naming_the_field(api_as, params, field) -> None:  # noqa: ANN001
    response = api_as("finance").get("/api/v1/events/", params)
    assert response.status_code == 400
    assert response["Content-Type"] == PROBLEM
    body = response.json()
    assert body["code"] == "invalid_paging" and field in body["errors"]


def test_unknown_stream_is_a_404_problem(api_as) -> None:  # noqa: ANN001
    response = api_as("compliance").get("/api/v1/streams/nope/events/")
    assert response.status_code == 404 and response.json()["code"] == "stream_not_found"


def test_chain_verification_reports_ok(api_as) -> None:  # noqa: ANN001
    body = api_as("compliance").get("/api/v1/events/chain/").json()
    assert body["ok"] is True and body["first_bad_position"] is None and body["count"] >= 1


def test_token_exchange_and_wrong_password(make_staff) -> None:  # noqa: ANN001
    make_staff("cashier", username="cash1")
    client = APIClient()
    ok = client.post("/api/v1/auth/token/", {"username": "cash1", "password": "test-pass-123"},
                     format="json")
    assert ok.status_code == 200 and len(ok.json()["token"]) == 64  # knox: 64 hex
    bad = client.post("/api/v1/auth/token/", {"username": "cash1", "password": "nope"},
                      format="json")
    assert bad.status_code == 401 and bad.json()["code"] == "authentication_failed"


def test_malformed_json_body_is_a_400_problem() -> None:
    response = APIClient().post("/api/v1/auth/token/", "{not json",
                                content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "parse_error"


def test_unknown_api_url_is_a_404_problem() -> None:
    response = APIClient().get("/api/v1/nothing-here/")
    assert response.status_code == 404 and response["Content-Type"] == PROBLEM


def test_health_reports_database_and_broker() -> None:
    response = APIClient().get("/health")
    body = response.json()
    assert response.status_code == 200, body
    assert body["database"]["ok"] and body["broker"]["ok"]


def test_openapi_schema_and_swagger_ui_are_served() -> None:
    client = APIClient()
    schema = client.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/v1/events/" in schema.content
    assert client.get("/api/docs/").status_code == 200


def test_admin_shows_events_read_only_even_to_superusers(client, make_staff) -> None:  # noqa: ANN001
    from casino.models import Event

    user = make_staff("admin", admin_site=True)
    verified_login(client, user)
    event = Event.objects.first()
    assert client.get("/admin/casino/event/").status_code == 200
    assert client.get(f"/admin/casino/event/{event.pk}/change/").status_code == 200
    assert client.post(f"/admin/casino/event/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.get("/admin/casino/event/add/").status_code == 403
    assert Event.objects.filter(pk=event.pk).exists()
