"""Who is asking, resolved once per request for ``/console/`` (DESIGN §7, after pretix's
``PermissionMiddleware``): ``request.console`` holds the actor and roles every page, the
navigation and the buttons ask. Deny by default:

* no login → the login page (``?next=`` the page asked for);
* a login that is not enrolled staff of a property → 403, a page that says so;
* an administrator or compliance officer whose session has not given the second factor →
  the enrolment page (no authenticator yet) or the code page. Only the login, log-out
  and second-factor pages are open before that.

The second factor is one rule for every session, not only the console's
(:func:`second_factor_missing`): the finance pages, the boards, the admin site and the API
read with a session cookie (DRF's ``SessionAuthentication``) send the same person to the
same page. Only an API request carrying a token (``Authorization: Token …``) is outside
it: token logins (``POST /api/v1/auth/token/``) keep the token rules of the issue.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.db import DataError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render

from casino.actors import Actor, NoStaffProfile, actor_of
from casino.api.problems import data_problem
from casino.refusals import refusal_sentence
from casino.services.two_factor import has_confirmed_device, two_factor_required

PREFIX = "/console/"
LOGIN, LOGOUT = "/console/login/", "/console/logout/"
ENROL, VERIFY = "/console/two-factor/enrol/", "/console/two-factor/verify/"
ENROLMENT = "/console/enrol/"
#: open without a login (the enrolment after a two-person reset: its codes are the proof)
OPEN = (LOGIN, ENROLMENT)
#: open with a password but before the second factor
BEFORE_SECOND_FACTOR = (LOGOUT, ENROL, VERIFY, "/console/two-factor/codes/")
#: outside /console/, open with a password but before the second factor: logging out, and
#: the token login, which keeps the token rules (issue 23: "the same accounts, lock-out and
#: token rules"; a token is no session, so it is never asked for the second factor)
OUTSIDE_BEFORE_SECOND_FACTOR = ("/admin/logout/", "/api-auth/logout/", "/api/v1/auth/token/",
                                "/api/v1/auth/two-factor/enrol/")
API, TOKEN_PREFIX = "/api/", "token "


@dataclass(frozen=True)
class ConsoleRequest:
    """``request.console``: the signed-in person as every console page sees them."""

    actor: Actor
    user: Any
    #: the person's name as the pages show it
    name: str

    @property
    def roles(self) -> frozenset[str]:
        return self.actor.roles

    @property
    def roles_text(self) -> str:
        """"compliance, poker shift supervisor": the roles as the navigation names them."""
        return ", ".join(r.replace("_", " ") for r in sorted(self.roles)) or "no role"

    def has(self, *roles: str) -> bool:
        return self.actor.has(*roles)


def _redirect(request: HttpRequest, to: str, *, next_url: str | None = None) -> HttpResponse:
    url = to + ("?" + urlencode({"next": next_url}) if next_url else "")
    if getattr(request, "htmx", False):
        # an htmx poll of an ended session: the whole page goes to the login
        return HttpResponse(status=204, headers={"HX-Redirect": url})
    return HttpResponseRedirect(url)


def refusal(request: HttpRequest, sentence: str, *, status: int = 403) -> HttpResponse:
    return render(request, "console/refused.html", {"sentence": sentence}, status=status)


class ConsoleMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if path.startswith(PREFIX):
            refused = self.check(request, path) if path not in OPEN else None
        else:
            refused = self.check_outside(request, path)
        if refused is not None:
            return refused
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        """A value the database cannot store (a NUL character in PostgreSQL's text, a
        number or a text too large) that a page's own checks let through: 400 in words,
        as the API answers it (casino.api.problems.data_problem), never a 500."""
        if not (isinstance(exc, DataError) and request.path_info.startswith(PREFIX)):
            return None
        problem = data_problem(exc)
        return refusal(request, f"{refusal_sentence(problem['code'])} ({problem['detail']}.) "
                                "Nothing was recorded.", status=problem["status"])

    def check_outside(self, request: HttpRequest, path: str) -> HttpResponse | None:
        """Any other page with a session: only the second factor (each app checks its own
        roles). An API request with a token is not a session's: knox either takes the
        token or refuses it (401), never falling back to the session, so the header alone
        decides. Token logins keep the token rules (issue 23)."""
        user = getattr(request, "user", None)
        if (user is None or not user.is_authenticated or path in OUTSIDE_BEFORE_SECOND_FACTOR
                or path.startswith(settings.STATIC_URL)):  # the code page's own stylesheet
            return None
        if path.startswith(API) and request.META.get(
                "HTTP_AUTHORIZATION", "").lower().startswith(TOKEN_PREFIX):
            return None
        from casino.roles import user_roles

        return second_factor_missing(request, user, user_roles(user))

    def check(self, request: HttpRequest, path: str) -> HttpResponse | None:
        user = request.user
        if not user.is_authenticated:
            if path == LOGOUT:
                return _redirect(request, LOGIN)
            wanted = request.get_full_path() if request.method == "GET" else None
            return _redirect(request, LOGIN, next_url=wanted)
        try:
            actor = actor_of(user)
        except NoStaffProfile:
            if path == LOGOUT:
                return None
            return refusal(request, "This login is not enrolled as staff of a property, "
                                    "so the console has nothing for it. An administrator "
                                    "enrols staff.")
        staff = user.staff
        request.console = ConsoleRequest(actor=actor, user=user,
                                         name=staff.display_name or user.get_username())
        if path in BEFORE_SECOND_FACTOR:
            return None
        return second_factor_missing(request, user, actor.roles)


def second_factor_missing(request: HttpRequest, user: Any,
                          roles: frozenset[str]) -> HttpResponse | None:
    """THE second-factor rule, for every session (the console's and any other page's): an
    administrator or compliance officer whose session has not given the second factor
    (django-otp's ``is_verified``) is sent to the enrolment page (no authenticator yet) or
    the code page, ``next`` the page asked for. None: go on."""
    if not two_factor_required(roles) or user.is_verified():
        return None
    wanted = request.get_full_path() if request.method == "GET" else None
    to = VERIFY if has_confirmed_device(user) else ENROL
    return _redirect(request, to, next_url=wanted)
