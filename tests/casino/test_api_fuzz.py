"""Schemathesis against the whole API, in-process: every operation of /api/schema/, with
each role's token and with none, valid and invalid input. No answer may be a 5xx, and
every answer must be one the schema lists — status, content type and body (DESIGN §5:
"tests are generated from the schema", so a new endpoint cannot skip them).

Bounded: a fixed seed (``derandomize``) and a few examples per operation, role and
generation mode — a few thousand requests. The data is realistic: the demo tables (each
open under rules in effect with decks in play) and open rounds, and path parameters are
drawn part of the time from the ids that exist, so commands reach their rules, not only
404. The state evolves as the fuzzer drives it; each request runs in a savepoint so a
database error in one cannot poison the next.

PostgreSQL only (``postgres``): the audit's 500s were PostgreSQL's (``bigint`` overflow,
NUL characters in text), the production database's; a trial run of this test on SQLite
gave the very same answers, status for status, so running it again there would add a
minute to the suite and nothing to what it checks. About 11,700 requests over 150
operations, about two minutes: each operation's cases are drawn once and sent by every
identity (``drawn``).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import DatabaseError, close_old_connections, transaction
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from casino.roles import Role
from tests.casino.test_answer_checks import answer_problems, zone_abbreviations

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

PASSWORD = "test-pass-123"  # what make_staff gives every login
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
#: Examples per operation, identity and generation mode: a probe for every identity, and
#: more where the identity is let in (an answer other than 401/403), where the rules are.
PROBE = 1
EXAMPLES = 5
#: Schemathesis' coverage cases (boundaries: 0, the maximum and past it, missing and
#: wrong-typed fields …), deterministic, sent once per operation by the first identity let
#: in; at most this many, evenly spread.
COVERAGE_CAP = 60
#: Roles last that change staff (deactivate, revoke), so that they cut no one's run short.
ROLE_ORDER = sorted(Role, key=lambda r: r in (Role.COMPLIANCE, Role.ADMIN))
MODES = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
#: Operations that may end the caller's own session (log out, revoke tokens or roles,
#: deactivate): each identity runs them after everything else, or its run goes blind.
ENDS_SESSION = re.compile(r"logout|revoke|deactivate")


@contextmanager
def same_connection() -> Iterator[None]:
    """Serve requests on the test's own connection, as Django's test client does: the
    WSGI handler would otherwise "close" it at each request, inside the test's
    transaction."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def without_idempotency_key(schema: Any) -> Any:
    """The schema without the commands' optional ``Idempotency-Key`` header: drawn here,
    one key comes back for other requests of the same login and is refused 422 by design,
    and its invalid forms add 400s, until the run measures mostly refused keys. Its
    answers are tested in tests/casino/test_idempotency_keys.py (a run with it fuzzed,
    12,718 requests, met no 5xx)."""
    for item in schema.raw_schema["paths"].values():
        for operation in item.values():
            if isinstance(operation, dict) and "parameters" in operation:
                operation["parameters"] = [p for p in operation["parameters"]
                                           if p.get("name") != "Idempotency-Key"]
    return schema


def seed(make_staff: Callable, demo_property: Any) -> None:
    """A login ``demo_<role>`` per role (the names tables.demo expects), the demo tables
    and a round open at each house-banked table."""
    from casino.actors import actor_of
    from tables.demo import seed_tables
    from tables.models import GameTable
    from tables.selectors import next_deck
    from tables.services import rounds

    for role in Role:
        make_staff(role.value, username=f"demo_{role.value}")
    make_staff(Role.COMPLIANCE.value, username="demo_compliance_2")
    seed_tables(demo_property)
    dealer = actor_of(demo_property.staff.get(user__username="demo_dealer").user)
    for table in GameTable.objects.filter(property=demo_property,
                                          name__in=["LP671-1", "HL-1", "LP589-1"]):
        rounds.round_open(actor=dealer, table_id=table.pk, deck_id=next_deck(table))


def login(app: Any, username: str) -> str:
    """A token the way a client gets one, whatever the token model (DRF or knox)."""
    from werkzeug import Client

    response = Client(app).post("/api/v1/auth/token/", json={"username": username,
                                                              "password": PASSWORD})
    if response.status_code == 403:  # an officer's first token: enrol an authenticator
        from tests.casino.test_token_second_factor import new_secret, rfc6238

        secret = new_secret()
        response = Client(app).post("/api/v1/auth/two-factor/enrol/", json={
            "username": username, "password": PASSWORD, "secret": secret,
            "code": rfc6238(secret)})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()["token"]


def existing_ids(app: Any, tokens: list[str], schema: Any) -> dict[str, list[Any]]:
    """Collection path → ids that exist now: from the collection's own list (for any
    app's endpoints), else rounds and streams from the database."""
    from werkzeug import Client

    from casino.models import Event
    from tables.models import Round

    client, found = Client(app), {}
    for collection in {path.split("{")[0] for path in schema.raw_schema["paths"] if "{" in path}:
        for token in tokens:
            response = client.get(collection, headers={"Authorization": f"Token {token}"})
            if response.status_code == 200 and "results" in (response.get_json() or {}):
                found[collection] = [r["id"] for r in response.get_json()["results"]][:20]
                break
    found["/api/v1/rounds/"] = [str(pk) for pk in Round.objects.values_list("pk", flat=True)]
    found["/api/v1/streams/"] = list(Event.objects.values_list("stream_id", flat=True)
                                     .distinct()[:20])
    return found


def aim(case: Any, ids: dict[str, list[Any]], choice: int) -> Any:
    """``case`` with its one path parameter set to an id that exists (the ``choice``-th,
    cycling), if there is one; choice 0 keeps what was generated."""
    names = re.findall(r"{(\w+)}", case.operation.path)
    known = ids.get(case.operation.path.split("{")[0], [])
    if choice and len(names) == 1 and known:
        case.path_parameters[names[0]] = known[(choice - 1) % len(known)]
    return case


@dataclass
class Drawn:
    """A case as Hypothesis drew it, kept to be sent again for every identity: its path
    parameters as generated (``aim`` replaces them per identity) and the id it is aimed at."""
    case: Any
    choice: int
    path_parameters: dict[str, Any]

    def aimed(self, ids: dict[str, list[Any]]) -> Any:
        self.case.path_parameters = dict(self.path_parameters)
        return aim(self.case, ids, self.choice)


#: The cases of each operation, generation mode and count, drawn once for all identities.
#: The seed is fixed (``derandomize``), so every identity was drawing the very same cases
#: again, and drawing them was most of the run's time (Schemathesis resolving the schema's
#: constraints for each field of each case); now they are drawn once and sent by each.
#: ``None``: the mode has nothing to make invalid in that operation.
_DRAWN: dict[tuple[str, GenerationMode, int], list[Drawn] | None] = {}


def drawn(operation: Any, mode: GenerationMode, examples: int) -> list[Drawn] | None:
    """``examples`` generated cases of ``operation``, each with an index of an id to aim
    at (0: keep the generated one), drawn with a fixed seed the first time asked."""
    key = (operation.label, mode, examples)
    if key not in _DRAWN:
        cases: list[Drawn] = []

        @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(generation_mode=mode), choice=st.integers(0, 20))
        def draw(case: Any, choice: int) -> None:
            cases.append(Drawn(case, choice, dict(case.path_parameters)))

        try:
            draw()
        except Unsatisfiable:  # nothing in it can be made invalid
            assert mode is GenerationMode.NEGATIVE, operation.label
            _DRAWN[key] = None
        else:
            _DRAWN[key] = cases
    return _DRAWN[key]


def coverage_cases(schema: Any, operation: Any) -> list[Any]:
    """Schemathesis' coverage cases of ``operation`` for its own method (other methods
    only meet 405, which the schema need not list), at most COVERAGE_CAP."""
    config = schema.config.generation_for(operation=operation)
    cases = [case for case in schema.iter_coverage_cases(
        operation, generation_modes=list(MODES), generation_config=config)
        if case.method.upper() == operation.method.upper()]
    return cases[::-(-len(cases) // COVERAGE_CAP) or 1]


class Fuzz:
    """Runs the cases and keeps every failure, one line per distinct kind."""

    def __init__(self) -> None:
        self.requests = 0
        self.statuses: Counter[int] = Counter()
        self.failures: dict[str, str] = {}
        self.unsatisfiable: set[str] = set()
        self.admitted = False
        self.covered: set[str] = set()
        #: the property's zone abbreviations, for the time-and-money check of each answer
        self.zones: set[str] = set()

    def send(self, case: Any, headers: dict[str, str]) -> None:
        """One request in a savepoint; its answer checked against the schema."""
        try:
            with transaction.atomic():
                response = case.call(headers=headers)
        except DatabaseError as exc:  # the savepoint is rolled back: go on
            self.failures.setdefault(f"{case.operation.label}: {exc!r}", "database error")
            return
        self.requests += 1
        self.statuses[response.status_code] += 1
        self.admitted |= response.status_code not in (401, 403)
        try:
            case.validate_response(response, checks=CHECKS, headers=headers)
        except FailureGroup as group:
            for failure in group.exceptions:
                key = f"{case.operation.label} [{response.status_code}] {failure.title}"
                self.failures.setdefault(key, f"{failure.message[:400]}\n    "
                                              f"{case.as_curl_command(headers=headers)}")
        # issue 22: a command's answer and a refusal's detail show dollars and the
        # property's zone, cents only in …_cents (tests/casino/test_answer_checks.py)
        kind = response.headers.get("content-type") or ""
        for shown in answer_problems(response.status_code,
                                     kind[0] if isinstance(kind, list) else kind,
                                     response.content, self.zones):
            self.failures.setdefault(f"{case.operation.label} [{response.status_code}] "
                                     f"{shown[:200]}", case.as_curl_command(headers=headers))

    def operation(self, schema: Any, operation: Any, headers: dict[str, str],
                  ids: dict[str, list[Any]]) -> None:
        """A probe in each mode; where the identity is let in, the coverage cases (once
        per operation) and more generated ones."""
        negatable = any(True for _ in operation.iter_parameters()) or len(operation.body) > 0
        modes = MODES if negatable else MODES[:1]  # nothing to make invalid otherwise
        self.admitted = False
        for mode in modes:
            self.run(operation, mode, headers, ids, PROBE)
        if not self.admitted:
            return
        if operation.label not in self.covered:
            self.covered.add(operation.label)
            for n, case in enumerate(coverage_cases(schema, operation)):
                self.send(aim(case, ids, n % 2 * (n // 2 + 1)), headers)
        for mode in modes:
            self.run(operation, mode, headers, ids, EXAMPLES)

    def run(self, operation: Any, mode: GenerationMode, headers: dict[str, str],
            ids: dict[str, list[Any]], examples: int) -> None:
        """``examples`` cases (the same for every identity), each aimed at an id that
        exists for this identity; failures are collected, not raised."""
        cases = drawn(operation, mode, examples)
        if cases is None:
            self.unsatisfiable.add(operation.label)
            return
        for case in cases:
            self.send(case.aimed(ids), headers)


def test_no_input_reaches_a_500_or_an_answer_the_schema_does_not_list(
        make_staff: Callable, demo_property: Any) -> None:
    from casino.wsgi import application

    seed(make_staff, demo_property)
    fuzz, started = Fuzz(), time.monotonic()
    fuzz.zones = zone_abbreviations(demo_property.time_zone)
    with same_connection():
        schema = without_idempotency_key(
            schemathesis.openapi.from_wsgi("/api/schema/", application))
        operations = sorted((result.ok() for result in schema.get_all_operations()),
                            key=lambda op: bool(ENDS_SESSION.search(op.path)))
        tokens = {role: login(application, f"demo_{role.value}") for role in ROLE_ORDER}
        identities = [(role.value, {"Authorization": f"Token {token}"})
                      for role, token in tokens.items()] + [("no token", {})]
        for _name, headers in identities:
            ids = existing_ids(application, list(tokens.values()), schema)
            for operation in operations:
                fuzz.operation(schema, operation, headers, ids)
    print(f"\nfuzz: {fuzz.requests} requests, {len(operations)} operations, "
          f"{time.monotonic() - started:.0f} s, statuses {dict(sorted(fuzz.statuses.items()))}"
          f"; no invalid input for {sorted(fuzz.unsatisfiable)}")
    # Most requests carry a working token: were most refused 401, the run would be blind.
    assert fuzz.statuses[200] + fuzz.statuses[201] > fuzz.requests // 10, "the fuzz is blind"
    assert fuzz.statuses[401] < fuzz.requests // 5, "tokens stopped working mid-run"
    assert not fuzz.failures, "\n".join(f"{k}\n    {v}" for k, v in sorted(fuzz.failures.items()))
