"""Who may open a console page the tables and poker apps register (DESIGN §7): the signed-in
staff member as an :class:`~casino.actors.Actor`, held to the page's roles (403 for a role
that may not see it), every read scoped to their property (another property's row is a
404, as :func:`casino.scoping.property_row` answers it).

A refusal of a calculator's input is a sentence in plain words (:func:`refusal_words`):
the catalogue's sentence for its code (``casino.refusals``) and what exactly was wrong."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse

from casino.actors import Actor, NoStaffProfile, actor_of
from casino.domain.errors import DomainError, NotFoundError
from casino.refusals import refusal_sentence
from casino.roles import Role


def console_page(*roles: Role) -> Callable[[Callable[..., HttpResponse]],
                                           Callable[..., HttpResponse]]:
    """A page view ``view(request, actor, **kwargs)`` shown to ``roles`` only: a visitor
    not signed in goes to the login, a login without one of the roles is refused (403),
    a row of another property (or none) is a 404."""
    def wrap(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def page(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            # the person as the console's middleware resolved them once for the request
            seen = getattr(request, "console", None)
            try:
                actor = seen.actor if seen is not None else actor_of(request.user)
            except NoStaffProfile:
                raise PermissionDenied("this login is not staff of a property") from None
            if not actor.has(*roles):
                raise PermissionDenied("this page is not for your role")
            try:
                return view(request, actor, *args, **kwargs)
            except NotFoundError as exc:
                raise Http404(exc.message) from None
        page.roles = roles  # type: ignore[attr-defined]
        return page
    return wrap


def refusal_words(exc: DomainError) -> str:
    """A refusal as a person reads it: the catalogue's sentence for the code
    (:func:`casino.refusals.refusal_sentence`, its general sentence for a code it does not
    know), then what exactly was refused (the error's own message) when it adds something."""
    sentence = refusal_sentence(exc.code)
    detail = _sentence(exc.message)
    if not sentence:
        return detail
    return sentence if detail.rstrip(".").lower() in sentence.lower() else f"{sentence} {detail}"


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
