"""Panels that apps above tables add to a table's console page (``/console/tables/<id>/``).

tables may not import poker_room or finance (DESIGN §2: apps import only downward), yet a
table's page shows the seats and the hand in progress of a poker table and finance's
figures of the table's day. An app registers a panel here from its ``console_pages.py``
(as the console registry is filled, Wagtail's hooks)::

    from tables.console_panels import Panel, register_panel

    def seats_panel(request, actor, table):
        if not is_poker(table):
            return None
        return Panel(title="Seats", template="poker_room/console/_table_seats.html",
                     context={...}, order=20)

    register_panel(seats_panel)

A panel function reads read models only (DESIGN §2: reads never write) and returns None
when it has nothing for this table. Panels are shown in their ``order``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest

from casino.actors import Actor


@dataclass(frozen=True)
class Panel:
    #: its heading on the page (an ``<h2>``)
    title: str
    #: the template that renders it, given ``panel`` (this ``context``) and ``table``
    template: str
    context: dict[str, Any] = field(default_factory=dict)
    order: int = 100


PanelFn = Callable[[HttpRequest, Actor, Any], "Panel | None"]
_PANELS: list[PanelFn] = []


def register_panel(fn: PanelFn) -> PanelFn:
    """Add ``fn(request, actor, table) -> Panel | None`` to every table's page (usable as
    a decorator); registering the same function twice adds it once."""
    if fn not in _PANELS:
        _PANELS.append(fn)
    return fn


def panels_for(request: HttpRequest, actor: Actor, table: Any) -> list[Panel]:
    """The panels the apps have for ``table``, in their order."""
    found = [p for p in (fn(request, actor, table) for fn in _PANELS) if p is not None]
    return sorted(found, key=lambda p: (p.order, p.title))
