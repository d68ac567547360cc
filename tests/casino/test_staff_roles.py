"""Staff, roles and credentials (issue 11, finding 2): every change is an event, a role
needs a second person of the admin or compliance role, nobody grants a role to themselves,
and some pairs of roles one person may not hold. The Django admin cannot go around it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group
from rest_framework.test import APIClient

from casino.eventstore.store import read_stream
from casino.models import Event, RoleGrant
from casino.roles import Role, user_roles
from casino.staff_guard import StaffChangeOutsideService
from tests.console.conftest import verified_login  # the second factor given

pytestmark = pytest.mark.django_db
PROBLEM = "application/problem+json"


def _client(user: Any) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    c.user = user
    return c


def _stream(user: Any) -> list[Any]:
    return read_stream(f"staff-{user.pk}")


def _types(user: Any) -> list[str]:
    return [e.type for e in _stream(user)]


def _fresh_roles(user: Any) -> set[str]:
    user.refresh_from_db()
    user._casino_roles = None
    return set(user_roles(user))


@pytest.fixture
def people(make_staff: Callable) -> dict[str, Any]:
    return {"admin": make_staff("admin"), "compliance": make_staff("compliance"),
            "compliance_2": make_staff("compliance"), "dealer": make_staff("dealer"),
            "newcomer": make_staff()}


def _request(client: APIClient, who: Any, role: str, **extra: Any) -> Any:
    return client.post(f"/api/v1/staff/{who.pk}/role-grants/",
                       {"role": role, "reason": "new floor staff", **extra}, format="json")


def test_a_role_needs_a_second_person_and_both_are_recorded(people) -> None:  # noqa: ANN001
    admin, officer, newcomer = people["admin"], people["compliance"], people["newcomer"]
    asked = _request(_client(admin), newcomer, "floorperson")
    assert asked.status_code == 201, asked.content
    assert _fresh_roles(newcomer) == set()  # asking gives nothing yet

    grant_id = asked.json()["id"]
    same = _client(admin).post(f"/api/v1/role-grants/{grant_id}/approve/")
    assert (same.status_code, same.json()["code"]) == (409, "approver_is_requester")
    assert _fresh_roles(newcomer) == set()

    done = _client(officer).post(f"/api/v1/role-grants/{grant_id}/approve/")
    assert done.status_code == 200 and done.json()["state"] == "approved"
    assert _fresh_roles(newcomer) == {"floorperson"}
    granted = [e for e in _stream(newcomer) if e.type == "RoleGranted"][-1]
    assert granted.data["requested_by"] == admin.username
    assert granted.data["approved_by"] == officer.username
    assert granted.metadata["role"] == "compliance"
    assert granted.metadata["property"] == "PA-TEST-1"
    assert _types(newcomer)[-2:] == ["RoleGrantRequested", "RoleGranted"]


def test_nobody_asks_for_a_role_for_themselves(people) -> None:  # noqa: ANN001
    admin = people["admin"]
    before = Event.objects.count()
    answer = _request(_client(admin), admin, "floorperson")
    assert (answer.status_code, answer.json()["code"]) == (409, "self_grant")
    assert Event.objects.count() == before


def test_nobody_approves_a_role_for_themselves(people) -> None:  # noqa: ANN001
    """The person who would receive the role may not be its second person."""
    officer, other = people["compliance"], people["compliance_2"]
    asked = _request(_client(other), officer, "floorperson").json()
    answer = _client(officer).post(f"/api/v1/role-grants/{asked['id']}/approve/")
    assert (answer.status_code, answer.json()["code"]) == (409, "self_grant")
    assert "floorperson" not in _fresh_roles(officer)


@pytest.mark.parametrize("held, wanted", [("admin", "compliance"), ("compliance", "admin"),
                                          ("cashier", "count_team"), ("dealer", "count_team"),
                                          ("count_team", "cashier")])
def test_segregation_of_duties_refuses_incompatible_roles(people, make_staff, held: str,
                                                          wanted: str) -> None:  # noqa: ANN001
    person = make_staff(held)
    answer = _request(_client(people["compliance"]), person, wanted)
    assert (answer.status_code, answer.json()["code"]) == (409, "segregation_of_duties")
    assert not RoleGrant.objects.filter(staff__user=person).exists()


def test_segregation_is_checked_again_at_approval(people, make_staff) -> None:  # noqa: ANN001
    """Two requests each fine alone: the second approval would join count team and
    cashier in one person."""
    person = make_staff()
    first = _request(_client(people["admin"]), person, "cashier").json()
    second = _request(_client(people["admin"]), person, "count_team").json()
    assert _client(people["compliance"]).post(
        f"/api/v1/role-grants/{first['id']}/approve/").status_code == 200
    answer = _client(people["compliance"]).post(f"/api/v1/role-grants/{second['id']}/approve/")
    assert (answer.status_code, answer.json()["code"]) == (409, "segregation_of_duties")
    assert _fresh_roles(person) == {"cashier"}


def test_bootstrap_refuses_incompatible_roles_too(demo_property) -> None:  # noqa: ANN001
    from casino.domain.segregation import SegregationOfDuties
    from casino.services import staff_bootstrap

    with pytest.raises(SegregationOfDuties):
        staff_bootstrap(property=demo_property, username="both", password="test-pass-123",
                        credential_number="T-BOTH", roles=["admin", "compliance"],
                        system="test")


def test_roles_are_refused_to_a_dealer_and_to_a_stranger_role(people) -> None:  # noqa: ANN001
    answer = _request(_client(people["dealer"]), people["newcomer"], "floorperson")
    assert (answer.status_code, answer.json()["code"]) == (403, "role_required")
    unknown = _request(_client(people["admin"]), people["newcomer"], "pit_boss")
    assert (unknown.status_code, unknown.json()["code"]) == (400, "invalid_input")


def test_revoke_and_deactivate_are_events(people) -> None:  # noqa: ANN001
    dealer, officer = people["dealer"], people["compliance"]
    revoked = _client(officer).post(f"/api/v1/staff/{dealer.pk}/roles/revoke/",
                                    {"role": "dealer", "reason": "left the pit"}, format="json")
    assert revoked.status_code == 200 and revoked.json()["roles"] == []
    off = _client(officer).post(f"/api/v1/staff/{dealer.pk}/deactivate/",
                                {"reason": "left the company"}, format="json")
    assert off.status_code == 200 and off.json()["is_active"] is False
    assert _types(dealer)[-2:] == ["RoleRevoked", "StaffDeactivated"]
    assert _client(officer).post(f"/api/v1/staff/{officer.pk}/deactivate/",
                                 {"reason": "x"}, format="json").json()["code"] == \
        "self_deactivate"


def test_a_deactivated_login_gets_no_token(people) -> None:  # noqa: ANN001
    dealer = people["dealer"]
    _client(people["admin"]).post(f"/api/v1/staff/{dealer.pk}/deactivate/",
                                  {"reason": "left"}, format="json")
    answer = APIClient().post("/api/v1/auth/token/", {"username": dealer.username,
                                                      "password": "test-pass-123"},
                              format="json")
    assert answer.status_code == 401


def test_credential_changes_are_events_and_never_hold_the_secret(people) -> None:  # noqa: ANN001
    dealer, admin = people["dealer"], people["admin"]
    number = _client(admin).post(f"/api/v1/staff/{dealer.pk}/credential-number/",
                                 {"credential_number": "GCB-7781", "reason": "renewed"},
                                 format="json")
    assert number.status_code == 200 and number.json()["credential_number"] == "GCB-7781"
    # one administrator no longer sets another person's password (issue 35): the route
    # is gone; a reset takes two people (tests/casino/test_credential_resets.py)
    reset = _client(admin).post(f"/api/v1/staff/{dealer.pk}/password/",
                                {"password": "a-new-long-secret-9", "reason": "forgotten"},
                                format="json")
    assert reset.status_code == 404
    own = _client(dealer).post("/api/v1/me/password/",
                               {"old_password": "test-pass-123",
                                "new_password": "another-long-secret-4"}, format="json")
    assert own.status_code == 200
    changes = [e for e in _stream(dealer) if e.type == "CredentialChanged"]
    assert [e.data["credential"] for e in changes] == ["credential_number", "password"]
    assert changes[0].data["old_credential_number"] != "GCB-7781"
    text = str([e.data for e in changes])
    assert "another-long-secret-4" not in text


def test_own_password_change_needs_the_old_one_and_changes_nothing_when_wrong(people) -> None:  # noqa: ANN001
    dealer = people["dealer"]
    before = len(_stream(dealer))
    answer = _client(dealer).post("/api/v1/me/password/",
                                  {"old_password": "wrong", "new_password": "x-long-secret-1"},
                                  format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "wrong_password")
    assert len(_stream(dealer)) == before
    dealer.refresh_from_db()
    assert dealer.check_password("test-pass-123")


def test_enrolment_by_an_admin_gives_no_role(people) -> None:  # noqa: ANN001
    answer = _client(people["admin"]).post("/api/v1/staff/", {
        "username": "newdealer", "password": "a-long-secret-5", "credential_number": "GCB-1",
        "display_name": "New Dealer"}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["roles"] == []
    assert answer.json()["property"] == "PA-TEST-1"


# --- around the services: the admin site, the ORM ---------------------------------------

def test_an_admin_cannot_give_themselves_a_role_in_the_django_admin(client, make_staff) -> None:  # noqa: ANN001
    """Finding 2: demo_admin added the compliance group to itself through the user form."""
    admin = make_staff("admin", admin_site=True)
    verified_login(client, admin)
    compliance = Group.objects.get(name="compliance")
    page = client.post(f"/admin/auth/user/{admin.pk}/change/",
                       {"username": admin.username, "groups": [compliance.pk],
                        "is_active": "on", "is_staff": "on", "is_superuser": "on"})
    assert page.status_code == 403
    assert _fresh_roles(admin) == {"admin"}
    assert client.get("/admin/auth/group/add/").status_code == 403
    # no page sets a password in the admin (issue 35): the address leads home
    page = client.post(f"/admin/auth/user/{admin.pk}/password/",
                       {"password1": "new-pass-98765", "password2": "new-pass-98765"},
                       follow=True)
    assert page.request["PATH_INFO"] == "/admin/"
    admin.refresh_from_db()
    assert admin.check_password("test-pass-123")


def test_then_the_admin_cannot_approve_rules(make_staff) -> None:  # noqa: ANN001
    """Finding 2's sequel: the self-made compliance officer approved a Rules Submission."""
    from casino.actors import actor_of
    from tables.domain.rules_options import example_options
    from tables.services import rules

    admin, officer = make_staff("admin", admin_site=True), make_staff("compliance")
    draft = rules.rules_draft(actor=actor_of(officer), game="holdem",
                              options=example_options("holdem"))
    rules.rules_submit(actor=actor_of(officer), rules_id=draft.pk)
    answer = _client(admin).post(f"/api/v1/rules-submissions/{draft.pk}/approve/", {},
                                 format="json")
    assert (answer.status_code, answer.json()["code"]) == (403, "role_required")


@pytest.mark.parametrize("change", ["group", "superuser", "password", "profile",
                                    "credential"])
def test_writes_around_the_services_are_refused(make_staff, change: str) -> None:  # noqa: ANN001
    user = make_staff("dealer")
    with pytest.raises(StaffChangeOutsideService):
        if change == "group":
            user.groups.add(Group.objects.get(name="compliance"))
        elif change == "superuser":
            user.is_superuser = True
            user.save()
        elif change == "password":
            user.set_password("another-secret-1")
            user.save()
        elif change == "profile":
            user.staff.group_wide = True
            user.staff.save()
        else:
            user.staff.credential_number = "FORGED"
            user.staff.save()


def test_a_login_is_never_deleted(make_staff) -> None:  # noqa: ANN001
    """The audit trail names people by login: the profile protects it, and the guard
    refuses the delete of the profile itself."""
    from django.db.models import ProtectedError

    user = make_staff("dealer")
    with pytest.raises(ProtectedError):
        user.delete()
    with pytest.raises(StaffChangeOutsideService):
        user.staff.delete()


def test_logging_in_is_not_a_change(make_staff, client) -> None:  # noqa: ANN001
    """Logging in writes last_login (and may re-hash the password): not refused."""
    user = make_staff("dealer", admin_site=True)
    page = client.post("/admin/login/", {"username": user.username,
                                         "password": "test-pass-123", "next": "/admin/"})
    assert page.status_code == 302 and page["Location"] == "/admin/"
    user.refresh_from_db()
    assert user.last_login is not None


# --- the demo ------------------------------------------------------------------------------

def test_the_demo_property_logins_roles_and_superuser_flag_are_events(settings, tmp_path) -> None:  # noqa: ANN001
    from django.core.management import call_command

    settings.VAR_DIR = tmp_path
    call_command("seed_demo", stdout=open("/dev/null", "w"))
    assert Event.objects.filter(type="PropertyRegistered",
                                stream_id="property-PA-DEMO-0001").count() == 1
    admin = __import__("django.contrib.auth", fromlist=["get_user_model"]).get_user_model() \
        .objects.get(username="demo_admin")
    assert _types(admin) == ["StaffEnrolled", "RoleGranted", "AdminSiteAccessSet"]
    assert _stream(admin)[1].data["basis"] == "bootstrap"
    # one login per role, and a second compliance officer, count team member and finance
    # employee (four eyes on approvals, counts and exceptions)
    assert Event.objects.filter(type="StaffEnrolled").count() == len(Role) + 3


def test_the_first_two_people_are_bootstrapped_and_no_more(monkeypatch) -> None:  # noqa: ANN001
    """A new installation: the first administrator and compliance officer come from the
    command (as events); a third is refused — from then on, two people per grant."""
    from django.core.management import CommandError, call_command

    monkeypatch.setenv("STAFF_BOOTSTRAP_PASSWORD", "first-long-secret-1")
    out = open("/dev/null", "w")
    call_command("staff_bootstrap", "--licence", "PA-NEW-1", "--property-name", "New Casino",
                 "--username", "first_admin", "--credential-number", "GCB-A1",
                 "--role", "admin", stdout=out)
    call_command("staff_bootstrap", "--licence", "PA-NEW-1", "--username", "first_officer",
                 "--credential-number", "GCB-C1", "--role", "compliance", stdout=out)
    with pytest.raises(CommandError, match="already has an administrator"):
        call_command("staff_bootstrap", "--licence", "PA-NEW-1", "--username", "third",
                     "--credential-number", "GCB-C2", "--role", "compliance", stdout=out)
    granted = Event.objects.filter(type="RoleGranted", metadata__property="PA-NEW-1")
    assert sorted(e.data["role"] for e in granted) == ["admin", "compliance"]
    assert {e.metadata["actor"] for e in granted} == {"system:staff_bootstrap"}


def test_createsuperuser_is_refused(monkeypatch) -> None:  # noqa: ANN001
    from django.core.management import call_command

    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "a-long-secret-7")
    with pytest.raises(StaffChangeOutsideService):
        call_command("createsuperuser", "--noinput", "--username", "root",
                     "--email", "root@example.org")


# --- behind the services' back: verify_staff --------------------------------------------

def test_roles_changed_behind_the_services_back_are_found(people) -> None:  # noqa: ANN001
    """An UPDATE no Django signal sees (the database owner's) is still caught: the rows
    no longer agree with the staff events."""
    from django.core.management import CommandError, call_command
    from django.contrib.auth import get_user_model

    from casino.staff_audit import staff_drift

    admin, officer, newcomer = people["admin"], people["compliance"], people["newcomer"]
    grant = _request(_client(admin), newcomer, "floorperson").json()
    _client(officer).post(f"/api/v1/role-grants/{grant['id']}/approve/")
    _client(officer).post(f"/api/v1/staff/{people['dealer'].pk}/deactivate/",
                          {"reason": "left"}, format="json")
    assert staff_drift() == []
    call_command("verify_staff", stdout=open("/dev/null", "w"))

    User = get_user_model()
    User.groups.through.objects.create(user=admin,
                                       group=Group.objects.get(name="compliance"))
    User.objects.filter(pk=newcomer.pk).update(is_superuser=True)
    drift = staff_drift()
    assert f"{admin.username}: holds compliance, which no RoleGranted event gave" in drift
    assert f"{newcomer.username}: is_superuser is True, the events say False" in drift
    with pytest.raises(CommandError, match="2 difference"):
        call_command("verify_staff", stdout=open("/dev/null", "w"),
                     stderr=open("/dev/null", "w"))
