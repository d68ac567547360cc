"""Errors as ``application/problem+json`` (RFC 9457) with a stable ``code``.

Every refusal the API makes goes through here: DRF's own exceptions, domain refusals
(:class:`casino.domain.errors.DomainError`, 400, and its conflict subclass, 409), and
anything unexpected, which becomes a 500 problem without internals.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from casino.domain.errors import DomainError

log = logging.getLogger(__name__)
PROBLEM_CONTENT_TYPE = "application/problem+json"

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


def _problem_response(body: dict[str, Any], headers: dict[str, str] | None = None) -> Response:
    response = Response(body, status=body["status"], headers=headers,
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


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        extra = {"field": exc.field} if exc.field else {}
        return _problem_response(problem(exc.status, exc.code, exc.message, **extra))
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, exceptions.APIException):
        response = drf_exception_handler(exc, context)
        headers = dict(response.headers) if response is not None else {}
        headers.pop("Content-Type", None)
        if isinstance(exc, exceptions.ValidationError):
            body = problem(400, "invalid_input", "the request has invalid fields",
                           errors=exc.detail)
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


def not_found_view(request: Any, exception: Exception | None = None) -> JsonResponse:
    return _json_problem(status.HTTP_404_NOT_FOUND, "not_found",
                         f"nothing at {request.path}")


def server_error_view(request: Any) -> JsonResponse:
    return _json_problem(500, "internal_error", "the server failed; the error was logged")
