"""Paging, one rule everywhere: every bound is checked, nothing is silently clamped.

Two styles share the rule. The event log pages by global position (keyset: stable while
events keep arriving, no COUNT); the other lists page by ``limit``/``offset`` (the
DEFAULT_PAGINATION_CLASS). Either way ``limit`` is 1-1000 (default 100), and a value
that is not a whole number in range — ``abc``, ``0``, ``2**70`` — is a 400 problem with
code ``invalid_paging`` naming the parameter, instead of a database overflow (500) or a
silent default.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response

MAX_LIMIT = 1000
DEFAULT_LIMIT = 100
#: Deeper pages than this are refused: OFFSET makes the database walk every skipped row.
MAX_OFFSET = 1_000_000
#: Global positions are PostgreSQL ``bigint``.
MAX_POSITION = 2**63 - 1
_MAX_DIGITS = len(str(MAX_POSITION))


class InvalidPaging(ValidationError):
    """400 ``invalid_paging``: ``errors`` and ``field`` name the parameter (see
    casino.api.problems, which reads ``problem_code``/``field``)."""

    problem_code = "invalid_paging"
    problem_detail = "a paging parameter is out of range or not a whole number"

    def __init__(self, name: str, message: str) -> None:
        super().__init__({name: [message]}, code="invalid_paging")
        self.field = name


def whole_param(params: Any, name: str, default: int, low: int, high: int) -> int:
    """``params[name]`` as an int in ``low..high``; absent or empty gives ``default``.

    Only ASCII digits are accepted (``int()`` would also take ``+5``, `` 5``, ``1_0`` or
    Arabic digits), and a string longer than any bound is refused before conversion."""
    raw = params.get(name)
    if raw is None or raw == "":
        return default
    if not (raw.isascii() and raw.isdigit()):
        raise InvalidPaging(name, f"must be a whole number from {low} to {high}")
    digits = raw.lstrip("0") or "0"
    if len(digits) > _MAX_DIGITS or not low <= int(digits) <= high:
        raise InvalidPaging(name, f"must be between {low} and {high}")
    return int(digits)


def bounded_schema(low: int, high: int, default: int) -> dict[str, Any]:
    """The OpenAPI schema of a bounded whole-number query parameter."""
    return {"type": "integer", "minimum": low, "maximum": high, "default": default}


# --- keyset paging (the event log) -----------------------------------------------------

#: The event log's query parameters, with their bounds, for ``@extend_schema``.
KEYSET_PAGING_PARAMETERS = [
    OpenApiParameter("from_position", bounded_schema(1, MAX_POSITION, 1),
                     description="first global position (default 1)"),
    OpenApiParameter("limit", bounded_schema(1, MAX_LIMIT, DEFAULT_LIMIT),
                     description=f"at most this many events (1-{MAX_LIMIT}, "
                                 f"default {DEFAULT_LIMIT})"),
]


def parse_paging(params: Any) -> tuple[int, int]:
    """``(from_position, limit)`` of a keyset page; 400 ``invalid_paging`` otherwise."""
    return (whole_param(params, "from_position", 1, 1, MAX_POSITION),
            whole_param(params, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT))


def page_response(request: Any, results: list[dict], limit: int) -> Response:
    next_url = None
    if len(results) == limit:
        params = request.query_params.copy()
        params["from_position"] = str(results[-1]["position"] + 1)
        next_url = request.build_absolute_uri(f"{request.path}?{params.urlencode()}")
    return Response({"next": next_url, "count": len(results), "results": results})


# --- limit/offset paging (every other list) --------------------------------------------

class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """DRF's limit/offset paging with the bounds enforced: DRF clamps a too-large
    ``limit`` only when ``max_limit`` is set, turns a bad one into the default, and
    passes any ``offset`` to the database, where 2**63 overflows ``bigint``."""

    default_limit = DEFAULT_LIMIT
    max_limit = MAX_LIMIT
    max_offset = MAX_OFFSET

    def get_limit(self, request: Any) -> int:
        return whole_param(request.query_params, self.limit_query_param, self.default_limit,
                           1, self.max_limit)

    def get_offset(self, request: Any) -> int:
        return whole_param(request.query_params, self.offset_query_param, 0, 0,
                           self.max_offset)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """The two parameters with their bounds, so that the schema states the rule."""
        return [
            {"name": self.limit_query_param, "required": False, "in": "query",
             "description": f"at most this many results (1-{self.max_limit}, "
                            f"default {self.default_limit})",
             "schema": bounded_schema(1, self.max_limit, self.default_limit)},
            {"name": self.offset_query_param, "required": False, "in": "query",
             "description": f"skip this many results (0-{self.max_offset})",
             "schema": bounded_schema(0, self.max_offset, 0)},
        ]
