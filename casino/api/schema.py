"""The OpenAPI schema says what the API answers, refusals included.

drf-spectacular documents the success response an operation is annotated with and
nothing else, so a client (or Schemathesis) meets 400, 401, 403, 404, 409, 413 … that the
schema never mentions. :class:`ProblemAutoSchema` (REST_FRAMEWORK
``DEFAULT_SCHEMA_CLASS``) adds to every operation, from what the view is — its
permissions, authenticators, parsers, throttles, parameters and method — the
``application/problem+json`` responses it can give, each a ``Problem``
(casino.api.problems). New views are covered without annotations: the rules read the
view, not a list of endpoints. A view may add what the rules cannot see, with its codes:
``problem_codes = {409: ["no_rules_in_effect"]}`` (a read refused by the state), and the
members a problem of a status carries beyond the common ones (a serializer, or a JSON
schema): ``problem_members = {409: {"open_items": OpenItemOut(many=True)}}``.

Every command operation (its handler marked by casino.api.commands) documents the
optional ``Idempotency-Key`` header and the key's own refusals (casino.idempotency).
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent, force_instance
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.permissions import AllowAny

from casino.api.problems import PROBLEM_CONTENT_TYPE, REQUEST_TOO_LARGE
from casino.idempotency import KEY_PATTERN, MAX_KEY_LENGTH

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})

PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An error (RFC 9457 problem details) with a stable `code`.",
    "properties": {
        "type": {"type": "string", "description": "urn:casino:problem:<code>"},
        "title": {"type": "string"},
        "status": {"type": "integer", "description": "the HTTP status"},
        "code": {"type": "string", "description": "stable, for programs"},
        "detail": {"type": "string", "description": "for people"},
        "errors": {"type": "object", "additionalProperties": True,
                   "description": "400 invalid_input / invalid_paging: messages per field"},
        "field": {"type": "string", "description": "the field or parameter at fault"},
    },
    "required": ["type", "title", "status", "code", "detail"],
}

#: What each status means here, and the codes it carries whatever the operation.
STATUS_TEXT: dict[int, tuple[str, list[str]]] = {
    400: ("Bad input", ["invalid_input", "invalid_data", "too_many_fields"]),
    401: ("No valid credentials", ["not_authenticated", "authentication_failed"]),
    403: ("The caller's roles do not admit this", ["role_required", "permission_denied"]),
    404: ("No such resource for this caller", ["not_found"]),
    406: ("No acceptable representation for the Accept header", ["not_acceptable"]),
    409: ("The current state refuses the command", ["conflict"]),
    413: ("The request body is too large", [REQUEST_TOO_LARGE]),
    415: ("The body's Content-Type is not accepted", ["unsupported_media_type"]),
    422: ("The Idempotency-Key was already used by this login for another request", []),
    429: ("Too many attempts", ["throttled"]),
}


#: The optional header of every command, and the codes a key adds, by status.
IDEMPOTENCY_KEY_PARAMETER = OpenApiParameter(
    "Idempotency-Key", {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH,
                        "pattern": KEY_PATTERN},
    OpenApiParameter.HEADER, required=False,
    description="Optional; 1 to 255 printable ASCII characters (a UUID, say), kept per "
                "login for at least 24 hours. "
                "Sent again with the same body, the first answer comes back (its status "
                "and body, with `Idempotent-Replayed: true`) and nothing is recorded "
                "twice; with another body: 422 `idempotency_key_reused`; while the first "
                "is still running: 409 `idempotency_key_in_flight` with `Retry-After`.")
IDEMPOTENCY_KEY_CODES: dict[int, list[str]] = {
    400: ["invalid_idempotency_key"], 409: ["idempotency_key_in_flight"],
    422: ["idempotency_key_reused"]}


def takes_idempotency_key(handler: Any) -> bool:
    """Whether a view's handler is a command's (casino.api.commands marks them)."""
    return bool(getattr(handler, "takes_idempotency_key", False))


def problem_component() -> ResolvedComponent:
    """The shared ``Problem`` schema component."""
    return ResolvedComponent(name="Problem", type=ResolvedComponent.SCHEMA,
                             object="casino.api.problems.problem", schema=PROBLEM_SCHEMA)


#: Said of 400, 404 and 409 on commands, whose services refuse with codes of their own.
DOMAIN_NOTE = " A command also answers its rules' own codes (README), `field` naming the input."


def problem_response(ref: dict[str, str], status: int, codes: list[str], *,
                     command: bool = False) -> dict[str, Any]:
    """One error response: a Problem whose ``status`` is this status, with the known
    codes in the description."""
    text, common = STATUS_TEXT.get(status, (HTTPStatus(status).phrase, []))
    listed = ", ".join(f"`{c}`" for c in dict.fromkeys(common + codes))
    note = DOMAIN_NOTE if command and status in (400, 404, 409) else ""
    schema = {"allOf": [ref, {"type": "object", "properties": {"status": {"enum": [status]}}}]}
    return {"description": f"{text}. Codes: {listed}.{note}",
            "content": {PROBLEM_CONTENT_TYPE: {"schema": schema}}}


class ProblemAutoSchema(AutoSchema):
    """AutoSchema plus the problem+json responses of each operation, and success
    responses whose HTML media types are documented as text, not as the JSON body."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        _html_as_text(operation["responses"])
        component = problem_component()
        self.registry.register_on_missing(component)
        command = self.method in WRITE_METHODS and self._needs_login()
        for status, codes in self.problem_statuses(operation).items():
            operation["responses"].setdefault(
                str(status), problem_response(component.ref, status, codes, command=command))
        for status, members in getattr(self.view, "problem_members", {}).items():
            schema = operation["responses"][str(status)]["content"][PROBLEM_CONTENT_TYPE][
                "schema"]
            schema["allOf"][1]["properties"].update(
                {name: self._member_schema(m) for name, m in members.items()})
        return operation

    def _member_schema(self, member: Any) -> dict[str, Any]:
        """A problem member's schema: a JSON schema as given, or a serializer's component
        (an array of it for ``many=True``)."""
        if isinstance(member, dict):
            return member
        many = isinstance(member, serializers.ListSerializer)
        child = force_instance(member.child if many else member)
        ref = self.resolve_serializer(child, "response").ref
        return {"type": "array", "items": ref} if many else ref

    def problem_statuses(self, operation: dict[str, Any]) -> dict[int, list[str]]:
        """Status → extra codes, for every refusal this operation can give."""
        where = {p.get("in") for p in operation.get("parameters", [])}
        body = self.method in BODY_METHODS
        login = self._needs_login()
        exchange = body and not login and not self.view.get_authenticators()
        out: dict[int, list[str]] = {406: []}
        if "query" in where or body:
            out[400] = self._bad_input_codes(operation, body)
        if login or exchange:
            out[401] = []
        if login:
            out[403] = []
        if "path" in where or (body and login and self._body_names_rows()):
            out[404] = []
        if login and self.method in WRITE_METHODS:
            out[409] = []
        if body:
            out[413] = []
            out[415] = []
        if exchange or self.view.get_throttles():
            out[429] = []
        for status, codes in getattr(self.view, "problem_codes", {}).items():
            out[status] = out.get(status, []) + list(codes)
        if self.is_command():
            for status, codes in IDEMPOTENCY_KEY_CODES.items():
                out[status] = out.get(status, []) + codes
        return out

    def is_command(self) -> bool:
        """Whether this operation runs a declared command (and so takes an
        ``Idempotency-Key``)."""
        return takes_idempotency_key(getattr(self.view, self.method.lower(), None))

    def get_override_parameters(self) -> list[Any]:
        parameters = list(super().get_override_parameters())
        if self.is_command():
            parameters.append(IDEMPOTENCY_KEY_PARAMETER)
        return parameters

    def _needs_login(self) -> bool:
        """Whether anything but AllowAny guards the view (DenyAll, a role, a login)."""
        return not all(isinstance(p, AllowAny) for p in self.view.get_permissions())

    def _bad_input_codes(self, operation: dict[str, Any], body: bool) -> list[str]:
        """The 400 codes beyond the common ones: paging, and a body that is not JSON."""
        names = {p.get("name") for p in operation.get("parameters", [])}
        codes = ["invalid_paging"] if names & {"limit", "offset", "from_position"} else []
        return codes + ["parse_error"] if body else codes

    def _body_names_rows(self) -> bool:
        """Whether the request body carries an id (a UUID or a related row), which the
        service looks up and may not find (404)."""
        serializer = force_instance(self.get_request_serializer())
        fields = getattr(serializer, "fields", None)
        if not fields:
            return False
        return any(isinstance(f, (serializers.UUIDField, serializers.RelatedField))
                   for f in fields.values())


def _html_as_text(responses: dict[str, Any]) -> None:
    """A view with an HTML renderer answers HTML text there, not the JSON shape that
    drf-spectacular copies to every media type."""
    for response in responses.values():
        for media_type, body in response.get("content", {}).items():
            if media_type.startswith("text/"):
                body["schema"] = {"type": "string"}
