"""Errors as ``application/problem+json`` (RFC 9457) with a stable ``code``.

Every refusal the API makes goes through here: DRF's own exceptions, domain refusals
(:class:`casino.domain.errors.DomainError`, 400, and its conflict subclass, 409), and
anything unexpected, which becomes a 500 problem without internals.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import (
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.db import DataError, connection
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from casino.domain.errors import DomainError

log = logging.getLogger(__name__)
PROBLEM_CONTENT_TYPE = "application/problem+json"
REQUEST_TOO_LARGE = "request_too_large"

_DRF_CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ParseError: "malformed_request",
    exceptions.ValidationError: "invalid_input",
}


class ProblemJSONRenderer(JSONRenderer):
    media_type = PROBLEM_CONTENT_TYPE


def problem(status_code: int, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    body = {"type": f"urn:casino:problem:{code}", "title": code.replace("_", " ").capitalize(),
            "status": status_code, "code": code, "detail": detail}
    body.update(extra)
    return body


class ProblemResponse(Response):
    """A problem is always JSON: DRF's ``finalize_response`` hands every response the
    renderer the request negotiated, and an HTML one (``?format=html`` on the signage
    page) would otherwise render the error as a page under a problem+json header."""

    @property
    def rendered_content(self) -> bytes:
        self.accepted_renderer = ProblemJSONRenderer()
        self.accepted_media_type = PROBLEM_CONTENT_TYPE
        return super().rendered_content


def _problem_response(body: dict[str, Any], headers: dict[str, str] | None = None) -> Response:
    response = ProblemResponse(body, status=body["status"], headers=headers,
                               content_type=PROBLEM_CONTENT_TYPE)
    response.accepted_renderer = ProblemJSONRenderer()
    response.accepted_media_type = PROBLEM_CONTENT_TYPE
    response.renderer_context = {}
    return response


def _code_of(exc: exceptions.APIException) -> str:
    codes = exc.get_codes()
    if isinstance(codes, str) and codes not in {"invalid", "error"}:
        return codes
    for cls, code in _DRF_CODES.items():
        if isinstance(exc, cls):
            return code
    return "error"


def request_too_large(limit: int) -> dict[str, Any]:
    """413 ``request_too_large``: the body is over ``DATA_UPLOAD_MAX_MEMORY_SIZE``."""
    return problem(413, REQUEST_TOO_LARGE, f"the request body is over {limit} bytes")


def _suspicious_problem(exc: Exception) -> dict[str, Any] | None:
    """Django's refusals of oversized or odd requests, which Django itself answers with
    400 but which reach DRF views as plain exceptions (and so would be 500s): a body
    too large read without a Content-Length (chunked), too many fields, a bad Host."""
    from django.conf import settings

    if isinstance(exc, RequestDataTooBig):
        return request_too_large(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    if isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):
        return problem(400, "too_many_fields", str(exc))
    if isinstance(exc, SuspiciousOperation):
        return problem(400, "bad_request", "the request was refused as malformed")
    return None


def _validation_problem(exc: exceptions.ValidationError) -> dict[str, Any]:
    """400 with ``errors`` always an object (a bare list becomes ``non_field_errors``);
    a subclass may name its own ``problem_code``/``problem_detail`` and ``field``."""
    errors = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
    extra = {"field": exc.field} if getattr(exc, "field", None) else {}
    return problem(400, getattr(exc, "problem_code", "invalid_input"),
                   getattr(exc, "problem_detail", "the request has invalid fields"),
                   errors=errors, **extra)


def data_problem(exc: DataError) -> dict[str, Any]:
    """The database refused a value the checks let through: PostgreSQL's NUL character
    in text (SQLite takes it), a number beyond ``bigint``, a string over a column's
    length. The input is at fault, so 400 ``invalid_data``; it is still logged with its
    traceback, since a check should have caught it earlier. The console's pages answer
    the same way (console.middleware)."""
    log.warning("database refused a request's data", exc_info=exc)
    if connection.in_atomic_block:
        connection.set_rollback(True)  # the failed statement poisoned the transaction
    return problem(400, "invalid_data", "a value is not one the database can store "
                                        "(a NUL character, or a number or text too large)")


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    from casino.outage import after_outage, outage_of

    outage = outage_of(exc)  # the database or broker away: 503 with Retry-After (issue 26)
    if outage is not None:
        after_outage(outage)
        return _problem_response(outage.problem(), outage.headers)
    suspicious = _suspicious_problem(exc)
    if suspicious is not None:
        return _problem_response(suspicious)
    if isinstance(exc, DataError):
        return _problem_response(data_problem(exc))
    if isinstance(exc, DomainError):
        extra = {"field": exc.field} if exc.field else {}
        extra.update(getattr(exc, "extra", None) or {})  # more a refusal says (a dict)
        # headers a refusal names (Retry-After of casino.idempotency's in-flight key)
        return _problem_response(problem(exc.status, exc.code, exc.message, **extra),
                                 getattr(exc, "headers", None))
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, exceptions.APIException):
        response = drf_exception_handler(exc, context)
        headers = dict(response.headers) if response is not None else {}
        headers.pop("Content-Type", None)
        if isinstance(exc, exceptions.ValidationError):
            body = _validation_problem(exc)
        else:
            detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
            body = problem(exc.status_code, _code_of(exc), str(detail))
        return _problem_response(body, headers)
    log.exception("unhandled error in API view", exc_info=exc)
    return _problem_response(problem(500, "internal_error",
                                     "the server failed; the error was logged"))


def _json_problem(status_code: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse(problem(status_code, code, detail), status=status_code,
                        content_type=PROBLEM_CONTENT_TYPE)


def json_problem(body: dict[str, Any]) -> JsonResponse:
    """A problem body as a plain Django response, for middleware and non-DRF views."""
    return JsonResponse(body, status=body["status"], content_type=PROBLEM_CONTENT_TYPE)


def not_found_view(request: Any, exception: Exception | None = None) -> JsonResponse:
    return _json_problem(status.HTTP_404_NOT_FOUND, "not_found",
                         f"nothing at {request.path}")


def server_error_view(request: Any) -> JsonResponse:
    return _json_problem(500, "internal_error", "the server failed; the error was logged")
