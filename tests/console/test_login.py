"""Logging in to the console (issue 23 item 1): the same accounts and the same lock-out as
the API's token login (django-axes, casino.services.logins), ``next`` only on this site,
logging out by POST only, sessions of one shift."""

from __future__ import annotations

import pytest
from django.test import Client

from casino.eventstore.models import Event

PASSWORD = "test-pass-123"


def _login(client: Client, username: str, password: str = PASSWORD, **extra: str):  # noqa: ANN202
    return client.post("/console/login/", {"username": username, "password": password, **extra},
                       REMOTE_ADDR="10.1.2.3")


def test_login_page_and_a_good_password(make_staff) -> None:  # noqa: ANN001
    user = make_staff("dealer")
    c = Client()
    page = c.get("/console/login/")
    assert page.status_code == 200
    assert b'<label for="id_username">' in page.content
    answer = _login(c, user.username)
    assert answer.status_code == 302 and answer["Location"] == "/console/"
    home = c.get("/console/")
    assert home.status_code == 200
    assert b"Waiting for me" in home.content


def test_wrong_password_is_a_sentence_and_counts(make_staff) -> None:  # noqa: ANN001
    user = make_staff("dealer")
    answer = _login(Client(), user.username, "wrong-password")
    assert answer.status_code == 400
    assert b"That username and password do not match a login." in answer.content
    from axes.models import AccessAttempt

    assert AccessAttempt.objects.get(username=user.username).failures_since_start == 1


def test_locked_out_after_the_limit_as_on_the_api(make_staff, settings) -> None:  # noqa: ANN001
    """LOGIN_FAILURE_LIMIT wrong passwords lock the account: the page says so in a
    sentence (429, never a 500), even the right password is refused, and the lock-out is
    the same event the API's lock-out appends (LoginLockedOut in login-<username>)."""
    settings.AXES_FAILURE_LIMIT = 3
    user = make_staff("floorperson")
    c = Client()
    for _ in range(3):
        _login(c, user.username, "wrong-password")
    answer = _login(c, user.username)  # the right one, too late
    assert answer.status_code == 429
    assert b"Too many failed logins: this account is locked for 30 minutes" \
        in answer.content
    assert b"<form" in answer.content  # the console's own page, not axes' bare one
    assert "_auth_user_id" not in c.session
    assert Event.objects.filter(stream_id=f"login-{user.username}",
                                type="LoginLockedOut").count() == 1


@pytest.mark.parametrize("wanted, lands", [
    ("/console/waiting/", "/console/waiting/"),
    ("https://evil.example/console/", "/console/"),
    ("//evil.example/", "/console/"),
    ("javascript:alert(1)", "/console/"),
])
def test_next_only_on_this_site(make_staff, wanted: str, lands: str) -> None:  # noqa: ANN001
    user = make_staff("cashier")
    answer = _login(Client(), user.username, next=wanted)
    assert answer.status_code == 302 and answer["Location"] == lands


def test_a_page_asked_for_before_login_comes_back_after(make_staff) -> None:  # noqa: ANN001
    user = make_staff("cashier")
    c = Client()
    asked = c.get("/console/waiting/?x=1")
    assert asked.status_code == 302
    assert asked["Location"] == "/console/login/?next=%2Fconsole%2Fwaiting%2F%3Fx%3D1"
    assert b'name="next" value="/console/waiting/?x=1"' in c.get(asked["Location"]).content


def test_logout_is_post_only(console_client) -> None:  # noqa: ANN001
    c = console_client("dealer")
    assert c.get("/console/logout/").status_code == 405
    assert c.get("/console/").status_code == 200  # still logged in
    answer = c.post("/console/logout/")
    assert answer.status_code == 302 and answer["Location"] == "/console/login/"
    assert c.get("/console/").status_code == 302


def test_logout_needs_the_csrf_token(console_client) -> None:  # noqa: ANN001
    c = console_client("dealer")
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = c.cookies
    assert strict.post("/console/logout/").status_code == 403


def test_a_login_without_a_staff_profile_is_refused(db) -> None:  # noqa: ANN001
    """Django's own superuser (made outside the staff services) is no staff member: 403
    with a sentence, never the console."""
    from django.contrib.auth import get_user_model

    from casino.staff_guard import staff_change

    with staff_change():
        user = get_user_model().objects.create_user("nobody", password=PASSWORD)
    answer = _login(Client(), "nobody")
    assert answer.status_code == 403
    assert b"not enrolled as staff of a property" in answer.content
    c = Client()
    c.force_login(user)
    page = c.get("/console/")
    assert page.status_code == 403
    assert b"not enrolled as staff of a property" in page.content


def test_session_lasts_one_shift(make_staff, settings) -> None:  # noqa: ANN001
    """CONSOLE_SESSION_MINUTES (10 h by default) is the session cookie's age; closing the
    browser does not end it; the cookie is HttpOnly and SameSite=Lax."""
    assert settings.CONSOLE_SESSION_MINUTES == 600
    assert settings.SESSION_COOKIE_AGE == 600 * 60
    user = make_staff("dealer")
    c = Client()
    _login(c, user.username)
    cookie = c.cookies[settings.SESSION_COOKIE_NAME]
    assert cookie["max-age"] == 36000
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert c.session.get_expiry_age() == 36000


def test_csp_header_on_a_console_page(console_client) -> None:  # noqa: ANN001
    page = console_client("dealer").get("/console/")
    policy = page["Content-Security-Policy"]
    for part in ("default-src 'self'", "script-src 'self'", "style-src 'self'",
                 "img-src 'self' data:", "object-src 'none'", "base-uri 'none'",
                 "frame-ancestors 'none'", "form-action 'self'"):
        assert part in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
