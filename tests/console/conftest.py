"""The console's fixtures: a Django test client signed in as a new staff member with the
given roles, the second factor enrolled and verified for the roles that need it
(administrators and compliance officers, issue 23); and a Chromium page logged in through
the real login form."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from html import unescape
from typing import Any

import pytest
from django.test import Client

PASSWORD = "test-pass-123"  # tests/conftest.py make_staff's


def totp_code(secret_hex: str, *, at: float | None = None) -> str:
    """The six digits an authenticator app shows for ``secret_hex`` at ``at`` (now)."""
    from django_otp.oath import TOTP

    totp = TOTP(bytes.fromhex(secret_hex), step=30, t0=0, digits=6)
    totp.time = at if at is not None else time.time()
    return f"{totp.token():06d}"


def enrol_second_factor(user: Any) -> tuple[Any, list[str]]:
    """Enrol ``user``'s authenticator through the service, as the enrolment page does
    (``TwoFactorEnrolled``): the code is the previous step's, so the current step's is
    still unused for a login that follows. Returns the TOTP device and recovery codes."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from casino.actors import actor_of
    from casino.services.two_factor import new_secret, two_factor_enrol

    secret = new_secret()
    codes = two_factor_enrol(actor=actor_of(user), secret=secret,
                             code=totp_code(secret, at=time.time() - 30))
    return TOTPDevice.objects.get(user=user, confirmed=True), codes


def verified_login(client: Any, user: Any) -> Any:
    """``client.force_login(user)``, and for an administrator or compliance officer the
    second factor too (every session page asks it, console.middleware): the authenticator
    enrolled through the service if it is not yet, and this session verified with it as
    ``django_otp.login`` does. Returns the client."""
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from casino.roles import user_roles
    from casino.services.two_factor import two_factor_required

    client.force_login(user)
    if two_factor_required(user_roles(user)):
        device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
        if device is None:
            device, _ = enrol_second_factor(user)
        session = client.session
        session[DEVICE_ID_SESSION_KEY] = device.persistent_id
        session.save()
    return client


def client_of(actor: Any) -> Client:
    """A ``Client`` of the actor's user, signed in by ``verified_login``."""
    from django.contrib.auth import get_user_model

    return verified_login(Client(), get_user_model().objects.get(pk=actor.user_id))


def text_of(html: str) -> str:
    """The page's words as a person reads them (tags out, entities read, spaces joined)."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.fixture
def console_client(make_staff: Callable) -> Callable:
    """``console_client("floorperson")`` → a ``Client`` logged in as a new user with that
    role; ``.user`` is the user. For an administrator or compliance officer the second
    factor is enrolled and this session verified with it (as ``django_otp.login`` does);
    ``.device`` is their authenticator (None for the others)."""
    from django_otp import DEVICE_ID_SESSION_KEY

    from casino.services.two_factor import two_factor_required

    def make(*roles: str, username: str | None = None, property=None,  # noqa: ANN001
             verified: bool = True) -> Client:
        user = make_staff(*roles, username=username, property=property)
        c = Client()
        c.force_login(user)
        c.user = user
        c.device = None
        if two_factor_required(frozenset(roles)):
            c.device, c.recovery_codes = enrol_second_factor(user)
            if verified:
                session = c.session
                session[DEVICE_ID_SESSION_KEY] = c.device.persistent_id
                session.save()
        return c

    return make


_browser_seq = iter(range(1, 10**6))


@pytest.fixture
def console_page(browser: Any, live_server_ctl: Any, committed_db: None) -> Iterator[Callable]:
    """``console_page("compliance")`` → a Playwright page (1280×900) logged in through
    ``/console/login/`` as a new user with those roles (committed: the live server sees
    them; every table is emptied after the test, ``committed_db``); for an administrator or
    compliance officer the authenticator is enrolled and a current code typed on the
    verify page. ``page.user`` is the user, ``page.server`` the live server's URL.
    ``console_page.staff(*roles)`` makes a committed user without a page."""
    from django.db import connections

    from casino.services import property_register, staff_bootstrap
    from casino.services.two_factor import two_factor_required

    # the test's ORM calls start on a connection of their own, opened now: none left over
    # from an earlier test's context (where Playwright's loop ran) is reused half-closed
    connections.close_all()
    contexts: list[Any] = []

    def staff(*roles: str, username: str | None = None) -> Any:
        prop = property_register(licence_number="PA-TEST-1", name="Test Casino", system="test")
        n = next(_browser_seq)
        return staff_bootstrap(property=prop, username=username or f"page{n}",
                               password=PASSWORD, credential_number=f"B-{n:05d}",
                               roles=roles, system="test").user

    def make(*roles: str, username: str | None = None) -> Any:
        user = staff(*roles, username=username)
        device = None
        if two_factor_required(frozenset(roles)):
            device, _ = enrol_second_factor(user)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        page = context.new_page()
        server = live_server_ctl.url
        page.goto(f"{server}/console/login/")
        page.fill("#id_username", user.username)
        page.fill("#id_password", PASSWORD)
        page.click("button[type=submit]")
        if device is not None:
            page.wait_for_url("**/console/two-factor/verify/**")
            page.fill("#id_code", totp_code(device.key))
            page.click("button[type=submit]")
        page.wait_for_url(f"{server}/console/**")
        page.user = user
        page.server = server
        return page

    make.staff = staff
    try:
        yield make
    finally:
        for context in contexts:
            context.close()
        from django.db import connections

        connections.close_all()  # the ORM calls made beside Playwright's loop
