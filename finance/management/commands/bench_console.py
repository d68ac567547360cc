"""``manage.py bench_console``: the staff console's pages on a full gaming day (issue 23,
"Benchmark": with the 240-table day of ``bench_gaming_day_close`` loaded, each role's home
and the poker room floor at p95 ≤ 100 ms on PostgreSQL), against the floor measured in
the same run. Prints JSON.

The day is ``bench_gaming_day_close``'s (its own helpers: the same bench property and
licence, the same defaults, ``--tables``, ``--events``, ``--day``, ``--templates``): found
again when it is made already (and not closed), else generated, with its progress bar.
The jackpots' follower is caught up, as that bench does.

On the bench property, one member of staff per role (``casino.services.staff_bootstrap``,
enrolled on first use and found again by a later run: ``bc<property>_<role>``); an
administrator's and a compliance officer's authenticator is enrolled through the service
(``two_factor_enrol``, a ``TwoFactorEnrolled`` event) and each of their sessions verified
with it, as ``tests/console/conftest.py`` does. Each person has a Django test ``Client``
(in process: the whole middleware stack, the session, the console's person resolved once,
the templates rendered), and, after a warm-up, ``--repeat`` times, in rounds (one request
of every page and person per round, so a slow spell of a shared machine falls on all of
them alike):

* ``GET /console/``: each role's home, "Waiting for me";
* ``GET /console/waiting/``: the fragment htmx polls (the full answer, not the 204);
* ``GET /console/poker/``: the poker room floor, for each role that may read it;
* **the floor**: ``GET /console/login/`` through the same clients - the same request path
  and the console's base template, with no task provider and no query of its own - so
  each page is quoted as a ratio to it.

Per page and role: p50 / p95 / max in ms, the SQL queries of one request, the number of
waiting items (all of the role's lists) or of poker tables shown, and the answer's status.
The target (p95 ≤ 100 ms, for PostgreSQL) is checked for every page and role.

Reads only: the requests append nothing (the staff and their authenticators are the one
thing written, once per property). Exit 0 whatever the figures unless ``--strict``.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
import statistics
import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from finance.management.commands.bench_gaming_day_close import (
    Command as CloseBench,
    add_day_arguments,
    checked_day_options,
)

TARGET_P95_MS = 100.0
WARM_UP = 3
HOME, WAITING, POKER_FLOOR, FLOOR = ("/console/", "/console/waiting/", "/console/poker/",
                                     "/console/login/")
PAGES = {"home": HOME, "waiting": WAITING, "poker_floor": POKER_FLOOR}


def percentile(values: list[float], p: float) -> float:
    """Nearest rank: the smallest value with at least ``p`` % of them at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def figures(seconds: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in seconds]
    return {"p50_ms": round(statistics.median(ms), 2), "p95_ms": round(percentile(ms, 95), 2),
            "max_ms": round(max(ms), 2)}


def _totp_code(secret_hex: str, at: float) -> str:
    from django_otp.oath import TOTP

    totp = TOTP(bytes.fromhex(secret_hex), step=30, t0=0, digits=6)
    totp.time = at
    return f"{totp.token():06d}"


def bench_staff(prop: Any) -> dict[str, Any]:
    """One user per role on the bench property (enrolled on first use), the roles that
    need a second factor with a confirmed authenticator (``two_factor_enrol``)."""
    from django.contrib.auth import get_user_model
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from casino.actors import actor_of
    from casino.roles import Role
    from casino.services import staff_bootstrap
    from casino.services.two_factor import new_secret, two_factor_enrol, two_factor_required

    User = get_user_model()
    out = {}
    for role in Role:
        username = f"bc{prop.pk}_{role.value}"
        user = User.objects.filter(username=username).first()
        if user is None:
            user = staff_bootstrap(property=prop, username=username,
                                   password=secrets.token_urlsafe(24),
                                   credential_number=f"BC{prop.pk}-{role.value.upper()}",
                                   roles=[role.value], system="bench").user
        if two_factor_required(frozenset({role.value})) and not TOTPDevice.objects.filter(
                user=user, confirmed=True).exists():
            secret = new_secret()
            # the previous step's code, as tests/console/conftest.py enrols
            two_factor_enrol(actor=actor_of(user), secret=secret,
                             code=_totp_code(secret, time.time() - 30))
        out[role.value] = user
    return out


def signed_in(user: Any) -> Any:
    """A test ``Client`` logged in as ``user``, the session's second factor verified with
    their authenticator when their role needs one (as ``django_otp.login`` records it)."""
    from django.test import Client
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    client = Client(raise_request_exception=False)
    client.force_login(user)
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if device is not None:
        session = client.session
        session[DEVICE_ID_SESSION_KEY] = device.persistent_id
        session.save()
    return client


def readers(path: str) -> set[str] | None:
    """The roles a registered page is for (``console_page``'s ``roles``), None when the
    page says nothing (the shell's own: every role)."""
    from django.urls import resolve

    roles = getattr(resolve(path).func, "roles", None)
    return None if roles is None else {str(r) for r in roles}


def _timed(client: Any, path: str) -> tuple[float, Any]:
    t0 = time.perf_counter()
    response = client.get(path)
    return time.perf_counter() - t0, response


def _measured_once(client: Any, path: str) -> dict[str, Any]:
    """One more request, its queries counted, and what it showed."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    out: dict[str, Any] = {"status": response.status_code, "queries": len(queries)}
    shell = getattr(response.wsgi_request, "_console_shell", None)
    if path in (HOME, WAITING) and shell is not None:
        out["waiting_items"] = shell.total
        out["waiting_by_list"] = {k: n for k, n in shell.counts.items() if n}
    if path == POKER_FLOOR:
        out["poker_tables_shown"] = response.content.decode().count('class="floor-table"')
    return out


class Command(BaseCommand):
    help = ("Time each role's console home, its waiting fragment and the poker room floor "
            "on bench_gaming_day_close's day, against the floor of the same request path "
            "(JSON).")

    def add_arguments(self, parser: CommandParser) -> None:
        add_day_arguments(parser, repeat=50,
                          repeat_help="timed requests of each page and role (after a warm-up)")
        parser.add_argument("--strict", action="store_true",
                            help="exit non-zero when a target is missed or a page fails")

    def handle(self, *args: Any, **opts: Any) -> None:
        from django.conf import settings
        from django.test.utils import override_settings

        from casino.eventstore.store import register_stream_type

        day = checked_day_options(opts, repeat=(1, 1000))
        n, events, repeat, templates = (opts["tables"], opts["events"], opts["repeat"],
                                        opts["templates"])
        register_stream_type("bench")
        # the day: bench_gaming_day_close's own (found again, or made with its progress bar)
        made = CloseBench()._day(n, events, day, templates, opts)
        prop = made["_prop"]
        out: dict[str, Any] = {
            "benchmark": "bench_console", "database": connection.vendor,
            **{k: made[k] for k in ("property", "gaming_day", "tables", "tables_by_kind",
                                    "events", "generated", "generate_seconds")},
            "repeat": repeat, "warm_up": WARM_UP}
        # django-axes logs every force_login of the clients: not the figures
        logging.getLogger("axes").setLevel(logging.WARNING)
        print("the staff of each role ...", file=sys.stderr)
        staff = bench_staff(prop)
        # the test client's host, whatever ALLOWED_HOSTS the environment sets
        with override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"]):
            out.update(self._measure(staff, repeat, progress=not opts["no_progress"]))
        self._verdict(out, opts["strict"])

    # -- the requests -------------------------------------------------------------------
    def _measure(self, staff: dict[str, Any], repeat: int, *, progress: bool
                 ) -> dict[str, Any]:
        from tqdm import tqdm

        clients = {role: signed_in(user) for role, user in staff.items()}
        plan = [(page, path, role) for page, path in PAGES.items()
                for role in clients
                if (who := readers(path)) is None or role in who]
        times: dict[tuple[str, str], list[float]] = {(page, role): [] for page, _, role in plan}
        floor: list[float] = []
        rounds = WARM_UP + repeat
        bar = tqdm(total=rounds * (len(plan) + len(clients)), unit="requests",
                   desc="the console's pages", file=sys.stderr, disable=not progress)
        with bar:
            for k in range(rounds):
                for page, path, role in plan:
                    seconds, _ = _timed(clients[role], path)
                    if k >= WARM_UP:
                        times[(page, role)].append(seconds)
                for client in clients.values():
                    seconds, _ = _timed(client, FLOOR)
                    if k >= WARM_UP:
                        floor.append(seconds)
                bar.update(len(plan) + len(clients))
        floor_fig = figures(floor)
        pages: dict[str, dict[str, Any]] = {page: {} for page in PAGES}
        for page, path, role in plan:
            fig = figures(times[(page, role)])
            fig["to_floor"] = {"p50": round(fig["p50_ms"] / floor_fig["p50_ms"], 1),
                               "p95": round(fig["p95_ms"] / floor_fig["p95_ms"], 1)}
            pages[page][role] = {**fig, **_measured_once(clients[role], path)}
        once = _measured_once(next(iter(clients.values())), FLOOR)
        return {"pages": pages,
                "floor": {"path": FLOOR, "what": "the login page through the same clients "
                          "and middleware: the console's base template, no task provider, "
                          "no query of its own", **floor_fig, "samples": len(floor),
                          "status": once["status"], "queries": once["queries"]}}

    # -- the verdict ----------------------------------------------------------------------
    def _verdict(self, out: dict[str, Any], strict: bool) -> None:
        checks: dict[str, bool] = {}
        lines = []
        for page, by_role in out["pages"].items():
            for role, fig in by_role.items():
                ok = fig["status"] == 200 and fig["p95_ms"] <= TARGET_P95_MS
                checks[f"{page}_{role}"] = ok
                lines.append(f"{'✓' if ok else '✗'} {PAGES[page]} as {role}: "
                             f"p50 {fig['p50_ms']:.1f} ms, p95 {fig['p95_ms']:.1f} ms "
                             f"({fig['to_floor']['p95']}× the floor), {fig['queries']} "
                             f"queries" + ("" if fig["status"] == 200
                                           else f", answered {fig['status']}"))
        floor = out["floor"]
        lines.append(f"  floor {FLOOR}: p50 {floor['p50_ms']:.1f} ms, p95 "
                     f"{floor['p95_ms']:.1f} ms, {floor['queries']} queries")
        out.update({"target": {"p95_ms": TARGET_P95_MS, "database": "postgresql",
                               "pages": list(PAGES.values())},
                    "checks": checks, "verdict": lines,
                    "all_answered_200": all(f["status"] == 200 for by in out["pages"].values()
                                            for f in by.values()),
                    "meets_targets": all(checks.values())
                    and out["database"] == "postgresql"})
        self.stdout.write(json.dumps(out, indent=2, ensure_ascii=False))
        for line in lines:
            print(line, file=sys.stderr)
        if strict and not out["meets_targets"]:
            missed = [k for k, ok in checks.items() if not ok] or ["not PostgreSQL"]
            raise CommandError("targets_missed: " + "; ".join(missed))
