"""Core models: the property (certificate holder), staff and their Board credentials.

Event-store tables live in :mod:`casino.eventstore.models` and are re-exported here so
Django finds them in the ``casino`` app.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models

from casino.eventstore.models import DailyEventCount, Event, ProjectionCheckpoint, StreamSummary

__all__ = ["Property", "StaffProfile", "RoleGrant", "CredentialReset", "LoginUnlockRequest",
           "PersonalDataKey", "IdempotencyKey",
           "OutboxTask", "Event", "ProjectionCheckpoint", "StreamSummary", "DailyEventCount"]


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
    group_wide = models.BooleanField(
        default=False, help_text="A compliance officer who reads every property's event log "
                                 "(granted with the compliance role, by two people).")

    def __str__(self) -> str:
        return f"{self.display_name or self.user.get_username()} ({self.credential_number})"


class RoleGrant(models.Model):
    """A request to give a member of staff a role, and its decision by a second person.

    Written only by :mod:`casino.services.staff`, each change with its event in the staff
    member's stream (``RoleGrantRequested``, ``RoleGranted``, ``RoleGrantRejected``).
    """

    class State(models.TextChoices):
        PENDING = "pending"
        APPROVED = "approved"
        REJECTED = "rejected"

    id = models.UUIDField(primary_key=True)
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    staff = models.ForeignKey(StaffProfile, on_delete=models.PROTECT, related_name="grants")
    role = models.CharField(max_length=50)
    group_wide = models.BooleanField(default=False)
    reason = models.CharField(max_length=1000)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    requested_by = models.CharField(max_length=150)
    requested_at = models.DateTimeField()
    decided_by = models.CharField(max_length=150, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.CharField(max_length=1000, blank=True)

    class Meta:
        ordering = ["-requested_at"]
        constraints = [
            # At most one open request per person and role.
            models.UniqueConstraint(fields=["staff", "role"],
                                    condition=models.Q(state="pending"),
                                    name="role_grant_one_pending"),
            models.CheckConstraint(condition=models.Q(state__in=["pending", "approved",
                                                                 "rejected"]),
                                   name="role_grant_state_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.role} for {self.staff} ({self.state})"


class CredentialReset(models.Model):
    """A reset of a login's password and/or second factor: asked for by one person,
    decided by a second (neither the subject), completed by the subject in person with
    the two halves of a one-time enrolment code (issue 35, Build 1).

    Written only by :mod:`casino.services.credentials`, each change with its event in the
    subject's stream (``CredentialResetRequested``, ``CredentialResetApproved``,
    ``CredentialResetRejected``, ``CredentialEnrolmentCompleted``). The halves are never
    kept: only their salted hashes (Django's password hasher)."""

    class What(models.TextChoices):
        PASSWORD = "password", "the password"
        SECOND_FACTOR = "second_factor", "the second factor"
        BOTH = "both", "the password and the second factor"

    class State(models.TextChoices):
        PENDING = "pending"
        APPROVED = "approved"
        REJECTED = "rejected"
        COMPLETED = "completed"

    id = models.UUIDField(primary_key=True)
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    staff = models.ForeignKey(StaffProfile, on_delete=models.PROTECT,
                              related_name="credential_resets")
    what = models.CharField(max_length=20, choices=What.choices)
    reason = models.CharField(max_length=1000)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    requested_by = models.CharField(max_length=150)
    requested_at = models.DateTimeField()
    #: the hash of the half shown once to the one who asked
    requester_half = models.CharField(max_length=200)
    decided_by = models.CharField(max_length=150, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.CharField(max_length=1000, blank=True)
    #: the hash of the half shown once to the one who approved
    approver_half = models.CharField(max_length=200, blank=True)
    #: the enrolment's last moment (set at the approval)
    expires_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_at"]
        constraints = [
            models.UniqueConstraint(fields=["staff"], condition=models.Q(state="pending"),
                                    name="credential_reset_one_pending"),
            models.CheckConstraint(condition=models.Q(state__in=[
                "pending", "approved", "rejected", "completed"]),
                name="credential_reset_state_valid"),
            models.CheckConstraint(condition=models.Q(what__in=[
                "password", "second_factor", "both"]), name="credential_reset_what_valid"),
        ]

    def resets_password(self) -> bool:
        return self.what in (self.What.PASSWORD, self.What.BOTH)

    def resets_second_factor(self) -> bool:
        return self.what in (self.What.SECOND_FACTOR, self.What.BOTH)

    def __str__(self) -> str:
        return f"reset of {self.get_what_display()} for {self.staff} ({self.state})"


#: the reset's states, and a request's that a second person decides (a role grant, a
#: lock-out to lift): the API reference names their enums by these (settings)
CredentialResetState = CredentialReset.State
DecisionState = RoleGrant.State


class LoginUnlockRequest(models.Model):
    """A request to lift a lock-out of a login (or the slowing of an address) before its
    cool-off ends, and its decision by a second person (issue 35: a lock-out is lifted by
    a recorded, two-person step). Written only by :mod:`casino.services.unlocks`, with
    ``LoginUnlockRequested`` / ``LoginUnlocked`` / ``LoginUnlockRejected``."""

    class State(models.TextChoices):
        PENDING = "pending"
        APPROVED = "approved"
        REJECTED = "rejected"

    id = models.UUIDField(primary_key=True)
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    username = models.CharField(max_length=150, blank=True)
    ip_address = models.CharField(max_length=64, blank=True)
    reason = models.CharField(max_length=1000)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    requested_by = models.CharField(max_length=150)
    requested_at = models.DateTimeField()
    decided_by = models.CharField(max_length=150, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.CharField(max_length=1000, blank=True)

    class Meta:
        ordering = ["-requested_at"]
        constraints = [
            models.CheckConstraint(condition=models.Q(state__in=["pending", "approved",
                                                                 "rejected"]),
                                   name="login_unlock_state_valid"),
        ]

    def __str__(self) -> str:
        return f"unlock of {self.username or self.ip_address} ({self.state})"


class PersonalDataKey(models.Model):
    """The key that seals one subject's personal data in the events
    (:mod:`casino.personal_data`): a list entry, a High Hand slip, a Bad Beat payout.
    Kept outside the events so that it can be destroyed: ``key`` is set to NULL by the
    erasure (``PersonalDataErased``, the row and its dates kept as the proof)."""

    subject = models.UUIDField(primary_key=True)
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    #: the retention rule: list_entry, high_hand_slip, bad_beat_payout
    kind = models.CharField(max_length=30)
    key = models.BinaryField(null=True)
    created_at = models.DateTimeField()
    #: erased by the beat task once this has passed (None: not yet known)
    retain_until = models.DateTimeField(null=True, blank=True)
    erased_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["retain_until"],
                                condition=models.Q(erased_at__isnull=True),
                                name="personal_key_due")]


class IdempotencyKey(models.Model):
    """An API command's answer kept under the ``Idempotency-Key`` its login sent
    (:mod:`casino.idempotency`, issue 25 item 3), so that a retry gets the same answer and
    records nothing. Not an event-store record: a cache of answers, deleted once
    ``expires_at`` has passed (the beat task ``casino.idempotency_keys_expire``); the
    command's events are the record.

    Written in the command's own transaction, so it exists exactly when the command's
    events do; only successful (2xx) answers are kept. ``fingerprint``: SHA-256 of the
    request's method, path and raw body; the same key with another fingerprint is
    refused (422)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    body = models.BinaryField()
    content_type = models.CharField(max_length=200)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    class Meta:
        db_table = "casino_idempotency_key"
        constraints = [models.UniqueConstraint(fields=["user", "key"],
                                               name="idempotency_key_per_login")]
        indexes = [models.Index(fields=["expires_at"], name="idempotency_key_expires")]

    def __str__(self) -> str:
        return f"{self.key} of login {self.user_id} ({self.status})"


class OutboxTask(models.Model):
    """A Celery task a command scheduled, written in the command's own transaction
    (:mod:`casino.outbox`, issue 26 item 4): it exists exactly when the command's events
    do, and a command never waits on the broker. The relay sends it and deletes it;
    ``attempts``, ``last_error`` and ``next_attempt_at`` keep its back-off while the broker
    is away. ``args``: the task's positional arguments (JSON); ``eta``: when it is due
    (None: at once)."""

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    eta = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField()
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(default="", blank=True)
    next_attempt_at = models.DateTimeField()

    class Meta:
        db_table = "casino_outbox"
        indexes = [models.Index(fields=["next_attempt_at"], name="outbox_next_attempt")]

    def __str__(self) -> str:
        return f"{self.task}{self.args} (attempt {self.attempts})"
