"""The floor's Celery messages, written to the outbox in the transaction that decided them
and sent by the relay once it commits (:mod:`casino.outbox`: a command never waits on
the broker), and the after-commit hook on the event store that offers a seat when one
opens.

A seat opens at a poker table when a player leaves it (``PlayerLeft``, ``PlayerRemoved``
in ``poker_table-<id>``) or the table opens (``TableOpened`` in ``table-<id>``): if the
table's game has a list at its property, ``poker_floor.seats_offer`` is queued for the
table. The offer is decided after the commit, so it has no outbox row: the relay thread
sends it (:func:`casino.outbox.send_soon`), and a lost one is found by the beat sweep
(``poker_floor.floor_sweep``), which offers every vacant seat and times out every call past
its deadline whose message was lost (DESIGN §5).

Messages go by task name (``CELERY_TASK_ALWAYS_EAGER`` runs a task this process registers
at the commit, as before).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.conf import settings

from casino import outbox
from casino.eventstore.store import RecordedEvent

log = logging.getLogger(__name__)

#: the events that open a seat at a poker table, by stream type
SEAT_OPENINGS = {"poker_table": frozenset({"PlayerLeft", "PlayerRemoved"}),
                 "table": frozenset({"TableOpened"})}


def send(task_name: str, args: list[Any], eta: datetime | None = None) -> None:
    """Schedule ``task_name(*args)`` with the current transaction: an outbox row sent once
    it commits. Outside a transaction (the after-commit offer): sent by the relay thread
    with no row (the floor's sweep finds a lost one)."""
    import poker_floor.tasks  # noqa: F401  the floor's tasks, registered by name (eager)

    if outbox.in_command():  # the runner's pipeline collecting, or a transaction
        outbox.schedule(task_name, args, eta)
    else:
        outbox.send_soon(task_name, args)


def opened_tables(events: Sequence[RecordedEvent]) -> list[str]:
    """The tables where the events opened a seat (or the whole table), each once."""
    out: list[str] = []
    for e in events:
        if e.type in SEAT_OPENINGS.get(e.stream_type, ()):
            table = e.stream_id.split("-", 1)[1]
            if table not in out:
                out.append(table)
    return out


def offer_opened_seats(events: Sequence[RecordedEvent]) -> None:
    """After an append commits: queue the offer of each opened seat to its game's list,
    for the tables whose game has a list at their property (with FLOOR_AUTO_CALL)."""
    tables = opened_tables(events)
    if not tables or not settings.FLOOR_AUTO_CALL:
        return
    from poker_floor.models import Waitlist
    from tables.models import GameTable

    try:
        listed = {str(pk) for pk, game, prop in GameTable.objects.filter(pk__in=tables)
                  .values_list("pk", "game", "property_id")
                  if Waitlist.objects.filter(property_id=prop, game=game).exists()}
    except Exception:  # noqa: BLE001  never the appending command's failure
        log.warning("could not look up the lists of tables %s", tables, exc_info=True)
        return
    for table in tables:
        if table in listed:
            send("poker_floor.seats_offer", [table])
