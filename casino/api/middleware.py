"""Refuse an oversized request body before anything reads it: 413 problem+json
``request_too_large`` on every URL (API, admin, api-auth), before any login check.

Django raises ``RequestDataTooBig`` only when something reads the body, deep inside a
view (a DRF view turned it into a 500, the admin into a bare 400), and after the
authentication middleware has run. The limit is ``DATA_UPLOAD_MAX_MEMORY_SIZE``
(``REQUEST_MAX_BYTES``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse

from casino.api.problems import json_problem, request_too_large


def declared_length(request: HttpRequest) -> int | None:
    """The Content-Length header as a number, or None when absent or not a number
    (Django then reads no body at all under WSGI)."""
    raw = request.META.get("CONTENT_LENGTH")
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        return None


class RequestSizeLimitMiddleware:
    """First in MIDDLEWARE. A Content-Length over the limit is refused at once. A body
    sent without one (``Transfer-Encoding: chunked``, which ASGI servers buffer) is
    measured by Django's own check when read here, so it is refused the same way."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None:
            length = declared_length(request)
            if length is not None and length > limit:
                return json_problem(request_too_large(limit))
            if length is None and "HTTP_TRANSFER_ENCODING" in request.META:
                try:
                    request.body  # noqa: B018 - Django checks the size as it reads
                except RequestDataTooBig:
                    return json_problem(request_too_large(limit))
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        """A plain Django view (the admin, api-auth) that reads an oversized body."""
        if isinstance(exc, RequestDataTooBig) and settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            return json_problem(request_too_large(settings.DATA_UPLOAD_MAX_MEMORY_SIZE))
        return None
