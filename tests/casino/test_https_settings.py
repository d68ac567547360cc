"""HTTPS settings (issue 35 item 4): in production (a ``DATABASE_URL``) the session and
CSRF cookies are ``Secure``, HTTPS answers carry HSTS, and the TLS-ending proxy's
``X-Forwarded-Proto`` marks a request HTTPS; the embedded default (``make run``, plain
http on 127.0.0.1) keeps them off so its logins still work.

The defaults are read from a fresh process with and without ``DATABASE_URL`` (settings
are read once, at start-up); the requests then run with exactly those values.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from casino import env

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "test-pass-123"
#: the settings this module is about, each also an environment variable
NAMES = ("SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS",
         "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SECURE_PROXY_SSL_HEADER",
         "SECURE_SSL_REDIRECT")
YEAR = 365 * 24 * 3600  # 31,536,000 seconds


def _defaults(*, production: bool, tmp_path: Path) -> dict[str, Any]:
    """The settings a process starts with, none of them set in its environment."""
    environ = {k: v for k, v in os.environ.items() if k not in NAMES and k != "DATABASE_URL"}
    environ.update(PYTHONPATH=str(ROOT), DJANGO_SETTINGS_MODULE="casino.settings",
                   CASINO_VAR_DIR=str(tmp_path))
    if production:  # read, never connected to, by the settings
        environ["DATABASE_URL"] = "postgres://casino@db.example:5432/casino"
    code = ("import json, django; django.setup(); from django.conf import settings as s; "
            f"print(json.dumps({{n: getattr(s, n) for n in {NAMES!r}}}))")
    out = subprocess.run([sys.executable, "-c", code], env=environ, cwd=ROOT, check=True,
                         capture_output=True, text=True, timeout=120).stdout
    values = json.loads(out.splitlines()[-1])
    header = values["SECURE_PROXY_SSL_HEADER"]
    values["SECURE_PROXY_SSL_HEADER"] = tuple(header) if header else None
    return values


@pytest.fixture(scope="module")
def production(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _defaults(production=True, tmp_path=tmp_path_factory.mktemp("prod"))


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _defaults(production=False, tmp_path=tmp_path_factory.mktemp("embedded"))


def test_production_defaults_turn_every_https_protection_on(production: dict) -> None:
    """Secure cookies, HSTS for a year with the subdomains, the proxy's header; preload
    and the application's own redirect left to the operator (docs/operations)."""
    assert production == {
        "SESSION_COOKIE_SECURE": True, "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": YEAR, "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": False,
        "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
        "SECURE_SSL_REDIRECT": False}


def test_the_embedded_default_keeps_them_off(embedded: dict) -> None:
    assert embedded == {
        "SESSION_COOKIE_SECURE": False, "CSRF_COOKIE_SECURE": False,
        "SECURE_HSTS_SECONDS": 0, "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
        "SECURE_HSTS_PRELOAD": False, "SECURE_PROXY_SSL_HEADER": None,
        "SECURE_SSL_REDIRECT": False}


@pytest.mark.parametrize(("raw", "header"), [
    ("X-Forwarded-Proto=https", ("HTTP_X_FORWARDED_PROTO", "https")),
    ("X-Forwarded-Ssl=on", ("HTTP_X_FORWARDED_SSL", "on")), ("off", None)])
def test_the_proxy_header_is_named_as_the_proxy_sends_it(monkeypatch, raw: str,  # noqa: ANN001
                                                          header: Any) -> None:
    monkeypatch.setenv("SECURE_PROXY_SSL_HEADER", raw)
    assert env.env_header("SECURE_PROXY_SSL_HEADER", None) == header


@pytest.mark.parametrize("raw", ["X-Forwarded-Proto", "=https", "X-Forwarded-Proto="])
def test_a_proxy_header_without_its_value_stops_start_up(monkeypatch,  # noqa: ANN001
                                                         raw: str) -> None:
    monkeypatch.setenv("SECURE_PROXY_SSL_HEADER", raw)
    with pytest.raises(ImproperlyConfigured, match="SECURE_PROXY_SSL_HEADER"):
        env.env_header("SECURE_PROXY_SSL_HEADER", None)


def _apply(settings: Any, values: dict[str, Any]) -> None:  # noqa: ANN401
    for name, value in values.items():
        setattr(settings, name, value)


@pytest.mark.django_db
def test_with_the_production_defaults_a_login_over_https_gets_secure_cookies_and_hsts(
        settings, make_staff, production: dict) -> None:  # noqa: ANN001
    """Behind the proxy (``X-Forwarded-Proto: https``): the session and CSRF cookies
    ``Secure``, ``Strict-Transport-Security: max-age=31536000; includeSubDomains``. The
    same request without the header is plain http: no HSTS (a browser ignores it there)."""
    _apply(settings, production)
    user = make_staff("dealer")
    c = Client()  # its handler reads the settings above
    page = c.get("/console/login/", HTTP_X_FORWARDED_PROTO="https")
    assert page["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    assert c.cookies[settings.CSRF_COOKIE_NAME]["secure"] is True
    answer = c.post("/console/login/", {"username": user.username, "password": PASSWORD},
                    HTTP_X_FORWARDED_PROTO="https", REMOTE_ADDR="10.1.2.3")
    assert answer.status_code == 302 and answer["Location"] == "/console/"
    assert c.cookies[settings.SESSION_COOKIE_NAME]["secure"] is True
    assert "Strict-Transport-Security" in answer
    assert "Strict-Transport-Security" not in Client().get("/console/login/")


@pytest.mark.django_db
def test_the_embedded_default_still_logs_in_over_http(settings, make_staff,  # noqa: ANN001
                                                      embedded: dict) -> None:
    """With the embedded default's values a login over plain http opens the console's
    home, and neither cookie is ``Secure`` (a browser keeps and sends both over http; a
    ``Secure`` one it would drop there, and the login would go round in a circle)."""
    _apply(settings, embedded)
    user = make_staff("dealer")
    c = Client()
    page = c.get("/console/login/")
    assert "Strict-Transport-Security" not in page
    answer = c.post("/console/login/", {"username": user.username, "password": PASSWORD},
                    REMOTE_ADDR="10.1.2.3")
    assert answer.status_code == 302 and answer["Location"] == "/console/"
    assert (c.cookies[settings.SESSION_COOKIE_NAME]["secure"],
            c.cookies[settings.CSRF_COOKIE_NAME]["secure"]) == ("", "")
    home = c.get("/console/")
    assert home.status_code == 200 and b"Waiting for me" in home.content
