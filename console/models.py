"""The console's own rows. Nothing here is a record of the casino (events are): only what
the console needs to behave well in a browser."""

from __future__ import annotations

from typing import Any

from django.db import models


class FormSubmission(models.Model):
    """A console form that was recorded (issue 23 item 3: a double submit appends once).

    Each rendered form carries a fresh ``key``; the row is inserted in the same
    transaction as the service's call (console.command_view), so it exists exactly when
    the command's events do. A second POST with the same key waits on the unique index
    (PostgreSQL) or the write lock (SQLite) until the first commits, then finds this row
    and is sent where the first went — only when it was the same form: the same command,
    the same row (``row``, the URL's id, blank for a command on no row) and the same
    login; a key met with anything else is refused, never taken as "already recorded".
    A refusal rolls the row back with the command, so a corrected form can be sent again
    with the same key. Rows older than ``IDEMPOTENCY_KEY_HOURS`` are deleted by the beat
    task ``casino.idempotency_keys_expire`` with the API's keys (:meth:`delete_older_than`,
    registered in console.apps)."""

    key = models.UUIDField(unique=True)
    username = models.CharField(max_length=150)
    command = models.CharField(max_length=100)
    row = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    redirect_url = models.CharField(max_length=2000)

    class Meta:
        db_table = "console_form_submission"

    def __str__(self) -> str:
        return f"{self.command} {self.row} by {self.username} ({self.key})".replace("  ", " ")

    @classmethod
    def delete_older_than(cls, cutoff: Any) -> int:
        """Delete the keys recorded before ``cutoff``; how many."""
        return cls.objects.filter(created_at__lt=cutoff).delete()[0]

    def is_for(self, *, command: str, row: str, username: str) -> bool:
        """Whether this key was recorded for this very form (command, row, login)."""
        return (self.command, self.row, self.username) == (command, row, username)
