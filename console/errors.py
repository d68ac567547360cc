"""The project's 403 and 404 handlers (``casino.urls``: ``handler403``, ``handler404``).

Under ``/console/`` a refusal or a missing row is a console page (``console/page.html``:
the title, the language, one ``<h1>``, the skip link and the person's navigation): a
forged link to another property's row answers the same page as a row that never was
(``casino.scoping``: another property's row is 404). Everywhere else the answer is what
it was: the API's problem+json (``casino.api.problems``) for a 404, and for a 403 under
``/api/`` too; Django's own 403 elsewhere.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views import defaults

PREFIX = "/console/"
API = "/api/"


def _in_console(request: HttpRequest) -> bool:
    return request.path.startswith(PREFIX)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _in_console(request):
        return render(request, "console/not_found.html", status=404)
    from casino.api.problems import not_found_view

    return not_found_view(request, exception)


def permission_denied(request: HttpRequest, exception: Exception | None = None
                      ) -> HttpResponse:
    if _in_console(request):
        return render(request, "console/forbidden.html", {"detail": _detail(exception)},
                      status=403)
    if request.path.startswith(API):
        from casino.api.problems import json_problem, problem

        return json_problem(problem(403, "permission_denied",
                                    _detail(exception) or "you may not do this"))
    return defaults.permission_denied(request, exception)


def _detail(exception: Any) -> str:
    """The refusal's own words when a view gave some ("this page is not for your role"),
    as a sentence; nothing for Django's bare PermissionDenied."""
    text = str(exception or "").strip() if exception is not None else ""
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
