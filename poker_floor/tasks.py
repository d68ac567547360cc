"""Celery tasks of the poker floor: ids in, safe to run twice, recovered by a sweep
(DESIGN §5)."""

from __future__ import annotations
from poker_floor.paging_tasks import *  # noqa: F401,F403  (Celery finds tasks.py only)
