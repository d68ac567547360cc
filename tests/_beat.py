"""Celery beat in a thread, with only the entries a test names (their real tasks against
the real broker), and the app's own schedule put back after."""

from __future__ import annotations

import tempfile
from typing import Any

from celery.beat import EmbeddedService

from casino.celery import app


class Beat:
    def __init__(self, schedule: dict[str, Any]):
        self.schedule = schedule

    def __enter__(self) -> EmbeddedService:
        self.saved = app.conf.beat_schedule, app.conf.beat_schedule_filename
        self.tmp = tempfile.TemporaryDirectory()
        app.conf.beat_schedule = self.schedule
        app.conf.beat_schedule_filename = f"{self.tmp.name}/beat"
        self.service = EmbeddedService(app, max_interval=0.5, thread=True)
        self.service.start()
        return self.service

    def __exit__(self, *exc: Any) -> None:
        self.service.stop()
        app.conf.beat_schedule, app.conf.beat_schedule_filename = self.saved
        self.tmp.cleanup()
