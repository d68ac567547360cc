"""What the domain apps add to the console, each from its own ``console.py`` (DESIGN §7,
after Wagtail's hooks and pretix's signals): navigation items, "waiting for me" task
providers and pages. The console reads these lists; it never imports an app.

An app's ``console.py``::

    from console.registry import NavItem, TaskProvider, WaitingItem, nav, page, task

    nav(NavItem(group="Tables", label="Decks", url="/console/decks/",
                roles=(Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR), counts=("decks_to_verify",)))
    task(TaskProvider(key="decks_to_verify", title="Deck inspections to verify",
                      roles=(Role.FLOORPERSON,), items=decks_to_verify, order=10))
    page("decks/", decks_page, name="decks")

A task provider's ``items(actor, limit)`` reads read models only (no event-log scan) in a
number of queries that does not grow with the number of tables or items
(``tests/console/test_no_n_plus_one.py``), and costs what is shown: it answers a
:class:`Listed`, the first ``limit`` items in their order (overdue first) with the exact
``total``; ``limit=None`` is every item (a full list page, a test). :func:`listed` does
this for a queryset (the database counts, orders and limits, in one query) or for rows
already in order (only the first ``limit`` become items).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.db.models import Count, QuerySet, Window
from django.urls import URLPattern, path

from casino.roles import Role


@dataclass(frozen=True)
class WaitingItem:
    """One thing a person should do now, as the home page lists it."""

    #: what it is, in words: "Deck 7 (Table 3): inspection to verify"
    title: str
    #: where the person does it: usually :func:`command_url` of the form, or a page
    url: str
    #: more in words: "Inspected by dana at 6:10 AM EST"
    detail: str = ""
    #: the button's words: "Verify the inspection"
    action: str = "Open"
    #: who did the first step of a two-person step (shown; never offered the second)
    first_by: str = ""
    #: a deck change overdue, an award uncollected past its date: shown first, marked
    overdue: bool = False
    #: False when the viewer may not take this step (they did the first): shown, no button
    actionable: bool = True
    #: unused by the home (a provider answers its items in order, overdue first); kept
    #: for a provider that sorts its own rows in Python
    sort_key: Any = None


class Listed(list[WaitingItem]):
    """The first items of a provider's list, in order (a list), and ``total``: how many
    the list has for the viewer, shown or not (the badge's count)."""

    def __init__(self, items: Iterable[WaitingItem] = (), total: int | None = None) -> None:
        super().__init__(items)
        self.total = len(self) if total is None else total

    @property
    def more(self) -> int:
        return max(0, self.total - len(self))


#: the window annotation :func:`listed` adds to a queryset: every matching row's count
_TOTAL = "_listed_total"


def listed(rows: QuerySet | Iterable[Any], limit: int | None,
           make: Callable[[Any], WaitingItem]) -> Listed:
    """``rows`` in their order made into items, the first ``limit`` only (all when None).

    A queryset is counted, ordered and limited by the database in one query
    (``COUNT(*) OVER ()`` beside ``LIMIT``); other rows (a list already in order) are
    counted in Python and only the first ``limit`` made into items (filter them before:
    every row counts).
    """
    if isinstance(rows, QuerySet) and limit is not None:
        if limit <= 0:
            return Listed((), rows.count())
        got = list(rows.annotate(**{_TOTAL: Window(Count("*"))})[:limit])
        return Listed((make(r) for r in got), getattr(got[0], _TOTAL) if got else 0)
    items, total = [], 0
    for row in rows:
        if limit is None or total < limit:
            items.append(make(row))
        total += 1
    return Listed(items, total)


@dataclass(frozen=True)
class TaskProvider:
    """A list on "waiting for me": shown to ``roles``, filled by ``items(actor, limit)``
    (a :class:`Listed`: the first ``limit`` items, overdue first, and the exact total;
    every item when ``limit`` is None)."""

    key: str
    title: str
    roles: tuple[Role, ...]
    items: Callable[[Any, int | None], Listed]
    #: smaller first on the home page
    order: int = 100
    #: a page listing all of them (when the home shows only the first few)
    list_url: str = ""


@dataclass(frozen=True)
class NavItem:
    """A link in the navigation, shown to ``roles`` only; ``counts`` names task providers
    whose items (for the viewer) are summed into the badge beside it."""

    group: str
    label: str
    url: str
    roles: tuple[Role, ...]
    counts: tuple[str, ...] = ()
    order: int = 100

    def is_shown(self, roles: frozenset[str]) -> bool:
        return bool(roles & {str(r) for r in self.roles})


@dataclass
class _Registry:
    nav: list[NavItem] = field(default_factory=list)
    tasks: dict[str, TaskProvider] = field(default_factory=dict)
    pages: list[URLPattern] = field(default_factory=list)


REGISTRY = _Registry()


def nav(item: NavItem) -> NavItem:
    """Add a navigation item; one item per destination (two apps registering the same
    page would show it twice)."""
    if any(i.url == item.url or (i.group, i.label) == (item.group, item.label)
           for i in REGISTRY.nav if i != item):
        raise ValueError(f"a nav item for {item.url!r} or {item.group}/{item.label} is "
                         "registered already")
    if item not in REGISTRY.nav:
        REGISTRY.nav.append(item)
    return item


def task(provider: TaskProvider) -> TaskProvider:
    if provider.key in REGISTRY.tasks:
        raise ValueError(f"task provider {provider.key!r} registered twice")
    REGISTRY.tasks[provider.key] = provider
    return provider


def page(route: str, view: Callable[..., Any], *, name: str) -> None:
    """A console page at ``/console/<route>``, reversed as ``console:<name>``."""
    REGISTRY.pages.append(path(route, view, name=name))


def command_url(name: str, pk: Any = None, /, **initial: Any) -> str:
    """The console form of the declared command ``name`` (for ``pk``), its fields filled
    with ``initial``: ``/console/do/deck_verify/<pk>/?…``."""
    url = f"/console/do/{name}/" + (f"{pk}/" if pk is not None else "")
    query = {k: v for k, v in initial.items() if v is not None}
    return url + ("?" + urlencode(query) if query else "")


def providers_for(roles: frozenset[str]) -> list[TaskProvider]:
    """The task providers a person with ``roles`` sees, in their order."""
    wanted = [p for p in REGISTRY.tasks.values() if roles & {str(r) for r in p.roles}]
    return sorted(wanted, key=lambda p: (p.order, p.key))


def nav_for(roles: frozenset[str]) -> list[tuple[str, list[NavItem]]]:
    """Navigation groups with the items ``roles`` may see; a group with none disappears
    (Wagtail's ``menu.py``)."""
    groups: dict[str, list[NavItem]] = {}
    for item in sorted(REGISTRY.nav, key=lambda i: (i.order, i.label)):
        if item.is_shown(roles):
            groups.setdefault(item.group, []).append(item)
    return list(groups.items())


def offer(actor_or_roles: Any, label: str, name: str, pk: Any = None, /,
          **initial: Any) -> dict[str, str] | None:
    """An action link ``{"label", "url"}`` to the form of the declared command ``name`` —
    only when the viewer may take it: the declaration exists, is a console form, and its
    roles meet the viewer's (an :class:`~casino.actors.Actor`, a ``request.console`` or a
    set of role names). Otherwise None: a page never offers a step that would answer 403
    (issue 23, "a role without the right (403, the item never offered)"). The same check
    as the command view's (``Actor.has`` of the declaration's roles)."""
    from casino.declared import declared

    roles = getattr(actor_or_roles, "roles", actor_or_roles)
    try:
        decl = declared(name)
    except KeyError:
        return None
    if (pk is None) != (decl.id_arg is None):  # the form would be a 404: a page's mistake
        raise ValueError(f"command {name!r} takes " + (f"an id ({decl.id_arg})" if decl.id_arg
                                                      else "no id") + f", given {pk!r}")
    if not decl.console or not (frozenset(roles) & {str(r) for r in decl.roles}):
        return None
    return {"label": label, "url": command_url(name, pk, **initial)}

