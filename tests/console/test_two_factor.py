"""The second factor (issue 23 item 1): required of administrators and compliance
officers, not of the other roles; its enrolment and reset are staff events in the
person's stream (``staff-<user id>``); a reset takes two people (issue 35)."""

from __future__ import annotations

import time

import pytest
from django.test import Client

from casino.actors import actor_of
from casino.domain.errors import ConflictError
from casino.eventstore.models import Event
from tests.console.conftest import PASSWORD, enrol_second_factor, totp_code


def _events(user, kind: str) -> list[dict]:  # noqa: ANN001
    return list(Event.objects.filter(stream_id=f"staff-{user.pk}", type=kind)
                .values_list("data", flat=True))


def _password_only(user) -> Client:  # noqa: ANN001
    c = Client()
    answer = c.post("/console/login/", {"username": user.username, "password": PASSWORD})
    assert answer.status_code == 302
    return c


@pytest.mark.parametrize("role", ["compliance", "admin"])
def test_enrolment_is_required_and_recorded(make_staff, role: str) -> None:  # noqa: ANN001
    user = make_staff(role)
    c = _password_only(user)
    asked = c.get("/console/waiting/")
    assert asked.status_code == 302
    assert asked["Location"] == "/console/two-factor/enrol/?next=%2Fconsole%2Fwaiting%2F"
    page = c.get(asked["Location"])
    assert page.status_code == 200
    assert b"<svg" in page.content and b"QR code for your authenticator app" in page.content
    secret = c.session["console_two_factor_secret"]
    assert page.context["secret"].replace(" ", "")  # the key to type, in base32
    # a wrong code: the field says so, nothing recorded
    wrong = c.post("/console/two-factor/enrol/?next=/console/waiting/", {"code": "000000"})
    if wrong.status_code == 302:  # 000000 happened to be the code: vanishingly rare
        pytest.skip("the random secret's code was 000000")
    assert wrong.status_code == 400
    assert b"That code does not match" in wrong.content
    assert _events(user, "TwoFactorEnrolled") == []
    ok = c.post("/console/two-factor/enrol/", {"code": totp_code(secret),
                                              "next": "/console/waiting/"})
    assert ok.status_code == 302
    assert ok["Location"] == "/console/two-factor/codes/?next=/console/waiting/"
    codes = c.get(ok["Location"])
    assert len(codes.context["codes"]) == 10
    assert c.get(ok["Location"]).status_code == 302  # shown once
    assert c.get("/console/waiting/").status_code == 200  # this session is verified
    recorded = _events(user, "TwoFactorEnrolled")
    assert len(recorded) == 1
    assert recorded[0]["username"] == user.username and recorded[0]["kind"] == "totp"
    assert secret not in str(recorded[0])  # never the secret


def test_with_a_device_a_code_is_asked(make_staff) -> None:  # noqa: ANN001
    user = make_staff("compliance")
    device, recovery = enrol_second_factor(user)
    c = _password_only(user)
    asked = c.get("/console/")
    assert asked["Location"] == "/console/two-factor/verify/?next=%2Fconsole%2F"
    wrong = c.post("/console/two-factor/verify/", {"code": "12345"})
    assert wrong.status_code == 400 and b"That code does not match" in wrong.content
    assert c.get("/console/").status_code == 302
    throttled = c.post("/console/two-factor/verify/", {"code": totp_code(device.key)})
    assert b"Too many wrong codes in a row" in throttled.content  # django-otp's 1 s wait
    time.sleep(1.1)
    ok = c.post("/console/two-factor/verify/", {"code": totp_code(device.key),
                                               "next": "/console/"})
    assert ok.status_code == 302 and ok["Location"] == "/console/"
    assert c.get("/console/").status_code == 200


def test_a_recovery_code_works_once(make_staff) -> None:  # noqa: ANN001
    user = make_staff("admin")
    _, recovery = enrol_second_factor(user)
    first = _password_only(user)
    assert first.post("/console/two-factor/verify/", {"code": recovery[0]}).status_code == 302
    assert first.get("/console/").status_code == 200
    again = _password_only(user)
    assert again.post("/console/two-factor/verify/", {"code": recovery[0]}).status_code == 400


def test_a_dealer_is_not_asked(make_staff) -> None:  # noqa: ANN001
    c = _password_only(make_staff("dealer"))
    assert c.get("/console/").status_code == 200


def test_a_second_factor_reset_takes_two_people_and_ends_on_the_enrolment_page(
        console_client, make_staff) -> None:  # noqa: ANN001
    """Issue 35: the one-person reset page is gone; an administrator asks, a compliance
    officer approves (``CredentialResetApproved``: the devices removed), and the officer's
    next login with the password alone may not enrol a new authenticator — only the
    enrolment page with the two codes does (``enrolment_pending``, nothing appended)."""
    from casino.services.credentials import (
        credential_reset_approve,
        credential_reset_request,
    )

    admin, approver = console_client("admin"), console_client("compliance")
    officer = make_staff("compliance")
    enrol_second_factor(officer)
    assert admin.get("/console/two-factor/reset/").status_code == 404
    reset = credential_reset_request(actor=actor_of(admin.user), staff_id=officer.pk,
                                     what="second_factor", reason="lost phone")
    credential_reset_approve(actor=actor_of(approver.user), reset_id=reset.pk)
    approved = Event.objects.get(stream_id=f"staff-{officer.pk}",
                                 type="CredentialResetApproved")
    assert approved.metadata["actor"] == approver.user.username
    assert approved.data["devices_removed"] == 2  # the authenticator and the recovery codes
    c = _password_only(officer)
    assert c.get("/console/")["Location"].startswith("/console/two-factor/enrol/")
    before = Event.objects.filter(stream_id=f"staff-{officer.pk}").count()
    c.get("/console/two-factor/enrol/")
    secret = c.session["console_two_factor_secret"]
    refused = c.post("/console/two-factor/enrol/", {"code": totp_code(secret)})
    assert refused.status_code == 400
    assert b"enrolment page" in refused.content
    assert Event.objects.filter(stream_id=f"staff-{officer.pk}").count() == before
    assert len(_events(officer, "TwoFactorEnrolled")) == 1  # only the first enrolment


def test_nobody_asks_for_their_own_reset(console_client) -> None:  # noqa: ANN001
    """Four eyes: a reset of one's own sign-in is refused (``self_reset``), nothing
    appended."""
    from casino.services.credentials import credential_reset_request

    admin = console_client("admin")
    before = Event.objects.filter(stream_id=f"staff-{admin.user.pk}").count()
    with pytest.raises(ConflictError) as refused:
        credential_reset_request(actor=actor_of(admin.user), staff_id=admin.user.pk,
                                 what="second_factor", reason="mine")
    assert refused.value.code == "self_reset"
    assert Event.objects.filter(stream_id=f"staff-{admin.user.pk}").count() == before


def test_a_code_older_than_one_step_is_refused(make_staff) -> None:  # noqa: ANN001
    from casino.services.two_factor import new_secret, two_factor_enrol

    user = make_staff("admin")
    secret = new_secret()
    from casino.domain.errors import DomainError

    with pytest.raises(DomainError) as refused:
        two_factor_enrol(actor=actor_of(user), secret=secret,
                         code=totp_code(secret, at=time.time() - 120))
    assert refused.value.code == "wrong_code"
