"""Each command declared once (issue 23, DESIGN §7): its input, the service it calls, the
roles that may call it, its summary and its refusals. The API operation
(:func:`casino.api.commands.api_view`), the API reference and the console's form
(``console.command_view``) are all made from the declaration, so the two faces cannot
drift apart and a new command is one entry in its app's ``commands.py``.

The input is a DRF serializer: the API validates a JSON body with it, the console a form's
POST (never parsed by hand).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from casino.roles import Role


@dataclass(frozen=True)
class DeclaredCommand:
    #: the service's name, the API's operationId and the console's URL: "deck_verify"
    name: str
    service: Callable[..., Any]
    #: DRF serializer classes: the body in, the resource out
    input: type
    output: type
    roles: tuple[Role, ...]
    #: one line for the API reference's summary and the form's heading
    summary: str
    #: the longer description (the reference's and the form's)
    doc: str = ""
    #: the route under /api/v1/ ("decks/<uuid:pk>/verify-inspection/") and its URL name;
    #: None when a read view's POST or PATCH carries it (``write_via``)
    path: str | None = None
    url_name: str | None = None
    #: the keyword the URL's id goes to ("deck_id"); None: no id
    id_arg: str | None = None
    created: bool = False
    #: body field -> service keyword, where they differ
    rename: Mapping[str, str] = field(default_factory=dict)
    #: the form's button: "Verify the inspection"
    label: str = ""
    #: codes this command refuses with, each with its sentence in plain words (added to
    #: the one catalogue, casino.refusals; a code's sentence is the same everywhere)
    refusals: Mapping[str, str] = field(default_factory=dict)
    #: the stream whose version a console form carries (``stream(pk) -> stream_id``), so a
    #: form opened before the aggregate moved on says so instead of acting
    stream: Callable[[Any], str] | None = None
    #: offered as a console form (False for the login's own commands and the like)
    console: bool = True
    #: extra keyword arguments for drf-spectacular's extend_schema (problem codes, ...)
    schema: Mapping[str, Any] = field(default_factory=dict)
    #: what a signature of this step signs, in words, for the form to show above the
    #: button: ``signs(actor, pk) -> [(label, value), ...]`` (the row's own facts)
    signs: Callable[[Any, Any], list[tuple[str, str]]] | None = None
    #: the answer holds something shown to its caller once (a half of an enrolment
    #: code): the API answers it ``Cache-Control: no-store`` and keeps no copy under an
    #: idempotency key; the console shows it on the answer page itself
    #: (``console/<shows_once>.html``), never behind a link
    shows_once: str = ""

    def kwargs(self, pk: Any, data: Mapping[str, Any]) -> dict[str, Any]:
        """The service's keyword arguments (the actor aside) for the validated ``data``
        and the URL's ``pk``: body fields renamed as ``rename`` says, the id as ``id_arg``."""
        out = {self.rename.get(k, k): v for k, v in data.items()}
        if self.id_arg:
            out[self.id_arg] = pk
        return out

    def call(self, actor: Any, pk: Any, data: Mapping[str, Any]) -> Any:
        """Run the service: what the API view and the console form both do."""
        return self.service(actor=actor, **self.kwargs(pk, data))


_DECLARED: dict[str, DeclaredCommand] = {}


def declare(name: str | None = None, **kwargs: Any) -> DeclaredCommand:
    """Record a command; ``name`` defaults to the service's ``__name__``."""
    service = kwargs["service"]
    decl = DeclaredCommand(name=name or service.__name__, **kwargs)
    if decl.name in _DECLARED and _DECLARED[decl.name] != decl:
        raise ValueError(f"command {decl.name!r} declared twice")
    from casino import refusals

    refusals.add_all(decl.refusals)  # one sentence per code everywhere (raises otherwise)
    _DECLARED[decl.name] = decl
    return decl


def declared(name: str) -> DeclaredCommand:
    """The declaration of ``name``; KeyError for an unknown one."""
    return _DECLARED[name]


def all_declared() -> list[DeclaredCommand]:
    return sorted(_DECLARED.values(), key=lambda d: d.name)
