"""The console's side of a two-person reset (issue 35): the request's answer shows the
asker's half once and keeps no copy, the approval page shows what is signed and waits on
"Waiting for me" for a second person only, the enrolment page (no login) takes the two
halves and refuses them when used, expired or wrong with nothing appended."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from casino.actors import actor_of
from casino.eventstore.models import Event
from casino.models import CredentialReset
from casino.services.credentials import credential_reset_approve, credential_reset_request
from tests.console.conftest import text_of

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "a-brand-new-long-secret-7"


def _post_form(client: Client, url: str, data: dict) -> object:
    """GET the declared command's form, then POST it with its own key and version."""
    import re

    page = client.get(url).content.decode()
    fields = dict(re.findall(r'name="(_key|_version|_next)" value="([^"]*)"', page))
    return client.post(url, {**fields, **data})


def test_asking_shows_the_askers_half_once(console_client, make_staff) -> None:  # noqa: ANN001
    admin = console_client("admin")
    dealer = make_staff("dealer")
    answer = _post_form(admin, f"/console/do/credential_reset_request/{dealer.pk}/",
                        {"what": "password", "reason": "forgot it after the holiday"})
    assert answer.status_code == 200
    assert answer["Cache-Control"] == "no-store"
    words = text_of(answer.content.decode())
    assert "Your half of the code" in words and "in person" in words
    assert "second person" in words  # nothing changes until then
    reset = CredentialReset.objects.get()
    assert reset.state == "pending"
    # the waiting list of a second administrator, not the asker's button
    other = console_client("admin")
    home = text_of(other.get("/console/").content.decode())
    assert "Sign-in resets awaiting approval" in home
    assert f"/console/do/credential_reset_approve/{reset.pk}/" in other.get(
        "/console/").content.decode()
    mine = admin.get("/console/").content.decode()
    assert f'href="/console/do/credential_reset_approve/{reset.pk}/"' not in mine


def test_the_approval_page_shows_what_is_signed(console_client, make_staff) -> None:  # noqa: ANN001
    admin, officer = console_client("admin"), console_client("compliance")
    dealer = make_staff("dealer")
    reset = credential_reset_request(actor=actor_of(admin.user), staff_id=dealer.pk,
                                     what="both", reason="phone stolen on the bus")
    page = officer.get(f"/console/do/credential_reset_approve/{reset.pk}/")
    assert page.status_code == 200
    words = text_of(page.content.decode())
    for shown in ("What you sign", dealer.username, "The password and the second factor",
                  admin.user.username, "phone stolen on the bus"):
        assert shown in words, shown
    assert str(reset.pk) not in words  # no id shown to a person
    done = _post_form(officer, f"/console/do/credential_reset_approve/{reset.pk}/", {})
    assert done.status_code == 200 and done["Cache-Control"] == "no-store"
    assert admin.user.username in text_of(done.content.decode())  # the other half's holder


def test_approving_ones_own_request_is_refused_in_words(console_client, make_staff) -> None:  # noqa: ANN001
    admin = console_client("admin")
    dealer = make_staff("dealer")
    reset = credential_reset_request(actor=actor_of(admin.user), staff_id=dealer.pk,
                                     what="password", reason="x")
    before = Event.objects.count()
    answer = _post_form(admin, f"/console/do/credential_reset_approve/{reset.pk}/", {})
    assert answer.status_code == 409
    assert "different person" in text_of(answer.content.decode())
    assert Event.objects.count() == before


def _approved(console_client, make_staff, what: str = "password") -> tuple:  # noqa: ANN001
    admin, officer = console_client("admin"), console_client("compliance")
    dealer = make_staff("dealer")
    asked = credential_reset_request(actor=actor_of(admin.user), staff_id=dealer.pk,
                                     what=what, reason="forgot it")
    done = credential_reset_approve(actor=actor_of(officer.user), reset_id=asked.pk)
    return dealer, asked.half_code, done.half_code


def test_the_enrolment_page_sets_a_new_password_and_refuses_the_codes_again(
        console_client, make_staff) -> None:  # noqa: ANN001
    dealer, first, second = _approved(console_client, make_staff)
    c = Client()
    codes = {"username": dealer.username, "requester_code": first, "approver_code": second}
    step = c.post("/console/enrol/", codes)
    assert step.status_code == 200 and step["Cache-Control"] == "no-store"
    assert "Choose a new password" in text_of(step.content.decode())
    mismatch = c.post("/console/enrol/", {**codes, "password": NEW_PASSWORD,
                                          "password_again": "something-else-long-1"})
    assert mismatch.status_code == 400
    done = c.post("/console/enrol/", {**codes, "password": NEW_PASSWORD,
                                      "password_again": NEW_PASSWORD})
    assert done.status_code == 200, text_of(done.content.decode())
    assert "Your sign-in is set up" in text_of(done.content.decode())
    dealer.refresh_from_db()
    assert dealer.check_password(NEW_PASSWORD)
    before = Event.objects.count()
    again = c.post("/console/enrol/", codes)
    assert again.status_code == 400
    assert "already used" in text_of(again.content.decode())
    assert Event.objects.count() == before


@pytest.mark.parametrize("change", ["expired", "wrong", "unknown_user"])
def test_the_enrolment_page_refuses_expired_or_wrong_codes(console_client, make_staff,
                                                          change: str) -> None:  # noqa: ANN001
    dealer, first, second = _approved(console_client, make_staff)
    codes = {"username": dealer.username, "requester_code": first, "approver_code": second}
    if change == "expired":
        CredentialReset.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    elif change == "wrong":
        codes["approver_code"] = "ZZZZ-ZZZZ"
    else:
        codes["username"] = "nobody-by-this-name"
    before = Event.objects.count()
    answer = Client().post("/console/enrol/", {**codes, "password": NEW_PASSWORD,
                                               "password_again": NEW_PASSWORD})
    assert answer.status_code in (400, 409)
    words = text_of(answer.content.decode())
    assert ("expired" in words) if change == "expired" else ("wrong" in words)
    assert Event.objects.count() == before
    dealer.refresh_from_db()
    assert not dealer.check_password(NEW_PASSWORD)


def test_a_lock_out_is_lifted_by_two_people_through_the_console(console_client,
                                                                make_staff) -> None:  # noqa: ANN001
    """Asked for on the form, waiting on a second person's list with what it signs,
    refused to the one who asked, approved by another (``LoginUnlocked``)."""
    from casino.models import LoginUnlockRequest

    admin, officer = console_client("admin"), console_client("compliance")
    dealer = make_staff("dealer")
    asked = _post_form(admin, "/console/do/login_unlock_request/",
                       {"username": dealer.username, "reason": "mistyped after the break"})
    assert asked.status_code == 303
    req = LoginUnlockRequest.objects.get()
    url = f"/console/do/login_unlock_approve/{req.pk}/"
    assert url in officer.get("/console/").content.decode()
    assert url not in admin.get("/console/").content.decode()  # shown, no button
    words = text_of(officer.get(url).content.decode())
    assert "What you sign" in words and dealer.username in words
    assert admin.user.username in words and "mistyped after the break" in words
    before = Event.objects.count()
    mine = _post_form(admin, url, {})
    assert mine.status_code == 409 and Event.objects.count() == before
    done = _post_form(officer, url, {})
    assert done.status_code == 303
    assert Event.objects.filter(type="LoginUnlocked", data__username=dealer.username,
                                data__requested_by=admin.user.username).count() == 1
