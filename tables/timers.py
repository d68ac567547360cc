"""Queueing the tables app's timers. Messages are sent only after the transaction that
decided them commits; a broker that is down costs a log line, never the command, because
the beat sweep (``tables.timer_sweep``) finds every deadline a message failed to deliver."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

#: the Celery tasks that carry the timers, by name. ``TablesConfig.ready()`` hands them
#: over (``tables.tasks`` imports the services that call this module, so it is not
#: imported here).
_tasks: dict[str, Any] = {}


def register_tasks(**tasks: Any) -> None:
    """Name the tasks that :func:`schedule_deck_timers` (``deck_timer``) and
    :func:`schedule_rules_effect` (``rules_take_effect``) queue."""
    _tasks.update(tasks)


def _send(task_name: str, args: list[Any], eta: datetime) -> None:
    def publish() -> None:
        try:
            _tasks[task_name].apply_async(args=args, eta=eta)
        except Exception:  # noqa: BLE001  the sweep recovers it
            log.warning("could not queue %s%s; the sweep will catch it", task_name, args,
                        exc_info=True)
    transaction.on_commit(publish, robust=True)


def schedule_deck_timers(deck_id: Any, deadline: datetime) -> None:
    """The change-due timer at the deadline and a warning before it (issue: 15 minutes)."""
    warning = deadline - timedelta(seconds=settings.DECK_CHANGE_WARNING_SECONDS)
    _send("deck_timer", [str(deck_id), "warning", deadline.isoformat()], warning)
    _send("deck_timer", [str(deck_id), "due", deadline.isoformat()], deadline)


def schedule_rules_effect(rules_id: Any, when: datetime) -> None:
    _send("rules_take_effect", [str(rules_id)], when)
