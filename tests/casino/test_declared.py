"""Each command declared once (issue 23, item 6): the declarations are complete, and the
API operation is made from them — every POST or PATCH under /api/v1/ runs a declared
command (a few login views aside), each declaration says who may call it, what it is
called and what its button says, and its service takes exactly what its input carries.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from casino.declared import DeclaredCommand, all_declared, declared

#: POST views under /api/v1/ that are not commands of a service: the login's own (a token
#: is issued or revoked by knox, not by a service of ours) and the digest the log writes
NOT_DECLARED = {
    "auth/token/": "the login itself (knox issues the token)",
    "auth/two-factor/enrol/": "the login itself: a first authenticator enrolled with the "
                              "password (the console's enrolment service, not a command "
                              "there either), then knox issues the token",
    "auth/logout/": "knox revokes the token of the request",
    "auth/logout-all/": "knox revokes every token of the caller",
    "events/digests/": "POST signs a digest of the log now (the event log's own, not a "
                       "service with an input)",
}


def _routes() -> list[tuple[str, Any]]:
    """(route under /api/v1/, view class) of every API URL."""
    out: list[tuple[str, Any]] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                view = getattr(p.callback, "cls", None) or getattr(p.callback, "view_class", None)
                out.append((prefix + str(p.pattern), view))
    walk(get_resolver().url_patterns, "")
    return [(route.removeprefix("api/v1/"), view) for route, view in out
            if route.startswith("api/v1/") and view is not None]


@pytest.fixture(scope="module")
def routes() -> list[tuple[str, Any]]:
    return _routes()


def test_every_write_route_runs_a_declared_command(routes: list[tuple[str, Any]]) -> None:
    """A POST or PATCH under /api/v1/ is a declared command's view, or a list or detail
    that writes through one (POST decks/, PATCH tables/{id}/); nothing else writes."""
    faults = []
    for route, view in routes:
        for method in ("post", "patch", "put"):
            if not hasattr(view, method) or route in NOT_DECLARED:
                continue
            decl = getattr(view, "declaration", None) or getattr(view, "write_declaration",
                                                                   None)
            if not isinstance(decl, DeclaredCommand):
                faults.append(f"{method.upper()} {route}")
    assert faults == []
    # and the exceptions are still there (a stale entry would hide nothing)
    assert set(NOT_DECLARED) <= {route for route, _ in routes}


def test_every_declaration_is_reachable(routes: list[tuple[str, Any]]) -> None:
    """Each declaration is the view of its own route, or of exactly the list or detail
    that writes through it — no declaration is dead text."""
    served = {d.name for _, v in routes
              if (d := getattr(v, "declaration", None) or getattr(v, "write_declaration", None))}
    assert sorted(d.name for d in all_declared() if d.name not in served) == []
    for d in all_declared():
        if d.path is not None:
            pk = {"<uuid:pk>": "00000000-0000-4000-8000-000000000009", "<int:pk>": 1,
                  "<str:pk>": "x"}
            kwargs = {"pk": v for k, v in pk.items() if k in d.path}
            assert reverse(d.url_name, kwargs=kwargs or None).startswith("/api/v1/"), d.name


def test_every_declaration_says_who_what_and_the_button() -> None:
    """Roles, a summary sentence, a description and the button's words (a verb phrase,
    not the code name)."""
    faults = []
    for d in all_declared():
        if not d.roles:
            faults.append(f"{d.name}: no roles")
        if not d.summary.endswith(".") or not d.summary[:1].isupper():
            faults.append(f"{d.name}: summary {d.summary!r}")
        if not d.doc:
            faults.append(f"{d.name}: no doc")
        if not d.label or "_" in d.label or not d.label[:1].isupper() or d.label.endswith("."):
            faults.append(f"{d.name}: label {d.label!r}")
        if (d.path is None) != (d.url_name is None):
            faults.append(f"{d.name}: a path without a URL name or the reverse")
    assert faults == []


def test_each_service_takes_its_input_its_id_and_the_actor() -> None:
    """The service is called with the input's fields (renamed as declared), the URL's id
    as ``id_arg`` and ``actor``, by keyword: every one is a parameter it accepts and
    every parameter it requires is among them."""
    faults = []
    for d in all_declared():
        fields = d.input().fields
        kwargs = {d.rename.get(name, name): None for name in fields}
        if d.id_arg:
            kwargs[d.id_arg] = None
        kwargs["actor"] = None
        try:
            inspect.signature(d.service).bind(**kwargs)
        except TypeError as exc:
            faults.append(f"{d.name}: {exc}")
        for name in d.rename:
            if name not in fields:
                faults.append(f"{d.name}: renames {name!r}, not a field of its input")
    assert faults == []


def test_a_stream_is_named_from_the_id() -> None:
    """Where a command's stream is declared it is the aggregate's own, from the URL's id."""
    assert declared("deck_inspection_verify").stream("abc") == "deck-abc"
    assert declared("rules_approve").stream("abc") == "rules-abc"
    assert declared("table_open").stream("abc") == "table-abc"
    # a seat's form carries no version: the poker table's stream moves at every hand
    assert declared("seat_player").stream is None
    assert declared("time_charge_verify").stream is None
    assert declared("floor_ruling").stream("abc") == "round-abc"


def test_a_name_is_declared_once() -> None:
    from casino.declared import declare

    d = declared("deck_inspection_verify")
    assert declare(**{f: getattr(d, f) for f in d.__dataclass_fields__}) is not None
    with pytest.raises(ValueError, match="declared twice"):
        declare("deck_inspection_verify", service=d.service, input=d.input, output=d.output,
                roles=d.roles, summary="Something else.")


def test_the_reference_reads_the_declaration() -> None:
    """The operation's summary and description are the declaration's, its operationId its
    name (``<name>_post`` for a list's POST)."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    by_id = {op["operationId"]: op for item in schema["paths"].values()
             for op in item.values() if isinstance(op, dict) and "operationId" in op}
    for name, op_id in (("deck_inspection_verify", "deck_inspection_verify"),
                        ("deck_receive", "deck_receive_post"),
                        ("table_reconfigure", "table_reconfigure_patch"),
                        ("count_variance_explain", "count_variance_explain"),
                        ("variance_explain", "variance_explain")):
        d = declared(name)
        assert by_id[op_id]["summary"] == d.summary
        assert by_id[op_id]["description"] == d.doc
