"""One API view per command (DESIGN §5, §7): made from the command's declaration
(:mod:`casino.declared`). The view checks the shape of its input, calls the declared
service with the actor, the URL's id and the body, and serializes what it returns; every
app's command views are made here, so each names its roles the same way.

``api_paths(decls)`` gives an app's command routes; a read view whose POST or PATCH is a
command's (``POST decks/``, ``PATCH tables/{id}/``) takes the declaration with
:class:`CreateVia` and :func:`write_via`.

Every command, either way, passes through :meth:`Command.post`, which honours an
``Idempotency-Key`` header (:mod:`casino.idempotency`, issue 25 item 3)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any, ClassVar

from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import actor_of
from casino.declared import DeclaredCommand
from casino.idempotency import idempotent_answer
from casino.roles import roles_required


class EmptyInput(serializers.Serializer):
    """A command with no body."""


class Command(APIView):
    """POST a command: ``input`` validates the body, ``run`` calls the service with the
    actor, the URL's id and the body, ``output`` serializes what it returns."""

    input: ClassVar[type[serializers.Serializer]] = EmptyInput
    output: ClassVar[type[serializers.Serializer]]
    created: ClassVar[bool] = False

    def run(self, actor: Any, pk: Any, data: dict[str, Any]) -> Any:
        raise NotImplementedError

    def post(self, request: Request, pk: Any = None) -> Response:
        # No docstring: drf-spectacular would inherit it as every command's description.
        # With an Idempotency-Key, the first answer again on a retry (casino.idempotency:
        # the key is read before the body is parsed, whose raw bytes it fingerprints).
        return idempotent_answer(request, lambda: self.answer(request, pk),
                                 render=lambda response: _rendered(self, request, response))

    def answer(self, request: Request, pk: Any) -> Response:
        body = self.input(data=request.data)
        body.is_valid(raise_exception=True)
        result = self.run(actor_of(request.user), pk, dict(body.validated_data))
        # the request in the context: what the answer shows on the caller's property's
        # clock (casino.api.fields) reads its zone
        response = Response(self.output(result, context={"request": request}).data,
                            status=status.HTTP_201_CREATED if self.created
                            else status.HTTP_200_OK)
        decl = getattr(self, "declaration", None)
        if decl is not None and decl.shows_once:
            # a half of an enrolment code: no cache keeps it, nor an idempotency key
            # (casino.idempotency keeps no body of a no-store answer)
            response["Cache-Control"] = "no-store"
        return response


def _rendered(view: APIView, request: Request, response: Response) -> None:
    """Render ``response`` now, as DRF would after the view returns (the renderer the
    request negotiated): a kept idempotency key stores these very bytes. DRF's
    ``finalize_response`` then finds it rendered and leaves its body as it is."""
    response.accepted_renderer = request.accepted_renderer
    response.accepted_media_type = request.accepted_media_type
    response.renderer_context = {"view": view, "args": (), "kwargs": {},
                                 "request": request}
    response.render()


_VIEWS: dict[str, type[Command]] = {}


def api_view(decl: DeclaredCommand) -> type[Command]:
    """The DRF view of ``decl`` (one class per declaration): POST runs
    :meth:`DeclaredCommand.call`; its operationId is the declaration's name; the
    declaration's ``schema`` extras (``problem_codes``, ``problem_members``) are the
    view's attributes, which casino.api.schema reads."""
    if decl.name in _VIEWS and _VIEWS[decl.name].declaration is decl:  # type: ignore[attr-defined]
        return _VIEWS[decl.name]

    def run(self: Command, actor: Any, pk: Any, data: dict[str, Any]) -> Any:
        return decl.call(actor, pk, data)

    view = type(f"{decl.name}_view", (Command,), {
        "__doc__": decl.doc, "__module__": getattr(decl.service, "__module__", __name__),
        "permission_classes": [roles_required(*decl.roles)], "input": decl.input,
        "output": decl.output, "created": decl.created, "run": run, "declaration": decl,
        **decl.schema})

    def post(self: Command, request: Request, pk: Any = None) -> Response:
        return Command.post(self, request, pk)

    # A function of its own per view: extend_schema annotates the function object.
    post.takes_idempotency_key = True  # type: ignore[attr-defined]  (casino.api.schema)
    view.post = extend_schema(request=decl.input,  # type: ignore[attr-defined]
                              responses={201 if decl.created else 200: decl.output},
                              operation_id=decl.name)(post)
    _VIEWS[decl.name] = view
    return view


def declarations_of(source: ModuleType | Iterable[DeclaredCommand]) -> list[DeclaredCommand]:
    """The declarations of an app's ``commands`` module (in the order written), or of a
    list."""
    if isinstance(source, ModuleType):
        return [v for v in vars(source).values() if isinstance(v, DeclaredCommand)]
    return list(source)


def api_paths(source: ModuleType | Iterable[DeclaredCommand]) -> list[URLPattern]:
    """The ``path()`` of every declaration with a route of its own."""
    return [path(d.path, api_view(d).as_view(), name=d.url_name)
            for d in declarations_of(source) if d.path is not None]


class CreateVia:
    """A list view whose POST (or a detail view whose PATCH) is a declared command's: its
    roles, input and output (``write_declaration``)."""

    write_declaration: ClassVar[DeclaredCommand]

    def get_permissions(self) -> list[Any]:
        if self.request.method in ("POST", "PATCH"):  # type: ignore[attr-defined]
            return [roles_required(*self.write_declaration.roles)()]
        return super().get_permissions()  # type: ignore[misc]


def write_via(decl: DeclaredCommand, *, method: str = "post") -> Callable[..., Response]:
    """The POST or PATCH handler of a read view that carries ``decl``; its operationId is
    ``<name>_<method>`` (``deck_receive_post``)."""
    def handler(self: Any, request: Request, pk: Any = None) -> Response:
        return Command.post(api_view(decl)(), request, pk)
    handler.takes_idempotency_key = True  # type: ignore[attr-defined]  (casino.api.schema)
    return extend_schema(request=decl.input,
                         responses={201 if decl.created else 200: decl.output},
                         operation_id=f"{decl.name}_{method}")(handler)

