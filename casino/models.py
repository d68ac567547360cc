"""Core models: the property (certificate holder), staff and their Board credentials.

Event-store tables live in :mod:`casino.eventstore.models` and are re-exported here so
Django finds them in the ``casino`` app.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models

from casino.eventstore.models import DailyEventCount, Event, ProjectionCheckpoint, StreamSummary

__all__ = ["Property", "StaffProfile", "Event", "ProjectionCheckpoint", "StreamSummary",
           "DailyEventCount"]


def _default_time_zone() -> str:
    return settings.PROPERTY_TIME_ZONE


def _default_start_hour() -> int:
    return settings.GAMING_DAY_START_HOUR


class Property(models.Model):
    """The certificate holder: the licensed casino the product runs for."""

    name = models.CharField(max_length=200)
    licence_number = models.CharField(max_length=50, unique=True)
    time_zone = models.CharField(max_length=64, default=_default_time_zone)
    gaming_day_start_hour = models.PositiveSmallIntegerField(
        default=_default_start_hour, validators=[MaxValueValidator(23)])

    class Meta:
        verbose_name_plural = "properties"
        constraints = [
            models.CheckConstraint(condition=models.Q(gaming_day_start_hour__lte=23),
                                   name="property_start_hour_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.licence_number})"


class StaffProfile(models.Model):
    """A member of staff: the login, the property, and the Board-issued credential number.

    Roles are Django groups (see :mod:`casino.roles`).
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                related_name="staff")
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="staff")
    credential_number = models.CharField(max_length=50, unique=True,
                                         help_text="Gaming Control Board credential number.")
    display_name = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return f"{self.display_name or self.user.get_username()} ({self.credential_number})"
