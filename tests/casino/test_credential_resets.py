"""A reset of someone's sign-in takes two people and ends in the subject's own hands
(issue 35, Build 1): the API's steps, their refusals (each a code, nothing appended), what
the approval ends, the enrolment with the two halves, and ``verify_staff``'s view of a
password set behind the events' back."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from casino.eventstore.models import Event
from casino.models import CredentialReset
from casino.services.credentials import credential_enrolment_complete
from casino.staff_audit import staff_drift
from casino.staff_guard import staff_change
from tests.conftest import token_client
from tests.console.conftest import PASSWORD, enrol_second_factor, totp_code

pytestmark = pytest.mark.django_db


class QuickPBKDF2(PBKDF2PasswordHasher):
    """A hasher the login upgrades an MD5 hash to (few rounds: a test's speed)."""

    iterations = 2
NEW_PASSWORD = "a-brand-new-long-secret-7"


def _stream(user: Any) -> list[Event]:
    return list(Event.objects.filter(stream_id=f"staff-{user.pk}").order_by("version"))


def _all_events() -> int:
    return Event.objects.count()


def _ask(admin: Any, subject: Any, what: str = "both") -> Any:
    return token_client(admin).post(f"/api/v1/staff/{subject.pk}/credential-resets/",
                                    {"what": what, "reason": "phone lost, identity checked"},
                                    format="json")


def _approve(approver: Any, reset_id: str) -> Any:
    return token_client(approver).post(f"/api/v1/credential-resets/{reset_id}/approve/", {},
                                       format="json")


def _password_login(user: Any, password: str = PASSWORD) -> int:
    """The token login's status with the password alone: 200 for a login whose roles need
    no second factor; an officer with no authenticator yet, whose password was accepted, is
    told to enrol one (403 ``two_factor_enrolment_required``), counted here as 200."""
    answer = APIClient().post("/api/v1/auth/token/", {"username": user.username,
                                                      "password": password}, format="json")
    if answer.status_code == 403 and answer.json()["code"] == "two_factor_enrolment_required":
        return 200
    return answer.status_code


def test_the_request_alone_changes_nothing_and_its_half_is_never_kept(make_staff) -> None:  # noqa: ANN001
    admin, officer = make_staff("admin"), make_staff("compliance")
    asked = _ask(admin, officer)
    assert asked.status_code == 201, asked.content
    body = asked.json()
    assert body["state"] == "pending" and body["what"] == "both"
    half = body["code"]
    assert len(half) == 9 and half[4] == "-"
    assert asked["Cache-Control"] == "no-store"
    # nothing about the officer's sign-in changed
    assert _password_login(officer) == 200
    row = CredentialReset.objects.get(pk=body["id"])
    assert half.replace("-", "") not in row.requester_half  # a salted hash, not the half
    requested = [e for e in _stream(officer) if e.type == "CredentialResetRequested"]
    assert len(requested) == 1 and requested[0].metadata["actor"] == admin.username
    assert half not in str(requested[0].data) and half.replace("-", "") not in str(
        requested[0].data)


def test_a_reset_asked_and_approved_by_one_person_is_refused(make_staff) -> None:  # noqa: ANN001
    admin, dealer = make_staff("admin"), make_staff("dealer")
    reset_id = _ask(admin, dealer).json()["id"]
    before = _all_events()
    answer = _approve(admin, reset_id)
    assert (answer.status_code, answer.json()["code"]) == (409, "same_person")
    assert _all_events() == before
    assert CredentialReset.objects.get(pk=reset_id).state == "pending"
    assert _password_login(dealer) == 200


def test_nobody_asks_for_a_reset_of_themselves(make_staff) -> None:  # noqa: ANN001
    admin = make_staff("admin")
    before = _all_events()
    answer = _ask(admin, admin)
    assert (answer.status_code, answer.json()["code"]) == (409, "self_reset")
    assert _all_events() == before and not CredentialReset.objects.exists()


def test_the_subject_may_not_approve_their_own_reset(make_staff) -> None:  # noqa: ANN001
    admin, officer = make_staff("admin"), make_staff("compliance")
    reset_id = _ask(admin, officer).json()["id"]
    before = _all_events()
    answer = _approve(officer, reset_id)
    assert (answer.status_code, answer.json()["code"]) == (409, "subject_approves_own_reset")
    assert _all_events() == before
    assert _password_login(officer) == 200


def test_an_unknown_or_another_propertys_request_is_not_found(make_staff) -> None:  # noqa: ANN001
    from casino.services import property_register

    second = make_staff("compliance")
    before = _all_events()
    unknown = _approve(second, str(uuid.uuid4()))
    assert (unknown.status_code, unknown.json()["code"]) == (404, "credential_reset_not_found")
    other = property_register(licence_number="PA-TEST-2", name="Other", system="test")
    elsewhere = _ask(make_staff("admin", property=other),
                     make_staff("dealer", property=other)).json()["id"]
    before = _all_events()
    answer = _approve(second, elsewhere)
    assert (answer.status_code, answer.json()["code"]) == (404, "credential_reset_not_found")
    assert _all_events() == before


def test_a_dealer_neither_asks_nor_approves(make_staff) -> None:  # noqa: ANN001
    dealer, other = make_staff("dealer"), make_staff("dealer")
    assert _ask(dealer, other).status_code == 403
    reset_id = _ask(make_staff("admin"), other).json()["id"]
    assert _approve(dealer, reset_id).status_code == 403


def test_the_approval_ends_every_session_and_token_and_shows_the_second_half(
        make_staff) -> None:  # noqa: ANN001
    from django_otp.plugins.otp_static.models import StaticDevice
    from django_otp.plugins.otp_totp.models import TOTPDevice

    admin, approver, officer = make_staff("admin"), make_staff("admin"), make_staff(
        "compliance")
    enrol_second_factor(officer)
    old_token = token_client(officer)
    assert old_token.get("/api/v1/me/").status_code == 200
    browser = Client()
    browser.force_login(officer)
    assert Session.objects.count() == 1
    asked = _ask(admin, officer).json()
    answer = _approve(approver, asked["id"])
    assert answer.status_code == 200, answer.content
    assert answer["Cache-Control"] == "no-store"
    body = answer.json()
    assert body["state"] == "approved" and body["code"] != asked["code"]
    # the officer's sign-in is gone until they enrol: password, devices, sessions, tokens
    officer.refresh_from_db()
    assert not officer.has_usable_password()
    assert _password_login(officer) == 401
    assert not TOTPDevice.objects.filter(user=officer).exists()
    assert not StaticDevice.objects.filter(user=officer).exists()
    assert old_token.get("/api/v1/me/").status_code == 401
    assert not AuthToken.objects.filter(user=officer).exists()
    assert Session.objects.count() == 0
    approved = [e for e in _stream(officer) if e.type == "CredentialResetApproved"][0]
    assert approved.metadata["actor"] == approver.username
    assert (approved.data["requested_by"], approved.data["approved_by"]) == (
        admin.username, approver.username)
    assert approved.data["tokens_revoked"] == 1 and approved.data["sessions_ended"] == 1
    assert approved.data["devices_removed"] == 2
    assert asked["code"] not in str(approved.data) and body["code"] not in str(approved.data)
    assert staff_drift() == []


def test_a_compliance_officer_approves_as_the_second_person(make_staff) -> None:  # noqa: ANN001
    admin, officer, dealer = make_staff("admin"), make_staff("compliance"), make_staff("dealer")
    asked = _ask(admin, dealer, "password").json()
    assert _approve(officer, asked["id"]).status_code == 200
    again = _approve(make_staff("admin"), asked["id"])
    assert (again.status_code, again.json()["code"]) == (409, "reset_already_decided")


def test_a_half_is_never_kept_under_an_idempotency_key(make_staff) -> None:  # noqa: ANN001
    from casino.models import IdempotencyKey

    admin, dealer = make_staff("admin"), make_staff("dealer")
    c = token_client(admin)
    url = f"/api/v1/staff/{dealer.pk}/credential-resets/"
    first = c.post(url, {"what": "password", "reason": "x"}, format="json",
                   HTTP_IDEMPOTENCY_KEY="reset-1")
    assert first.status_code == 201
    half = first.json()["code"]
    kept = IdempotencyKey.objects.get(key="reset-1")
    assert half.encode() not in bytes(kept.body)
    again = c.post(url, {"what": "password", "reason": "x"}, format="json",
                   HTTP_IDEMPOTENCY_KEY="reset-1")
    assert (again.status_code, again.json()["code"]) == (409, "answer_shown_once")
    assert CredentialReset.objects.count() == 1


def _approved(make_staff: Any, what: str = "both", roles: tuple = ("compliance",)) -> tuple:
    admin, approver = make_staff("admin"), make_staff("compliance")
    subject = make_staff(*roles)
    asked = _ask(admin, subject, what).json()
    approved = _approve(approver, asked["id"]).json()
    return subject, asked["code"], approved["code"], asked["id"]


def test_the_subject_enrols_with_both_halves_and_signs_in_anew(make_staff) -> None:  # noqa: ANN001
    from casino.services.two_factor import new_secret

    subject, first, second, reset_id = _approved(make_staff)
    secret = new_secret()
    codes = credential_enrolment_complete(
        username=subject.username, requester_code=first.lower(),  # as typed: case, dash
        approver_code=second.replace("-", " "), password=NEW_PASSWORD, secret=secret,
        code=totp_code(secret))
    assert len(codes) == 10
    subject.refresh_from_db()
    assert subject.check_password(NEW_PASSWORD)
    kinds = [e.type for e in _stream(subject)][-2:]
    assert kinds == ["TwoFactorEnrolled", "CredentialEnrolmentCompleted"]
    done = _stream(subject)[-1]
    assert done.metadata["actor"] == subject.username
    assert NEW_PASSWORD not in str(done.data) and secret not in str(_stream(subject)[-2].data)
    assert CredentialReset.objects.get(pk=reset_id).state == "completed"
    assert staff_drift() == []


@pytest.mark.parametrize("change", ["used", "expired", "wrong", "one_half"])
def test_a_used_expired_or_wrong_enrolment_is_refused_and_appends_nothing(
        make_staff, change: str) -> None:  # noqa: ANN001
    from casino.domain.errors import DomainError

    subject, first, second, reset_id = _approved(make_staff, "password", roles=("dealer",))
    kwargs = {"username": subject.username, "requester_code": first,
              "approver_code": second, "password": NEW_PASSWORD}
    if change == "used":
        credential_enrolment_complete(**kwargs)
        kwargs["password"] = "yet-another-long-secret-8"
    elif change == "expired":
        CredentialReset.objects.filter(pk=reset_id).update(
            expires_at=timezone.now() - timedelta(seconds=1))
    elif change == "wrong":
        kwargs["approver_code"] = "AAAA-AAAA"
    else:
        kwargs["approver_code"] = first  # the requester's half twice: one person alone
    before = _all_events()
    with pytest.raises(DomainError) as refused:
        credential_enrolment_complete(**kwargs)
    assert refused.value.code == {"used": "enrolment_used", "expired": "enrolment_expired",
                                  "wrong": "enrolment_code_wrong",
                                  "one_half": "enrolment_code_wrong"}[change]
    assert _all_events() == before
    subject.refresh_from_db()
    assert not subject.check_password("yet-another-long-secret-8")


def test_a_turned_down_reset_changes_nothing(make_staff) -> None:  # noqa: ANN001
    admin, officer, dealer = make_staff("admin"), make_staff("compliance"), make_staff("dealer")
    asked = _ask(admin, dealer).json()
    answer = token_client(officer).post(f"/api/v1/credential-resets/{asked['id']}/reject/",
                                        {"reason": "not checked in person"}, format="json")
    assert answer.status_code == 200 and answer.json()["state"] == "rejected"
    assert "code" not in answer.json()
    assert _password_login(dealer) == 200
    assert [e.type for e in _stream(dealer)][-1] == "CredentialResetRejected"


def test_verify_staff_reports_a_password_set_behind_the_events_back(make_staff) -> None:  # noqa: ANN001
    """A ``set_password`` in a shell (even one that opened the services' guard) leaves
    the hash no event recorded: reported, and ``manage.py verify_staff`` exits 1."""
    from django.core.management import call_command
    from django.core.management.base import CommandError

    dealer = make_staff("dealer")
    assert staff_drift() == []
    with staff_change():
        dealer.set_password("slipped-in-long-secret-1")
        dealer.save()
    assert staff_drift() == [f"{dealer.username}: the password was changed without a "
                             "credential event (no CredentialChanged, reset or enrolment "
                             "records it)"]
    with pytest.raises(CommandError):
        call_command("verify_staff")


def test_a_password_rehashed_on_login_is_recorded_not_reported(make_staff, settings) -> None:  # noqa: ANN001
    """Django re-hashes a right password on login under a new hasher: the same secret,
    ``PasswordRehashed`` recorded, so verify_staff finds no difference."""
    dealer = make_staff("dealer")
    settings.PASSWORD_HASHERS = [f"{__name__}.QuickPBKDF2",
                                 "django.contrib.auth.hashers.MD5PasswordHasher"]
    user = get_user_model().objects.get(pk=dealer.pk)
    assert user.check_password(PASSWORD)  # re-hashed under PBKDF2 and saved
    assert user.password.startswith("pbkdf2_sha256$")
    assert [e.type for e in _stream(dealer)][-1] == "PasswordRehashed"
    assert staff_drift() == []
