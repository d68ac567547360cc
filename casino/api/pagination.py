"""Keyset pagination by global position: stable while events keep arriving, no COUNT."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

MAX_LIMIT = 1000
DEFAULT_LIMIT = 100


def parse_paging(params: Any) -> tuple[int, int]:
    def whole(name: str, default: int, low: int, high: int | None) -> int:
        raw = params.get(name)
        if raw is None or raw == "":
            return default
        try:
            value = int(raw)
        except ValueError:
            raise ValidationError({name: [f"must be a whole number, not {raw!r}"]},
                                  code="invalid_paging") from None
        if value < low or (high is not None and value > high):
            raise ValidationError({name: [f"must be between {low} and {high or 'any'}"]},
                                  code="invalid_paging")
        return value

    return whole("from_position", 1, 1, None), whole("limit", DEFAULT_LIMIT, 1, MAX_LIMIT)


def page_response(request: Any, results: list[dict], limit: int) -> Response:
    next_url = None
    if len(results) == limit:
        params = request.query_params.copy()
        params["from_position"] = str(results[-1]["position"] + 1)
        next_url = request.build_absolute_uri(f"{request.path}?{params.urlencode()}")
    return Response({"next": next_url, "count": len(results), "results": results})
