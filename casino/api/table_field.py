"""A table named by its id in a command's body, chosen by name in the console's form.

The API takes and documents a table as a UUID, as ever (these fields are DRF's
``UUIDField`` and ``ListField`` of ``UUIDField``: the schema and the reference do not
change). What they add is a marker the console's form builder (``console.forms``) reads:
``tables``, a callable ``tables(actor, pk) -> [(id, label), ...]`` giving the tables the
person may choose — the caller's property's, and, where the form acts on a row that
belongs to one game (a poker list: the URL's ``pk``), that game's only — ordered by name,
each labelled with the table's name and game. The form shows them as a ``<select>``
(:class:`TableField`) or as a group of checkboxes (:class:`TableListField`), and the
person never types an id.

The choices are read once per form, for the request's actor. They are what the form
offers, not a rule: the service still refuses a table it does not take (another
property's: 404; another game's: the service's own code), exactly as through the API.

Each app gives its own callable (this layer knows no tables); ``tables`` is required so a
field never offers every table of every property by accident.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rest_framework import serializers

#: ``tables(actor, pk)``: the tables a form may offer, as ``(id, label)`` pairs, in order
TableChoices = Callable[[Any, Any], Iterable[tuple[Any, str]]]


class _Tables:
    tables: TableChoices

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        # a serializer copies its fields for each instance: the callable is the same one
        # (never copied), so a form reads each callable's choices once for all its fields
        memo[id(self.tables)] = self.tables
        return super().__deepcopy__(memo)  # type: ignore[misc]


class TableField(_Tables, serializers.UUIDField):
    """One table, by id: a UUID in the API, a ``<select>`` of ``tables(actor, pk)`` in the
    console."""

    def __init__(self, *, tables: TableChoices, **kwargs: Any):
        self.tables = tables
        super().__init__(**kwargs)


class TableListField(_Tables, serializers.ListField):
    """Several tables, by id: a list of UUIDs in the API, a group of checkboxes of
    ``tables(actor, pk)`` in the console."""

    def __init__(self, *, tables: TableChoices, **kwargs: Any):
        self.tables = tables
        kwargs.setdefault("child", serializers.UUIDField())
        super().__init__(**kwargs)


def table_choices(f: serializers.Field) -> TableChoices | None:
    """The ``tables`` callable of a table field, or None for any other field."""
    if isinstance(f, (TableField, TableListField)):
        return f.tables
    return None
