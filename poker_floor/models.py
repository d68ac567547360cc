"""The poker floor's read models, each a projection of the list streams
(``waitlist-<list id>``, :mod:`poker_floor.projections`); written by nothing else.

A list entry's name, phone and e-mail are kept here in clear for the roles that call
players (the events hold them sealed, :mod:`casino.personal_data`); the erasure of the
entry's key blanks them here too (``PersonalDataErased``), and a rebuild after it finds
nothing to unseal.
"""

from __future__ import annotations

import builtins
import uuid

from django.db import models

from casino.models import Property

#: another app's row, referred to by id without a database constraint (DESIGN §3)
LOOSE = {"on_delete": models.DO_NOTHING, "db_constraint": False}


class Waitlist(models.Model):
    """One game's list at one property: a waitlist while a table of the game is open, an
    interest list otherwise (:attr:`running` is read, not stored)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    game = models.CharField(max_length=40)
    #: "$4.00/$8.00 fixed limit Hold'em": what the feed and the board show
    name = models.CharField(max_length=120)
    #: the console suggests opening a table once this many are waiting (0: never)
    open_table_at = models.PositiveSmallIntegerField(default=0)
    #: the waiting entries' ids in calling order (table changes and a broken table's
    #: players first, then the list in the order added, moved down as the Rules say)
    order = models.JSONField(default=list)
    #: must-move: the main table and the tables that feed it (ids as text)
    main_table = models.UUIDField(null=True, blank=True)
    feeders = models.JSONField(default=list)
    opened_at = models.DateTimeField()
    stream_version = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["property", "game"],
                                               name="waitlist_one_per_game")]
        ordering = ["name"]

    @builtins.property
    def stream_id(self) -> str:
        return f"waitlist-{self.id}"

    def __str__(self) -> str:
        return self.name


class EntryKind(models.TextChoices):
    PLAYER = "player"          # waiting for a seat
    CHANGE = "change"          # seated at a table of the game, asked for another
    BROKEN = "broken"          # from a broken table who found no seat at once


class EntryStatus(models.TextChoices):
    WAITING = "waiting"
    CALLED = "called"
    SEATED = "seated"
    REMOVED = "removed"        # delisted by the floor, the player, or missed calls


class ListEntry(models.Model):
    """A player on a list (the entry's id is also its personal-data key's subject)."""

    id = models.UUIDField(primary_key=True)
    waitlist = models.ForeignKey(Waitlist, on_delete=models.DO_NOTHING, related_name="entries",
                                 db_constraint=False)
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=10, choices=EntryKind.choices, default=EntryKind.PLAYER)
    status = models.CharField(max_length=10, choices=EntryStatus.choices,
                              default=EntryStatus.WAITING)
    # personal data, blank once erased
    name = models.CharField(max_length=120, blank=True)
    phone = models.CharField(max_length=40, blank=True)
    email = models.CharField(max_length=254, blank=True)
    #: what the board and the pages for everyone show ("J.S."); "" once erased
    initials = models.CharField(max_length=12, blank=True)
    erased = models.BooleanField(default=False)
    source = models.CharField(max_length=10, default="floor")
    from_table = models.UUIDField(null=True, blank=True)
    from_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    listed_at = models.DateTimeField()
    missed_calls = models.PositiveSmallIntegerField(default=0)
    #: stays on the list once seated (the player's choice)
    stays_listed = models.BooleanField(default=False)
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["listed_at"]
        indexes = [models.Index(fields=["waitlist", "status"])]


class CallState(models.TextChoices):
    OPEN = "open"
    SEATED = "seated"
    TIMED_OUT = "timed_out"
    CANCELLED = "cancelled"


class Call(models.Model):
    """A seat offered to a listed player, open until taken, timed out or cancelled."""

    id = models.UUIDField(primary_key=True)
    waitlist = models.ForeignKey(Waitlist, on_delete=models.DO_NOTHING, related_name="calls",
                                 db_constraint=False)
    entry = models.ForeignKey(ListEntry, on_delete=models.DO_NOTHING, related_name="calls",
                              db_constraint=False)
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="+")
    table = models.UUIDField()
    seat = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=10, choices=CallState.choices, default=CallState.OPEN)
    called_at = models.DateTimeField()
    deadline_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    #: why the floor called this player before the first on the list ("" in turn)
    reason = models.CharField(max_length=500, blank=True)
    by_lot = models.BooleanField(default=False)
    #: "" not yet, "sent" or "failed" (PageSent / PageFailed)
    page = models.CharField(max_length=10, blank=True)

    class Meta:
        ordering = ["called_at"]
        indexes = [models.Index(fields=["state", "deadline_at"]),
                   models.Index(fields=["table", "seat", "state"])]
        constraints = [
            # one open offer per seat: a seat is never offered to two players at once
            models.UniqueConstraint(fields=["table", "seat"],
                                    condition=models.Q(state="open"),
                                    name="call_one_open_per_seat"),
        ]
