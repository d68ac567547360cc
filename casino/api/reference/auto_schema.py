"""Puts the reference on each operation as drf-spectacular builds it (REST_FRAMEWORK
``DEFAULT_SCHEMA_CLASS``): the tag of its URL's area, its summary sentence, its example
request, and the names that keep the schema free of drf-spectacular's warnings (two
operations or two components of one name make a schema that tools read wrongly).

The views give no ``tags=``/``summary=`` of their own (any would be overridden here):
the reference's wording lives in one place; the view's docstring remains the
description, with the rule citations.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample

from casino.api.reference.examples import EXAMPLES
from casino.api.reference.summaries import SUMMARIES, first_sentence
from casino.api.reference.tags import tag_for
from casino.api.schema import BODY_METHODS, ProblemAutoSchema
from casino.declared import DeclaredCommand

#: Serializers whose class name another app's serializer also has: the component name
#: each goes by in the schema (module.class → name), so neither replaces the other.
COMPONENT_NAMES: dict[str, str] = {
    "jackpots.api.serializers.ExplainIn": "CountVarianceExplainIn",
    "jackpots.api.serializers.CloseIn": "HighHandCloseIn",
    "jackpots.api.serializers.PlayerIn": "HighHandPlayerIn",
}

EXAMPLE_NAME = "From the demo"


class ReferenceAutoSchema(ProblemAutoSchema):
    """ProblemAutoSchema plus the reference: tag, summary (a declared command's own,
    else :data:`SUMMARIES`), example, unique names."""

    def get_operation(self, path: str, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(path, *args, **kwargs)
        if operation is None:
            return None
        operation["operationId"] = self.reference_id()
        tag = tag_for(path)
        if tag:
            operation["tags"] = [tag]
        else:  # no area claims the URL: left untagged for the reference test to find
            operation.pop("tags", None)
        decl = self.declaration()
        operation["summary"] = ((decl.summary if decl is not None else None)
                                or SUMMARIES.get(operation["operationId"])
                                or operation.get("summary")
                                or first_sentence(operation.get("description", "")))
        return operation

    def reference_id(self) -> str:
        """The operationId the reference knows this operation by (a declared command's is
        its name, casino.api.commands)."""
        return self.get_operation_id()

    def declaration(self) -> DeclaredCommand | None:
        """The declared command this operation runs: a command view's, or the one a list
        or detail view writes through (``write_declaration``: POST decks/, PATCH
        tables/{id}/)."""
        if self.method not in BODY_METHODS:
            return None
        return (getattr(self.view, "declaration", None)
                or getattr(self.view, "write_declaration", None))

    def get_description(self) -> str:  # type: ignore[override]
        """A list or detail view that writes through a declared command is described by
        the declaration's doc, which cites its rule, not by the list's."""
        decl = getattr(self.view, "write_declaration", None)
        if decl is not None and self.method in BODY_METHODS and decl.doc:
            return decl.doc.strip()
        return super().get_description()

    def get_examples(self) -> list[OpenApiExample]:
        examples = super().get_examples()
        body = EXAMPLES.get(self.reference_id()) if self.method in BODY_METHODS else None
        if body is None:
            return examples
        return [*examples, OpenApiExample(EXAMPLE_NAME, value=body, request_only=True)]

    def get_serializer_name(self, serializer: Any, direction: str) -> str:
        cls = type(serializer)
        return (COMPONENT_NAMES.get(f"{cls.__module__}.{cls.__qualname__}")
                or super().get_serializer_name(serializer, direction))


def documented_once(endpoints: list[tuple[Any, ...]], **_: Any) -> list[tuple[Any, ...]]:
    """A preprocessing hook: a URL served by one view both with and without its trailing
    slash (/health and /health/, for load balancers) is one operation in the reference,
    under the path without the slash (as /tables/{id}/signage is), not two of the same
    operationId."""
    served = {(path, method, _view_of(callback)) for path, _regex, method, callback in endpoints}
    return [(path, regex, method, callback) for path, regex, method, callback in endpoints
            if not path.endswith("/") or (path[:-1], method, _view_of(callback)) not in served]


def _view_of(callback: Any) -> Any:
    return getattr(callback, "cls", callback)
