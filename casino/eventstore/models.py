"""Tables of the event store (DESIGN §3). Rows here are never updated or deleted:
database triggers installed by migration 0002 refuse it, for every user."""

from django.db import models


class Event(models.Model):
    position = models.BigIntegerField(primary_key=True, help_text="Global order, gapless.")
    event_id = models.UUIDField(unique=True)
    stream_type = models.CharField(max_length=64)
    stream_id = models.CharField(max_length=200)
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=100)
    schema_version = models.PositiveSmallIntegerField(default=1)
    data = models.JSONField()
    metadata = models.JSONField()
    recorded_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        db_table = "casino_event"
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["stream_id", "version"], name="event_stream_version_uniq"),
            models.CheckConstraint(condition=models.Q(version__gte=1), name="event_version_positive"),
            models.CheckConstraint(condition=models.Q(position__gte=1), name="event_position_positive"),
        ]

    def __str__(self) -> str:
        return f"#{self.position} {self.stream_type}/{self.stream_id} v{self.version} {self.type}"


class ProjectionCheckpoint(models.Model):
    """The last global position a projection applied, written with its rows."""

    name = models.CharField(max_length=100, primary_key=True)
    position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "casino_projection_checkpoint"

    def __str__(self) -> str:
        return f"{self.name} @ {self.position}"


class StreamSummary(models.Model):
    """Read model (inline projection ``streams``): one row per stream, its head."""

    stream_id = models.CharField(max_length=200, primary_key=True)
    stream_type = models.CharField(max_length=64, db_index=True)
    version = models.PositiveIntegerField()
    last_type = models.CharField(max_length=100)
    first_recorded_at = models.DateTimeField()
    last_recorded_at = models.DateTimeField()

    class Meta:
        db_table = "casino_stream_summary"


class DailyEventCount(models.Model):
    """Read model (async projection ``daily_event_counts``): events per gaming day and type."""

    gaming_day = models.DateField()
    stream_type = models.CharField(max_length=64)
    event_type = models.CharField(max_length=100)
    count = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "casino_daily_event_count"
        constraints = [
            models.UniqueConstraint(fields=["gaming_day", "stream_type", "event_type"],
                                    name="daily_event_count_uniq"),
        ]


class EventSeal(models.Model):
    """A sealed block of the log (DESIGN §3): the Merkle root over the hashes of every
    event in ``first_position..last_position``, in position order, chained to the seal
    before it. Written by ``casino.eventstore.seals.seal_now`` (a beat task, digests and
    ``manage.py seal_events``); append-only like the events (migration 0006 triggers).
    ``kind`` is ``block``, or ``legacy-chain`` for events recorded under the single
    global chain before migration 0006 (checked by that chain)."""

    seq = models.PositiveIntegerField(primary_key=True)
    kind = models.CharField(max_length=20)
    first_position = models.BigIntegerField()
    last_position = models.BigIntegerField(unique=True)
    event_count = models.PositiveIntegerField()
    merkle_root = models.CharField(max_length=64)
    prev_seal_hash = models.CharField(max_length=64)
    seal_hash = models.CharField(max_length=64)
    sealed_at = models.DateTimeField()

    class Meta:
        db_table = "casino_event_seal"
        ordering = ["seq"]

    def __str__(self) -> str:
        return f"seal {self.seq}: {self.event_count} events to #{self.last_position}"
