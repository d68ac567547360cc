"""Reads of the poker room's read models for pages and lists (the console's "waiting for
me", poker_room.console_tasks)."""

from __future__ import annotations

from django.db.models import QuerySet

from casino.models import Property
from poker_room.models import TimeChargePeriod


def time_charges_to_verify(property: Property) -> QuerySet:
    """Time-charge periods assessed and placed in the rake area that no floorperson or
    above has verified yet (637a.17(b)(3)(iv)-(v)), with their table, oldest period
    first: one query for the whole property."""
    return (TimeChargePeriod.objects.filter(property=property, verified_at__isnull=True)
            .select_related("table").order_by("period_start", "table__name"))
