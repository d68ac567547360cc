"""Queueing the tables app's timers: each written to the outbox in the transaction that
decided it (:mod:`casino.outbox`) and sent by the relay once that commits, so a command
never waits on the broker (issue 26 item 4). A row not yet sent when its deadline passes
is still caught by the beat sweep (``tables.timer_sweep``), which finds every deadline due;
the timer task is safe to run twice."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from casino import outbox

#: the Celery tasks that carry the timers, by name. ``TablesConfig.ready()`` hands them
#: over (``tables.tasks`` imports the services that call this module, so it is not
#: imported here).
_tasks: dict[str, Any] = {}


def register_tasks(**tasks: Any) -> None:
    """Name the tasks that :func:`schedule_deck_timers` (``deck_timer``) and
    :func:`schedule_rules_effect` (``rules_take_effect``) queue."""
    _tasks.update(tasks)


def _scheduled(task_name: str, args: list[Any], eta: datetime) -> outbox.Scheduled:
    """The task by the name it is registered under."""
    return outbox.Scheduled(_tasks[task_name].name, args, eta)


def schedule_deck_timers(deck_id: Any, deadline: datetime) -> None:
    """The change-due timer at the deadline and a warning before it (issue: 15 minutes),
    both in one outbox INSERT."""
    warning = deadline - timedelta(seconds=settings.DECK_CHANGE_WARNING_SECONDS)
    outbox.schedule_many([
        _scheduled("deck_timer", [str(deck_id), "warning", deadline.isoformat()], warning),
        _scheduled("deck_timer", [str(deck_id), "due", deadline.isoformat()], deadline)])


def schedule_rules_effect(rules_id: Any, when: datetime) -> None:
    outbox.schedule_many([_scheduled("rules_take_effect", [str(rules_id)], when)])
