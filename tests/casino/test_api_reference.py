"""The API reference (/api/schema/, Swagger UI at /api/docs/) is one a person can read:
every operation sits under a tag naming its app and area, says what it does in one whole
sentence, and every command shows an example request that its own schema accepts — the
same schema Schemathesis reads (tests/casino/test_api_fuzz.py), so an example is held to
the rules of a request. Issue 22, item 5.

The checks read the generated schema, not a list of endpoints, so a new view is held to
them without being named here.
"""

from __future__ import annotations

import re
from typing import Any

import jsonschema
import pytest

V1 = "/api/v1"
METHODS = ("get", "post", "put", "patch", "delete")
COMMAND_METHODS = ("post", "put", "patch")


@pytest.fixture(scope="module")
def generated() -> tuple[dict[str, Any], list[str]]:
    """The schema, and the warnings and errors drf-spectacular gave while making it (what
    ``manage.py spectacular --fail-on-warn`` fails on; drf-spectacular keeps them by
    message)."""
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    GENERATOR_STATS.reset()
    with GENERATOR_STATS.silence():
        schema = SchemaGenerator().get_schema(request=None, public=True)
    said = [*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache]
    GENERATOR_STATS.reset()
    return schema, said


@pytest.fixture(scope="module")
def schema(generated: tuple[dict[str, Any], list[str]]) -> dict[str, Any]:
    return generated[0]


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method.upper(), path, operation)
            for path, item in schema["paths"].items()
            for method, operation in item.items() if method in METHODS]


def test_the_schema_has_every_operation(schema: dict) -> None:
    """Guards the checks below against passing over an empty schema."""
    assert len(operations(schema)) > 140


def test_the_schema_is_made_without_a_warning(generated: tuple[dict, list[str]]) -> None:
    """A warning is a schema drf-spectacular itself calls likely wrong: two serializers of
    one name documented as one component (a request shown with another's fields), two
    operations of one id resolved by numeral suffixes."""
    assert generated[1] == []


# --- tags -------------------------------------------------------------------------------

def test_every_operation_has_one_declared_tag_and_none_is_the_catch_all(schema: dict) -> None:
    declared = [tag["name"] for tag in schema["tags"]]
    wrong = [(method, path, op.get("tags"))
             for method, path, op in operations(schema)
             if len(op.get("tags") or []) != 1 or op["tags"][0] not in declared
             or op["tags"][0] == "api"]
    assert wrong == []


def test_every_declared_tag_is_used_and_described_in_one_line(schema: dict) -> None:
    used = {op["tags"][0] for _, _, op in operations(schema) if op.get("tags")}
    for tag in schema["tags"]:
        assert tag["name"] in used, tag["name"]
        description = tag.get("description", "")
        assert description and "\n" not in description, tag["name"]
        assert description.endswith("."), tag["name"]


def test_tags_name_the_app_then_the_area(schema: dict) -> None:
    """"Tables · Decks", "Poker room · Hands": an area's tag begins with its app's name."""
    by_path = {(method, path): op["tags"][0] for method, path, op in operations(schema)}
    assert by_path[("POST", f"{V1}/decks/")] == "Tables · Decks"
    assert by_path[("PATCH", f"{V1}/tables/{{id}}/")] == "Tables"
    assert by_path[("POST", f"{V1}/rules-submissions/")] == "Tables · Rules Submissions"
    assert by_path[("POST", f"{V1}/hands/{{id}}/command/")] == "Poker room · Hands"
    assert by_path[("POST", f"{V1}/jackpot-funds/{{id}}/bad-beats/verify/")] == \
        "Jackpots · Bad Beat"
    assert by_path[("GET", f"{V1}/finance/reports/{{name}}/")] == "Finance · Reports"
    assert by_path[("GET", f"{V1}/events/")] == "Event log"


# --- summaries --------------------------------------------------------------------------

def sentence_faults(summary: str | None) -> list[str]:
    """What keeps ``summary`` from being one whole sentence."""
    if not summary:
        return ["none"]
    faults = []
    if not summary[0].isupper():
        faults.append("does not begin with a capital")
    if not summary.endswith(".") or summary.endswith(".."):
        faults.append("does not end with one period")
    depth = 0
    for char in summary:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            break
    if depth != 0:
        faults.append("unbalanced parenthesis")
    if "\n" in summary:
        faults.append("more than one line")
    return faults


def test_sentence_faults_finds_the_cut_summary() -> None:
    """The summary the issue found cut, and summaries that are whole."""
    assert sentence_faults("Record a deck received at a table (589") == [
        "does not end with one period", "unbalanced parenthesis"]
    assert sentence_faults(None) == ["none"]
    assert sentence_faults("staff of this property.") == ["does not begin with a capital"]
    assert sentence_faults("Verify a deck's inspection as the second person.") == []


def test_every_operation_has_a_summary_that_is_a_whole_sentence(schema: dict) -> None:
    wrong = [(method, path, op.get("summary"), sentence_faults(op.get("summary")))
             for method, path, op in operations(schema) if sentence_faults(op.get("summary"))]
    assert wrong == []


def test_summaries_are_distinct(schema: dict) -> None:
    """Two operations with one summary read as one in the Swagger UI's list."""
    seen: dict[str, tuple[str, str]] = {}
    for method, path, op in operations(schema):
        assert op["summary"] not in seen, (method, path, seen.get(op["summary"]))
        seen[op["summary"]] = (method, path)


def test_a_command_keeps_its_rule_citation_in_the_description(schema: dict) -> None:
    """The summary is plain words; the subsection stays in the description
    (§ 589.4(a) for a deck received, § 637a.15(f) for a Bad Beat verified)."""
    receive = schema["paths"][f"{V1}/decks/"]["post"]
    assert receive["summary"] == "Record a deck received at a table."
    assert "589.4(a)" in receive["description"]
    verify = schema["paths"][f"{V1}/jackpot-funds/{{id}}/bad-beats/verify/"]["post"]
    assert "637a.15(f)" in verify["description"]
    assert "637a" not in verify["summary"]


# --- example requests -------------------------------------------------------------------

def json_body(operation: dict[str, Any]) -> dict[str, Any] | None:
    return (operation.get("requestBody") or {}).get("content", {}).get("application/json")


def commands(schema: dict) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, op) for method, path, op in operations(schema)
            if method.lower() in COMMAND_METHODS and json_body(op) is not None]


def as_json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: ``nullable`` becomes a null alternative, and
    an object that lists its properties admits no other (the serializer would drop an
    unknown field in silence, so an example's misspelt field would teach a wrong name)."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: as_json_schema(value) for key, value in node.items()
           if key not in ("nullable", "example", "readOnly", "writeOnly")}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def examples_validator(schema: dict, request_schema: dict) -> jsonschema.Validator:
    root = {**as_json_schema(request_schema),
            "components": as_json_schema(schema["components"])}
    return jsonschema.Draft7Validator(root, format_checker=jsonschema.FormatChecker())


def test_every_command_has_an_example_request(schema: dict) -> None:
    missing = [(method, path) for method, path, op in commands(schema)
               if not json_body(op).get("examples")]
    assert missing == []


def test_every_example_request_validates_against_its_request_schema(schema: dict) -> None:
    """Schemathesis reads the examples as requests: each must be one the schema admits."""
    faults = []
    checked = 0
    for method, path, op in commands(schema):
        body = json_body(op)
        validator = examples_validator(schema, body["schema"])
        for name, example in (body.get("examples") or {}).items():
            checked += 1
            for error in validator.iter_errors(example["value"]):
                faults.append((method, path, name, list(error.absolute_path), error.message))
    assert faults == []
    assert checked >= len(commands(schema))


def test_the_validator_refuses_a_wrong_example(schema: dict) -> None:
    """The check above can fail: cents as a string, a misspelt field, a missing one."""
    body = json_body(schema["paths"][f"{V1}/poker-tables/{{id}}/seats/take/"]["post"])
    validator = examples_validator(schema, body["schema"])
    assert validator.is_valid({"seat": 3, "buy_in_cents": 10000, "paid_with": "cash"})
    assert list(validator.iter_errors({"seat": 3, "buy_in_cents": "100.00",
                                       "paid_with": "cash"}))
    assert list(validator.iter_errors({"seat": 3, "buy_in_cents": 10000, "paid_with": "cash",
                                       "buyin": 1}))
    assert list(validator.iter_errors({"seat": 3, "paid_with": "cash"}))
    # § 637a.8(b)(1): how the buy-in was paid has no default (poker_room.chip_sales)
    assert list(validator.iter_errors({"seat": 3, "buy_in_cents": 10000}))


def test_money_in_an_example_is_integer_cents(schema: dict) -> None:
    """JSON carries money as integer cents in fields named ``…_cents`` (issue 22, item 2)."""
    def walk(value: Any, where: str) -> list[str]:
        if isinstance(value, dict):
            return [fault for key, item in value.items()
                    for fault in ([f"{where}.{key}"] if key.endswith("_cents") and not (
                        isinstance(item, int) or item is None
                        or (isinstance(item, list) and all(isinstance(i, int) for i in item)))
                        else walk(item, f"{where}.{key}"))]
        if isinstance(value, list):
            return [fault for i, item in enumerate(value) for fault in walk(item, f"{where}[{i}]")]
        return []
    faults = [fault for method, path, op in commands(schema)
              for name, example in (json_body(op).get("examples") or {}).items()
              for fault in walk(example["value"], f"{method} {path} {name}")]
    assert faults == []


def test_example_placeholders_are_marked(schema: dict) -> None:
    """An id the reader must replace is written as one (a UUID-shaped placeholder or
    ``<…>``), never a real id of somebody's database."""
    uuid = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
    found = [(method, path, match)
             for method, path, op in commands(schema)
             for example in (json_body(op).get("examples") or {}).values()
             for match in uuid.findall(repr(example["value"]))
             if not match.startswith("00000000-0000-4000-8000-")]
    assert found == []


# --- the reference's own tables ---------------------------------------------------------

def test_every_summary_and_example_names_an_operation_of_the_schema(schema: dict) -> None:
    """An entry whose operation was renamed or removed would be dead text."""
    from casino.api.reference.examples import EXAMPLES
    from casino.api.reference.summaries import SUMMARIES

    ids = {op["operationId"] for _, _, op in operations(schema)}
    assert sorted(set(SUMMARIES) - ids) == []
    assert sorted(set(EXAMPLES) - {op["operationId"] for _, _, op in commands(schema)}) == []


def test_first_sentence_does_not_cut_at_a_citation() -> None:
    """The cause of "Record a deck received at a table (589": the summary was the text
    before the first "." — inside "589.4(a)"."""
    from casino.api.reference.summaries import first_sentence

    assert first_sentence("Record a deck received at a table (589.4(a), 637a.4(a)).") == \
        "Record a deck received at a table (589.4(a), 637a.4(a))."
    assert first_sentence("Edit a draft. A version past the draft is never edited.") == \
        "Edit a draft."
    assert first_sentence("Report an irregularity (x.13) or abandoned wagers (x.7(b)); a "
                          "void returns every wager.") == \
        "Report an irregularity (x.13) or abandoned wagers (x.7(b)); a void returns every wager."
    assert first_sentence("Who the caller is\nand which roles they hold") == \
        "Who the caller is and which roles they hold."
    assert first_sentence("") == ""


def test_a_url_with_and_without_its_slash_is_one_operation(schema: dict) -> None:
    """/health and /health/ answer alike; the reference lists the one without the slash
    (as the table sign's), and the URL with it only where it is a view of its own."""
    assert "/health" in schema["paths"]
    assert "/health/" not in schema["paths"]
    assert f"{V1}/tables/{{id}}/signage" in schema["paths"]
    assert f"{V1}/decks/" in schema["paths"]


# --- the examples sent ------------------------------------------------------------------

def _filled(path: str, operation: dict[str, Any]) -> str:
    """``path`` with each path parameter a placeholder of its type (nothing exists there:
    the command answers 404 or refuses before it looks)."""
    for parameter in operation.get("parameters", []):
        if parameter.get("in") != "path":
            continue
        kind = parameter.get("schema", {})
        value = ("00000000-0000-4000-8000-000000000009" if kind.get("format") == "uuid"
                 else "999999" if kind.get("type") == "integer" else "bad-beat")
        path = path.replace("{" + parameter["name"] + "}", value)
    return path


def test_an_example_request_sent_by_any_role_gets_an_answer_the_schema_lists(
        schema: dict, api_as: Any) -> None:
    """Schemathesis seeds its bodies with the examples (tests/casino/test_api_fuzz.py): each,
    sent as it stands by each role, is answered with a status its operation lists and
    never a 500 (DESIGN §5). Each answer shows time and money one way (issue 22): a
    command's body by the API walker's rules, a refusal's ``detail`` in dollars and the
    property's zone (tests/casino/test_answer_checks.py)."""
    from casino.roles import Role
    from tests.casino.test_answer_checks import answer_problems, zone_abbreviations

    clients = {role: api_as(role) for role in Role}
    zones = zone_abbreviations(clients[Role.ADMIN].user.staff.property.time_zone)
    wrong, shown = [], set()
    for method, path, op in commands(schema):
        for example in (json_body(op).get("examples") or {}).values():
            for role, client in clients.items():
                response = getattr(client, method.lower())(
                    _filled(path, op), example["value"], format="json")
                if response.status_code >= 500 or str(response.status_code) not in op["responses"]:
                    wrong.append((method, path, role.value, response.status_code))
                shown.update(f"{method} {path} [{response.status_code}] {p}"
                             for p in answer_problems(response.status_code,
                                                      response.get("Content-Type", ""),
                                                      response.content, zones))
    assert wrong == []
    assert sorted(shown) == []
