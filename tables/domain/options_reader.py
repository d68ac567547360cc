"""Reading a Rules Submission's options: one reader every game's schema uses (the banked
games' in :mod:`tables.domain.rules_options`, poker's in :mod:`poker_room.domain.
rules_schema`), so every refusal has the same shape: a :class:`RulesOptionError` with a
stable ``code`` and the dotted ``field`` that is wrong.

Money is integer cents, percentages are basis points (1 % = 100).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from casino.domain.errors import DomainError
from casino.domain.money import format_money

MAX_CENTS = 10**11  # a billion dollars: anything larger is a typing error


class RulesOptionError(DomainError):
    code = "invalid_option"


class OptionReader:
    """Reads one object of the options, remembering which keys were used so that an
    unknown key can be refused by name."""

    def __init__(self, raw: Any, path: str):
        if not isinstance(raw, Mapping):
            raise RulesOptionError(f"{path} must be an object", code="invalid_option_type",
                                   field=path)
        self.raw, self.path, self.used = raw, path, set()

    def field(self, key: str) -> str:
        return f"{self.path}.{key}"

    def has(self, key: str) -> bool:
        return self.raw.get(key) is not None

    def get(self, key: str, kind: Callable[[Any, str], Any], *, default: Any = ...,
            required: bool = True) -> Any:
        self.used.add(key)
        if self.raw.get(key) is None:
            if default is not ...:
                return default
            if required:
                raise RulesOptionError(f"{self.field(key)} is required", code="option_required",
                                       field=self.field(key))
            return None
        return kind(self.raw[key], self.field(key))

    def refuse(self, key: str, why: str) -> None:
        """``key`` may not be given (or must be null/false) for this game."""
        self.used.add(key)
        value = self.raw.get(key)
        if value not in (None, False, [], {}, 0):
            raise RulesOptionError(f"{self.field(key)} is not allowed: {why}",
                                   code="option_not_allowed", field=self.field(key))

    def done(self) -> None:
        unknown = sorted(set(self.raw) - self.used)
        if unknown:
            raise RulesOptionError(f"{self.field(unknown[0])} is not an option of this game",
                                   code="unknown_option", field=self.field(unknown[0]))


# --- value kinds ------------------------------------------------------------------

def boolean(v: Any, field: str) -> bool:
    if not isinstance(v, bool):
        raise RulesOptionError(f"{field} must be true or false", code="invalid_option_type",
                               field=field)
    return v


def whole(lo: int, hi: int, *, code: str = "option_out_of_range") -> Callable[[Any, str], int]:
    def check(v: Any, field: str) -> int:
        if not isinstance(v, int) or isinstance(v, bool):
            raise RulesOptionError(f"{field} must be a whole number", code="invalid_option_type",
                                   field=field)
        if not lo <= v <= hi:
            raise RulesOptionError(f"{field} must be between {lo:,} and {hi:,}", code=code,
                                   field=field)
        return v
    return check




def text(v: Any, field: str) -> str:
    if not isinstance(v, str) or not v.strip() or len(v) > 2000:
        raise RulesOptionError(f"{field} must be text of 1 to 2000 characters",
                               code="invalid_option_type", field=field)
    return v.strip()


def prose(limit: int) -> Callable[[Any, str], str]:
    """Text a person wrote for the rules (procedures, not a label): 1 to ``limit``
    characters once trimmed; longer is out of range, anything but text the wrong kind."""
    def check(v: Any, field: str) -> str:
        if not isinstance(v, str) or not v.strip():
            raise RulesOptionError(f"{field} must be text", code="invalid_option_type",
                                   field=field)
        if len(v.strip()) > limit:
            raise RulesOptionError(f"{field} must be at most {limit:,} characters, not "
                                   f"{len(v.strip()):,}", code="option_out_of_range",
                                   field=field)
        return v.strip()
    return check


def choice(*allowed: str, code: str = "invalid_choice") -> Callable[[Any, str], str]:
    def check(v: Any, field: str) -> str:
        if v not in allowed:
            raise RulesOptionError(f"{field} must be one of {', '.join(allowed)}; got {v!r}",
                                   code=code, field=field)
        return v
    return check


def one_of(*allowed: int) -> Callable[[Any, str], int]:
    def check(v: Any, field: str) -> int:
        if isinstance(v, bool) or v not in allowed:
            raise RulesOptionError(f"{field} must be one of {allowed}; got {v!r}",
                                   code="invalid_choice", field=field)
        return v
    return check


def listed(v: Any, field: str) -> list:
    if not isinstance(v, list):
        raise RulesOptionError(f"{field} must be a list", code="invalid_option_type", field=field)
    return v


def money(lo: int, hi: int, *, code: str = "option_out_of_range"
          ) -> Callable[[Any, str], int]:
    """Whole cents from ``lo`` to ``hi``: the options carry cents, the refusal a person
    reads states the range in dollars (issue 22: "$0.01", not "1")."""
    def check(v: Any, field: str) -> int:
        if not isinstance(v, int) or isinstance(v, bool):
            raise RulesOptionError(f"{field} must be a whole number of cents",
                                   code="invalid_option_type", field=field)
        if not lo <= v <= hi:
            raise RulesOptionError(f"{field} must be between {format_money(lo)} and "
                                   f"{format_money(hi)}, not {format_money(v)}", code=code,
                                   field=field)
        return v
    return check


cents = money(1, MAX_CENTS)
cents0 = money(0, MAX_CENTS)


def nested(o: OptionReader, key: str, *, required: bool = True) -> OptionReader | None:
    """The reader of the object at ``key`` of ``o`` (None when it is absent and not
    required)."""
    raw = o.get(key, lambda v, f: v, required=required)
    return None if raw is None else OptionReader(raw, o.field(key))
