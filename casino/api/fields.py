"""Serializer fields that show time the one way the API does (issue 22): ISO 8601 with
its offset, never a naive local string (``casino.domain.wall_clock.iso_with_offset``).

Most timestamps are DRF's ``DateTimeField`` (UTC, ``…Z``): they carry their offset and
stay as they are. These fields are for what a person reads on the property's clock — a
High Hand period's local start and end — and say it with the property's offset
("2026-11-25T20:00:00-05:00"). The zone is the caller's property's; a serializer may give
it in its context as ``time_zone``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from rest_framework import serializers

from casino.display_zone import viewer_time_zone
from casino.domain.wall_clock import iso_with_offset


def caller_time_zone(context: dict[str, Any]) -> str:
    """The zone of the caller's property: the serializer's ``time_zone``, else the one
    the request's pages use (``casino.display_zone.viewer_time_zone``).

    A serializer built with neither is a programming error, not a reason to guess: the
    installation's default zone would give a property in another zone the wrong offset."""
    zone = context.get("time_zone")
    if zone:
        return str(zone)
    request = context.get("request")
    if request is None:
        raise ImproperlyConfigured(
            "a field on the property's clock needs the serializer's context to carry "
            "'time_zone' or 'request'")
    return viewer_time_zone(request)


class LocalDateTimeField(serializers.DateTimeField):
    """An instant on the property's clock with its offset: ``2026-11-25T20:00:00-05:00``."""

    def to_representation(self, value: Any) -> str | None:
        if value in (None, ""):
            return None
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        return iso_with_offset(value, time_zone=caller_time_zone(self.context))
