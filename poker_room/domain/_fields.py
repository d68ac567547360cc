"""Reading plain dicts into the rules dataclasses: every refusal names its field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from poker_room.domain.errors import InvalidRules

_MISSING = object()


def check_keys(d: object, allowed: set[str], where: str) -> Mapping[str, Any]:
    if not isinstance(d, Mapping):
        raise InvalidRules(f"{where} must be an object", field=where)
    extra = sorted(set(d) - allowed)
    if extra:
        raise InvalidRules(f"unknown field {extra[0]!r} in {where}", field=extra[0])
    return d


def integer(d: Mapping[str, Any], name: str, *, default: Any = _MISSING, low: int = 0,
            high: int | None = None, prefix: str = "") -> Any:
    """An int field (not a bool or float) in ``[low, high]``; ``default`` when absent."""
    field = prefix + name
    v = d.get(name, _MISSING)
    if v is _MISSING or v is None:
        if default is _MISSING:
            raise InvalidRules(f"{field} is required", field=field)
        return default
    if not isinstance(v, int) or isinstance(v, bool):
        raise InvalidRules(f"{field} must be a whole number, not {v!r}", field=field)
    if v < low or (high is not None and v > high):
        bound = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise InvalidRules(f"{field} must be {bound}, not {v}", field=field)
    return v


def choice(d: Mapping[str, Any], name: str, options: tuple[Any, ...], *,
           default: Any = _MISSING, prefix: str = "") -> Any:
    field = prefix + name
    v = d.get(name, _MISSING)
    if v is _MISSING:
        if default is _MISSING:
            raise InvalidRules(f"{field} is required", field=field)
        return default
    if v not in options:
        raise InvalidRules(f"{field} must be one of {', '.join(map(repr, options))}, "
                           f"not {v!r}", field=field)
    return v


def boolean(d: Mapping[str, Any], name: str, *, default: bool, prefix: str = "") -> bool:
    v = d.get(name, default)
    if not isinstance(v, bool):
        raise InvalidRules(f"{prefix}{name} must be true or false", field=prefix + name)
    return v
