"""The Django admin changes nothing, shows no secret and no other property's row (issue 35,
Build item 2 and its "Done when").

Two properties, each with an administrator of the admin site (A's as the fixtures make
one, B's as ``staff_bootstrap --admin-site`` does), an officer with an authenticator,
recovery codes and an API token, a dealer locked out by axes, and a pending role request.
Each administrator crawls every admin URL: ``/admin/`` and every link within it, every
registered model's list and add page, a row's change, history, delete and config page for
a row of each property, the site's own pages (password change, logout, jsi18n, view on
site, autocomplete, each app's index). Any form that posts (but the logout's), any input
outside a search, any secret, any mark of the other property's rows or any 5xx fails it.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.test import Client, RequestFactory
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from knox.models import AuthToken

from casino.actors import actor_of
from casino.models import Property
from casino.services import logins, staff
from tests.casino.admin_crawl import Crawl
from tests.console.conftest import enrol_second_factor, verified_login

pytestmark = pytest.mark.django_db

MARKS = {"A": ("alphamark", "PA-TEST-1"), "B": ("bravomark", "PA-BRAVO-2")}
#: the models of which the fixture makes a row at each property (app.model, as in URLs)
SEEDED = {"otp_totp.totpdevice", "otp_static.staticdevice", "axes.accessattempt",
          "axes.accesslog", "axes.accessfailurelog", "auth.user", "casino.staffprofile",
          "casino.rolegrant", "casino.event", "casino.property", "tables.gametable",
          "tables.deck", "tables.round", "tables.rulessubmission"}


def _seed(make_staff: Callable, prop: Any, mark: str, admin_user: Any) -> dict[str, Any]:
    """One property's rows: staff whose names carry ``mark``, and every kind of secret."""
    officer = make_staff("compliance", username=f"{mark}-officer", property=prop)
    enrol_second_factor(officer)
    token, _expiry = logins.token_issue(officer)  # as POST auth/token/ does: TokenIssued
    dealer = make_staff("dealer", username=f"{mark}-dealer", property=prop)
    newcomer = make_staff(username=f"{mark}-newcomer", property=prop)
    staff.role_grant_request(actor=actor_of(admin_user), staff_id=newcomer.pk,
                             role="floorperson", reason=f"{mark} training done")
    seen = {"user_agent": f"{mark}-browser", "ip_address": "10.0.0.9", "http_accept": "*/*",
            "path_info": "/console/login/"}
    AccessAttempt.objects.create(username=dealer.username, failures_since_start=5,
                                 get_data="", post_data=f"password={mark}-typed-secret",
                                 **seen)
    AccessFailureLog.objects.create(username=dealer.username, locked_out=True, **seen)
    AccessLog.objects.create(username=officer.username, session_hash=f"{mark}0" * 6, **seen)
    _a_table(make_staff, prop, mark, actor_of(admin_user), actor_of(officer))
    return {"admin": admin_user, "officer": officer, "dealer": dealer, "token": token}


def _a_table(make_staff: Callable, prop: Any, mark: str, admin_actor: Any,
             officer: Any) -> None:
    """A Five Card Hi-Lo table named for ``mark``, its Rules in effect, a deck in play and
    a round open: rows of the tables app's every model but the table results."""
    from tables.demo import deck_ready
    from tables.domain.rules_options import example_options
    from tables.services import rounds, rules, tables

    approver = actor_of(make_staff("compliance", username=f"{mark}-approver", property=prop))
    floor = actor_of(make_staff("floorperson", username=f"{mark}-floor", property=prop))
    dealer = actor_of(make_staff("dealer", username=f"{mark}-table-dealer", property=prop))
    draft = rules.rules_draft(actor=officer, game="five-card-hi-lo",
                              options=example_options("five-card-hi-lo"),
                              notes=f"{mark} house rules")
    rules.rules_submit(actor=officer, rules_id=draft.pk)
    rules.rules_approve(actor=approver, rules_id=draft.pk)
    table = tables.table_configure(actor=admin_actor, name=f"{mark} table", game="five-card-hi-lo",
                                   positions=6, dealing_method="automated-shoe",
                                   shuffler="automated")
    tables.table_assign_dealer(actor=floor, table_id=table.pk, dealer=dealer.username)
    table = tables.table_open(actor=floor, table_id=table.pk)
    deck = deck_ready(table, dealer, floor, "red", batch=mark)
    rounds.round_open(actor=dealer, table_id=table.pk, deck_id=deck.pk)


@pytest.fixture
def two_properties(make_staff: Callable, demo_property: Any, monkeypatch: Any
                   ) -> dict[str, dict[str, Any]]:
    a_admin = make_staff("admin", username="alphamark-admin", admin_site=True)
    monkeypatch.setenv("STAFF_BOOTSTRAP_PASSWORD", "bravomark-pass-4567")
    call_command("staff_bootstrap", "--licence", "PA-BRAVO-2",
                 "--property-name", "Bravomark Casino", "--username", "bravomark-admin",
                 "--credential-number", "BRAVOMARK-1", "--role", "admin", "--admin-site",
                 stdout=StringIO())
    b_admin = get_user_model().objects.get(username="bravomark-admin")
    assert b_admin.is_superuser and b_admin.is_staff  # as the command makes one
    b_prop = Property.objects.get(licence_number="PA-BRAVO-2")
    return {"A": _seed(make_staff, demo_property, "alphamark", a_admin),
            "B": _seed(make_staff, b_prop, "bravomark", b_admin)}


def _secrets(tokens: list[str]) -> dict[str, str]:
    """Every secret the database holds once both properties are seeded (the viewers' own
    included): keys in hex and base32, recovery codes, the API ``tokens`` and every
    token's digest and key, password hashes and salts, session hashes, the password typed
    in a failed login."""
    secrets = {token: "an API token" for token in tokens}
    for device in TOTPDevice.objects.all():
        secrets[device.key] = "an authenticator key"
        secrets[base64.b32encode(bytes.fromhex(device.key)).decode().rstrip("=")] = \
            "an authenticator key in base32"
    secrets["otpauth://"] = "an authenticator's address"
    for code in StaticToken.objects.values_list("token", flat=True):
        secrets[code] = "a recovery code"
    for digest, key in AuthToken.objects.values_list("digest", "token_key"):
        secrets[digest] = "an API token's digest"
        secrets[key] = "an API token's key"
    for password in get_user_model().objects.values_list("password", flat=True):
        algorithm, *_, salt, hashed = password.split("$")  # md5 in tests: no iterations
        secrets[salt] = "a password's salt"
        secrets[hashed] = "a password's hash"
        secrets[f"{algorithm}$"] = "a password hash's algorithm"
    for session in AccessLog.objects.values_list("session_hash", flat=True):
        secrets[session] = "a session's hash"
    secrets["typed-secret"] = "a password typed at a login"
    secrets["Raw passwords are not stored"] = "a password hash's summary"
    return secrets


def _row_urls(viewer: Any, other: Any) -> tuple[list[str], list[str], list[str]]:
    """For every registered model: its list and add page, and the change, history, delete
    and config pages of one row each of ``viewer``'s property and of ``other``'s (a row
    each one's administrator is shown). Returns (all these URLs, the change pages of the
    viewer's rows, the other's rows' pages)."""
    urls, own, others = [], [], []
    for model, model_admin in admin.site._registry.items():
        base = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        urls += [base, f"{base}add/"]
        for who in (viewer, other):
            request = RequestFactory().get(base)
            request.user = who
            row = model_admin.get_queryset(request).order_by("pk").first()
            if row is None:
                continue
            pages = [f"{base}{row.pk}/{page}" for page in
                     ("", "change/", "history/", "delete/", "config/", "qrcode/",
                      "password/")]
            pages.append(f"/admin/r/{ContentType.objects.get_for_model(model).pk}/{row.pk}/")
            urls += pages
            if who is viewer:
                own.append(f"{base}{row.pk}/change/")
            elif not _shared(model_admin):
                others += pages
    return urls, own, others


def _shared(model_admin: Any) -> bool:
    """A model with no property's data (the role groups, projection checkpoints)."""
    from casino.scoping import GROUP_ONLY, UNSCOPED

    return getattr(model_admin, "property_path", None) in (UNSCOPED, GROUP_ONLY)


def _site_urls() -> list[str]:
    """The site's own pages, each app's index, and the autocomplete of every relation of a
    listed model to another listed model."""
    urls = ["/admin/", "/admin/password_change/", "/admin/password_change/done/",
            "/admin/logout/", "/admin/jsi18n/", "/admin/login/"]
    for model in admin.site._registry:
        urls.append(f"/admin/{model._meta.app_label}/")
        for f in model._meta.get_fields():
            if f.is_relation and f.concrete and f.related_model in admin.site._registry:
                urls.append(f"/admin/autocomplete/?app_label={model._meta.app_label}"
                            f"&model_name={model._meta.model_name}&field_name={f.name}&term=")
    return urls


@pytest.mark.parametrize("viewer,other", [("A", "B"), ("B", "A")])
def test_the_admin_crawled_by_each_propertys_administrator_changes_nothing_and_shows_no_secret(
        two_properties: dict[str, dict[str, Any]], viewer: str, other: str) -> None:
    me, them = two_properties[viewer]["admin"], two_properties[other]["admin"]
    client = verified_login(Client(), me)
    urls, own_rows, others_rows = _row_urls(me, them)
    tokens = [p["token"] for p in two_properties.values()]
    crawl = Crawl(client, _secrets(tokens), list(MARKS[other])).run(_site_urls() + urls)

    assert not crawl.findings, f"{len(crawl.findings)} findings:\n" + "\n".join(
        sorted(set(crawl.findings))[:60])
    # the crawl saw the admin: pages of every listed model, the viewer's own rows in them
    assert len(crawl.statuses) > 300, len(crawl.statuses)
    shown = [u for u, s in crawl.statuses.items() if s == 200]
    for model in admin.site._registry:
        assert f"/admin/{model._meta.app_label}/{model._meta.model_name}/" in shown
    # a row of each model the fixture seeds (not jackpots' or finance's): each one shown
    crawled = {u.split("/")[2] + "." + u.split("/")[3] for u in own_rows}
    assert SEEDED <= crawled, sorted(SEEDED - crawled)
    assert set(own_rows) <= set(shown), sorted(set(own_rows) - set(shown))
    # another property's row: not shown (a redirect to the admin's home, or refused)
    assert others_rows
    for url in others_rows:
        assert crawl.statuses[url] in (302, 403, 404), (url, crawl.statuses[url])
    assert crawl.statuses["/admin/password_change/"] == 403


def test_the_crawl_finds_a_secret_a_posting_form_and_another_propertys_mark() -> None:
    """The crawler itself fails on what it looks for (a page made to hold each)."""
    from django.http import HttpResponse

    page = ('<a href="/admin/x/">x</a><form method="post" action="/admin/knox/">'
            '<input name="key" value="ab12cd34"></form><p>bravomark-officer</p>')

    class OnePage:
        def get(self, url: str) -> HttpResponse:
            return HttpResponse(page if url == "/admin/" else "", status=200 if url ==
                                "/admin/" else 500)

    crawl = Crawl(OnePage(), {"ab12cd34": "a key"}, ["bravomark"]).run(["/admin/"])
    assert crawl.findings == [
        "/admin/: shows a key", "/admin/: shows the other property's 'bravomark'",
        "/admin/: a form that posts to /admin/knox/",
        "/admin/: an input outside a search <input name='key' type='text'>",
        "/admin/x/: answered 500"]


def _credentials() -> tuple:
    """Every credential and lock-out the database holds, and the admin's own log."""
    from django.contrib.admin.models import LogEntry

    return (sorted(TOTPDevice.objects.values_list("pk", "key", "confirmed")),
            sorted(StaticToken.objects.values_list("pk", "token")),
            sorted(AuthToken.objects.values_list("digest", "user_id", "expiry")),
            sorted(AccessAttempt.objects.values_list("pk", "failures_since_start")),
            sorted(get_user_model().objects.values_list("pk", "password", "is_active",
                                                        "is_superuser")),
            LogEntry.objects.count())


@pytest.mark.parametrize("viewer", ["A", "B"])
def test_the_probes_writes_through_the_admin_are_refused_and_change_nothing(
        two_properties: dict[str, dict[str, Any]], viewer: str) -> None:
    """The writes the probe made (issue 35): a token minted for A's officer, A's officer's
    key rewritten and read through ``config``, A's dealer's lock-out deleted (one by one
    and as an action), a password set through the admin — by A's administrator and by
    B's. Each is refused (403, 404 or redirects home) and nothing changes."""
    a = two_properties["A"]
    officer, dealer = a["officer"], a["dealer"]
    device = TOTPDevice.objects.get(user=officer)
    codes = StaticDevice.objects.get(user=officer)
    lock_out = AccessAttempt.objects.get(username=dealer.username)
    client = verified_login(Client(), two_properties[viewer]["admin"])
    new_password = {"password1": "new-pass-98765", "password2": "new-pass-98765"}
    writes = {
        "/admin/knox/authtoken/add/": {"user": officer.pk, "expiry": ""},
        f"/admin/otp_totp/totpdevice/{device.pk}/change/": {
            "user": officer.pk, "name": "mine", "confirmed": "on", "key": "00" * 20,
            "step": 30, "t0": 0, "digits": 6, "tolerance": 1, "drift": 0},
        f"/admin/otp_totp/totpdevice/{device.pk}/config/": {},
        f"/admin/otp_static/staticdevice/{codes.pk}/change/": {
            "user": officer.pk, "name": "mine", "token_set-TOTAL_FORMS": 1,
            "token_set-INITIAL_FORMS": 0, "token_set-0-token": "mine1234"},
        f"/admin/axes/accessattempt/{lock_out.pk}/delete/": {"post": "yes"},
        f"/admin/auth/user/{officer.pk}/password/": new_password,
        f"/admin/auth/user/{officer.pk}/change/": {"username": officer.username,
                                                    "is_active": "on", "is_superuser": "on"},
        "/admin/password_change/": {"old_password": "test-pass-123",
                                    "new_password1": "new-pass-98765",
                                    "new_password2": "new-pass-98765"},
    }
    before = _credentials()
    for url, data in writes.items():
        answer = client.post(url, data, follow=True)
        refused = answer.status_code in (403, 404, 405)
        assert refused or answer.request["PATH_INFO"] == "/admin/", (url, answer.status_code)
    action = client.post("/admin/axes/accessattempt/", {
        "action": "delete_selected", "_selected_action": [lock_out.pk], "index": 0,
        "post": "yes"})
    assert action.status_code == 200  # the list again: there is no action to run
    assert _credentials() == before


def test_every_model_in_the_admin_is_read_only_and_the_check_says_so_otherwise() -> None:
    """casino.admin_site.read_only_admins: every registered admin is a ReadOnlyAdmin (the
    libraries' own replaced), and one that is not is named."""
    from django.contrib.admin.models import LogEntry

    from casino.admin_site import read_only_admins

    assert read_only_admins() == []
    assert not admin.site.is_registered(AuthToken)
    admin.site.register(LogEntry)
    try:
        assert [e.id for e in read_only_admins()] == ["casino.E035"]
    finally:
        admin.site.unregister(LogEntry)
