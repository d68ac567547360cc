"""Every problem code a person could see has one sentence in plain words (issue 23, item
3): the console shows it instead of the code. The catalogue is casino.refusals; this test
walks the apps' source with ``ast`` for every code a refusal can carry and fails naming
each code without a sentence.

Where a code is found:
* ``code="..."`` passed to any call (a DomainError or a subclass, ConflictError, a
  helper such as ``allowed(..., code=...)`` or ``options_reader.whole(code=...)``);
* a class-level ``code = "..."`` (a DomainError subclass's default);
* the code argument given by position to the helpers that pass it on
  (:data:`POSITIONAL`);
* the codes written with a variable (``code=f"{what}_not_found"``, ``code=code``):
  read from the code and listed in :data:`DYNAMIC` — a new one fails
  :func:`test_every_dynamic_code_site_is_known` until it is listed;
* DRF's and the problem layer's own codes (casino.api.problems).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("casino", "tables", "poker_room", "poker_floor", "jackpots", "finance", "console")

#: helpers that take the code by position: function name → the argument's index
POSITIONAL = {
    "bad": 0, "conflict": 0,            # tables.domain.banked.errors
    "_amount": 2,                       # tables.domain.banked.decisions
    "_status": 6,                       # poker_room.services.seats
    "_step": 3,                         # finance.domain.table_day
    "problem": 1, "_json_problem": 1,   # casino.api.problems
}

#: the lowercase helpers that raise the refusal whose code they are given
CODE_HELPERS = {"allowed", "text", "_text", "whole", "choice", "money", *POSITIONAL}

#: every ``code=<not a literal>`` site (file, the expression) → the codes it can carry,
#: read where the value comes from
DYNAMIC: dict[tuple[str, str], tuple[str, ...]] = {
    # property_row / parse_key / the command runner: "<what>_not_found", ``what`` being
    # every what= the apps pass (tests/casino/test_refusal_sentences.py lists them below)
    ("casino/scoping.py", "f'{what}_not_found'"): (),
    ("casino/command_runner.py", "f'{agg.what}_not_found'"): ("hand_not_found",
                                                               "round_not_found"),
    # the digest store's outage
    ("casino/api/digest_views.py", "UNAVAILABLE"): ("digest_store_unavailable",),
    # a game's input: a field missing or one not expected
    ("casino/domain/hands/games.py", "'missing_field' if missing else 'unexpected_field'"):
        ("missing_field", "unexpected_field"),
    # the helpers passing on the code their callers name (found at the callers)
    ("tables/services/common.py", "code"): (),
    ("tables/services/tables.py", "f'invalid_{field}'"): ("invalid_name", "invalid_game",
                                                           "invalid_positions"),
    ("tables/domain/options_reader.py", "code"): (),
    ("tables/domain/banked/errors.py", "code"): (),
    ("poker_room/services/disputes.py", "exc.code"): (),   # a refusal re-raised as is
    ("poker_room/domain/seating.py", "code"): (),
    # what the person registering a jackpot box confirms of it (637a.2(e))
    ("poker_room/domain/contributions.py", "code"): ("jackpot_box_not_transparent",
                                                    "jackpot_box_not_locked",
                                                    "jackpot_box_not_beside_drop_box"),
    ("poker_room/domain/rules.py", "err.code"): (),         # a rules refusal re-raised
    ("jackpots/services/common.py", "code"): (),
    ("jackpots/services/hits.py", "code"): ("hit_already_verified", "hit_rejected",
                                            "hit_already_paid"),
    ("finance/services/common.py", "code"): (),
    ("finance/domain/table_day.py", "code"): (),
}

#: the ``what`` of every property_row/parse_key/found/locked/Aggregate: each gives
#: "<what>_not_found"
NOT_FOUND_WHATS = ("deck", "exception", "hand", "role_grant", "round", "rules_submission",
                   "staff", "table", "waitlist", "call", "credential_reset",
                   "login_unlock_request")

#: DRF's codes and the problem layer's own (casino.api.problems, login_views)
PROBLEM_CODES = ("not_authenticated", "authentication_failed", "permission_denied",
                 "not_found", "method_not_allowed", "not_acceptable",
                 "unsupported_media_type", "throttled", "malformed_request", "invalid_input",
                 "request_too_large", "too_many_fields", "bad_request", "invalid_data",
                 "login_locked_out", "role_required", "error")


def _sources() -> list[tuple[str, ast.AST]]:
    out = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            out.append((str(path.relative_to(ROOT)), ast.parse(path.read_text())))
    return out


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) \
        else None


def scan() -> tuple[dict[str, str], list[tuple[str, str]]]:
    """(code → where first found, [(file, expression) of each non-literal code])."""
    codes: dict[str, str] = {}
    dynamic: list[tuple[str, str]] = []
    for name, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func.attr if isinstance(node.func, ast.Attribute) else \
                    getattr(node.func, "id", "")
                for kw in node.keywords:
                    if kw.arg == "code":
                        code = _literal(kw.value)
                        if code is not None:
                            codes.setdefault(code, f"{name}:{node.lineno}")
                        elif func[:1].isupper() or func in CODE_HELPERS:
                            # a refusal (an error class) or a helper passing one on; a
                            # lowercase call is some other code (a TOTP code, a card's)
                            dynamic.append((name, ast.unparse(kw.value)))
                index = POSITIONAL.get(func)
                if index is not None and len(node.args) > index:
                    code = _literal(node.args[index])
                    if code is not None:
                        codes.setdefault(code, f"{name}:{node.lineno}")
            elif isinstance(node, ast.ClassDef):
                for stmt in node.body:
                    if isinstance(stmt, ast.Assign) and any(
                            isinstance(t, ast.Name) and t.id == "code" for t in stmt.targets):
                        code = _literal(stmt.value)
                        if code is not None:
                            codes.setdefault(code, f"{name}:{stmt.lineno} ({node.name})")
    return codes, dynamic


def every_code() -> set[str]:
    codes, _ = scan()
    found = set(codes)
    for values in DYNAMIC.values():
        found |= set(values)
    found |= {f"{what}_not_found" for what in NOT_FOUND_WHATS}
    return found | set(PROBLEM_CODES)


@pytest.fixture(scope="module")
def catalogue() -> dict[str, str]:
    import django.urls

    django.urls.get_resolver().url_patterns  # every app's commands.py declared
    from casino.refusals import catalogue as current

    return current()


def test_every_code_has_a_sentence(catalogue: dict[str, str]) -> None:
    """A code a refusal can carry with no sentence is named here, with where it is."""
    codes, _ = scan()
    missing = sorted(c for c in every_code() if c not in catalogue)
    assert [f"{c} ({codes.get(c, 'listed in this test')})" for c in missing] == []


def test_the_scan_finds_known_codes_in_each_shape() -> None:
    """The scan itself reads each way a code is written (so an empty scan cannot pass the
    test above): a ``code=`` literal (a deck's verifier who inspected it, § 589.4(a)), a
    class-level code, the same person signing twice (a jackpot count, finance's slips) and a
    helper taking the code by position (``conflict(code, message)``)."""
    codes, _ = scan()
    assert codes["verifier_is_inspector"].startswith("tables/domain/deck_steps.py:")
    assert codes["deck_wrong_state"].startswith("tables/domain/decks.py:")
    assert codes["deck_wrong_state"].endswith("(DeckConflict)")  # the class's own code
    assert codes["same_person"].split(":")[0].endswith(".py")  # the two-person rules
    assert codes["already_dealt"].startswith("tables/domain/banked/dealing.py:")
    assert len(codes) > 300  # 348 when written


def test_every_dynamic_code_site_is_known() -> None:
    """A refusal whose code is not a literal is listed in DYNAMIC with what it can be."""
    _, dynamic = scan()
    assert sorted(set(dynamic) - set(DYNAMIC)) == []
    assert sorted(set(DYNAMIC) - set(dynamic)) == []  # no stale entry either


def test_the_not_found_whats_are_the_apps() -> None:
    """Every ``what=`` given to a row lookup is listed (each gives <what>_not_found)."""
    whats = set()
    for _name, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(
                    node.func, "attr", "")) in ("property_row", "parse_key", "found",
                                                "locked", "Aggregate"):
                for kw in node.keywords:
                    if kw.arg == "what" and _literal(kw.value) is not None:
                        whats.add(_literal(kw.value))
    assert sorted(whats - set(NOT_FOUND_WHATS)) == []


def test_sentences_are_plain_words(catalogue: dict[str, str]) -> None:
    """A sentence is a sentence (a capital, a full stop) with no code name in it."""
    faults = [(code, s) for code, s in catalogue.items()
              if not s[:1].isupper() or not s.endswith((".", "?"))
              or "_" in s or ("_" in code and code in s)]
    assert faults == []


def test_one_code_one_sentence() -> None:
    """A code given a second, different sentence is refused when it is added."""
    from casino.refusals import add, refusal_sentence

    code = "deck_wrong_state"
    add(code, refusal_sentence(code))  # the same sentence again: fine
    with pytest.raises(ValueError, match=code):
        add(code, "Something else.")


def test_an_unknown_code_reads_as_a_general_refusal() -> None:
    from casino.refusals import refusal_sentence

    assert refusal_sentence("no_such_code_anywhere") == \
        "This was refused; nothing was recorded."
    assert refusal_sentence("verifier_is_inspector") == \
        "You recorded this deck's inspection; a different floorperson must verify it."
