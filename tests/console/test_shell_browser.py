"""The shell in Chromium (issue 23 items 1 and 7): a compliance officer logs in through the
pages with an authenticator's code, sets one up first when they have none, and sees the
home; axe-core finds no serious or critical violation on the login, enrolment, code and
home pages; at 768 px (a floorperson's tablet) nothing scrolls sideways and the Menu
button opens the navigation from the keyboard."""

from __future__ import annotations

from base64 import b32decode
from typing import Any

import pytest
from django.db import connections

from tests.console._axe import serious_violations
from tests.console.conftest import PASSWORD, totp_code

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def _no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 768


def test_compliance_logs_in_with_a_code_and_sees_the_home(console_page: Any) -> None:
    try:
        _logs_in(console_page)
    finally:
        # the test's own ORM calls ran beside Playwright's event loop, on a connection of
        # their own: closed here, so no session outlives the test
        connections.close_all()


def _logs_in(console_page: Any) -> None:
    # someone new: password, then the enrolment page (the QR code and the key as text)
    newcomer = console_page.staff("compliance")
    page = console_page("compliance")  # a second officer, already enrolled: TOTP typed
    server = page.server
    assert page.locator("h1").inner_text() == "Waiting for me"
    assert page.title().startswith("Waiting for me")
    assert serious_violations(page) == []
    css = page.evaluate("getComputedStyle(document.querySelector('.console-header'))"
                        ".borderBottomStyle")
    assert css == "solid"  # the stylesheet was served (static files in the live server)

    fresh = page.context.browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        p = fresh.new_page()
        p.goto(f"{server}/console/login/")
        assert serious_violations(p) == []
        p.fill("#id_username", newcomer.username)
        p.fill("#id_password", PASSWORD)
        p.keyboard.press("Enter")
        p.wait_for_url("**/console/two-factor/enrol/**")
        assert p.locator("figure.qr svg").count() == 1
        assert serious_violations(p) == []
        key = p.locator("#otp-secret").inner_text().replace(" ", "")
        secret = b32decode(key + "=" * (-len(key) % 8)).hex()
        p.fill("#id_code", totp_code(secret))
        p.click("button[type=submit]")
        p.wait_for_url("**/console/two-factor/codes/**")
        codes = p.locator(".recovery-codes code").all_inner_texts()
        assert len(codes) == 10
        p.click("text=Continue")
        p.wait_for_url(f"{server}/console/")
        # log out, log in again: the code page, passed with a recovery code
        p.click("text=Log out")
        p.wait_for_url(f"{server}/console/login/")
        assert "You are logged out." in p.locator("#messages").inner_text()
        p.fill("#id_username", newcomer.username)
        p.fill("#id_password", PASSWORD)
        p.click("button[type=submit]")
        p.wait_for_url("**/console/two-factor/verify/**")
        assert serious_violations(p) == []
        p.fill("#id_code", codes[0])
        p.click("button[type=submit]")
        p.wait_for_url(f"{server}/console/")
        assert p.locator("h1").inner_text() == "Waiting for me"
    finally:
        fresh.close()

    # a tablet: no sideways scroll, the Menu button opens the navigation by keyboard
    page.set_viewport_size({"width": 768, "height": 1024})
    page.goto(f"{server}/console/")
    _no_sideways_scroll(page)
    toggle = page.locator("[data-nav-toggle]")
    assert toggle.is_visible()
    assert not page.locator("#console-nav-groups").is_visible()
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-expanded") == "true"
    assert page.locator("#console-nav-groups").is_visible()
    _no_sideways_scroll(page)
    assert serious_violations(page) == []
    page.keyboard.press("Escape")
    assert toggle.get_attribute("aria-expanded") == "false"
