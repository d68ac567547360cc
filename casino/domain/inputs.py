"""Free-text inputs of commands (a reason, a note, a name): one check for every service."""

from __future__ import annotations

from typing import Any

from casino.domain.errors import DomainError


def text_input(value: Any, field: str, *, limit: int, required: bool) -> str:
    """``value`` stripped, or 400 ``invalid_input`` naming ``field``: not text, longer
    than ``limit`` characters, or blank when ``required``. None counts as blank."""
    if value is None:
        value = ""
    if not isinstance(value, str) or len(value) > limit:
        raise DomainError(f"{field} must be text of at most {limit} characters",
                          code="invalid_input", field=field)
    if required and not value.strip():
        raise DomainError(f"{field} is required", code="invalid_input", field=field)
    return value.strip()
