"""The poker floor's "waiting for me" lists and its navigation item (console.registry).

* **Open a table** (the floor): a list whose waiting players have reached the number the
  property set for it (``Waitlist.open_table_at``; 0 never). The console only suggests:
  opening a table and seating the top of the list by lot is the floor's command
  (``table_open_by_lot``), offered when it is declared and the viewer may take it.
* **Calls past their time** (the floor): open calls whose deadline has passed. The timeout
  task (or the beat sweep behind it) times them out; the floor may do it at once.

Each is read from the read models in one query whatever the number of lists or calls.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone

from casino.actors import Actor
from console.registry import Listed, NavItem, TaskProvider, WaitingItem, listed, nav, task
from poker_floor import selectors
from poker_floor.console_pages import LISTS_URL, offered
from poker_floor.services.common import FLOOR
from tables.console_tasks import said_at


def lists_to_open_a_table(actor: Actor, limit: int | None = None) -> Listed:
    """Each list at or past its number for a new table, the longest first."""
    def item(w: Any) -> WaitingItem:
        link = offered(actor, "Open a table by lot", "table_open_by_lot",
                       {"waitlist_id": str(w.pk)})
        return WaitingItem(
            title=f"{w.name}: {w.waiting} waiting",
            detail=(f"The property suggests opening a table at {w.open_table_at} waiting; "
                    "opening one seats the top of the list by lot."),
            action=link["label"] if link else "Open the list",
            url=link["url"] if link else reverse("console:poker_list", args=[w.pk]))
    return listed(selectors.lists_to_open_a_table(actor), limit, item)


def calls_past_their_time(actor: Actor, limit: int | None = None) -> Listed:
    """Each open call past its deadline, the oldest deadline first (overdue: all)."""
    now = timezone.now()

    def item(c: Any) -> WaitingItem:
        link = offered(actor, "Time out the call", "call_timeout", {"call_id": str(c.pk)})
        who = "erased" if c.entry.erased else (c.entry.initials or "a player")
        return WaitingItem(
            title=f"{c.waitlist.name}: {who}'s call is past its time",
            detail=f"Called to seat {c.seat}; to come by {said_at(c.deadline_at, actor, now)}",
            action=link["label"] if link else "Open the list",
            url=link["url"] if link else reverse("console:poker_list", args=[c.waitlist_id]),
            overdue=True)
    return listed(selectors.calls_past_deadline(actor, now), limit, item)


OPEN_A_TABLE = task(TaskProvider(
    key="floor_open_a_table", title="Open a table", roles=FLOOR,
    items=lists_to_open_a_table, order=25, list_url=LISTS_URL))
CALLS_PAST = task(TaskProvider(
    key="floor_calls_past_time", title="Calls past their time", roles=FLOOR,
    items=calls_past_their_time, order=20, list_url=LISTS_URL))

nav(NavItem(group="Poker room", label="Waitlists", url=LISTS_URL, roles=selectors.LIST_READERS,
            counts=(CALLS_PAST.key, OPEN_A_TABLE.key), order=35))
