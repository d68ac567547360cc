"""One API view per command (DESIGN §5): the view checks the shape of its input, calls
one service with the actor, the URL's id and the body, and serializes what it returns.
Every app's command views are made here, so each names its roles the same way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.actors import actor_of
from casino.roles import Role, roles_required


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
        body = self.input(data=request.data)
        body.is_valid(raise_exception=True)
        result = self.run(actor_of(request.user), pk, dict(body.validated_data))
        # the request in the context: what the answer shows on the caller's property's
        # clock (casino.api.fields) reads its zone
        return Response(self.output(result, context={"request": request}).data,
                        status=status.HTTP_201_CREATED if self.created else status.HTTP_200_OK)


def command(service: Callable[..., Any], *, roles: tuple[Role, ...], input: type, output: type,
            id_arg: str | None, doc: str, created: bool = False,
            rename: dict[str, str] | None = None) -> type[Command]:
    """A Command view for ``service``: the URL's id goes to ``id_arg``, body fields to the
    keyword arguments of the same name (or as ``rename`` maps them)."""
    def run(self: Command, actor: Any, pk: Any, data: dict[str, Any]) -> Any:
        kwargs = {(rename or {}).get(k, k): v for k, v in data.items()}
        if id_arg:
            kwargs[id_arg] = pk
        return service(actor=actor, **kwargs)

    view = type(f"{service.__name__}_view", (Command,), {
        "__doc__": doc, "permission_classes": [roles_required(*roles)], "input": input,
        "output": output, "created": created, "run": run})

    def post(self: Command, request: Request, pk: Any = None) -> Response:
        return Command.post(self, request, pk)

    # A function of its own per view: extend_schema annotates the function object.
    view.post = extend_schema(request=input, responses={201 if created else 200: output},
                              operation_id=service.__name__)(post)
    return view
