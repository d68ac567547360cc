""""Waiting for me" (issue 23 item 2): each task provider the viewer's roles see, with its
first items for the viewer and their exact count, worked out once per request and shared
by the home page, its fragment and the navigation's badges. A provider is asked for the
:data:`FIRST` items shown only (``items(actor, FIRST)``): the page costs what it shows,
whatever the number of tables."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.conf import settings

from console.registry import (
    Listed,
    NavItem,
    TaskProvider,
    WaitingItem,
    nav_for,
    providers_for,
)

#: items shown per provider on the home page (the rest behind its list link)
FIRST = 5


@dataclass(frozen=True)
class Waiting:
    """One provider's list for the viewer: its first :data:`FIRST` items (in the
    provider's order, overdue first) and how many it has in all."""

    provider: TaskProvider
    listed: Listed

    @property
    def count(self) -> int:
        return self.listed.total

    @property
    def first(self) -> list[WaitingItem]:
        return list(self.listed)

    @property
    def more(self) -> int:
        return self.listed.more


class Shell:
    """What the console's frame shows the signed-in person (``request.console``): the
    navigation with its badges and the waiting lists, each worked out on first use.

    Only the home and its fragment work the lists out (``waiting``); another page draws
    the navigation without running a task provider: its badges are empty placeholders
    (``counted`` is False) until the first fragment request (htmx, on load, then every
    few seconds) swaps them in out of band. Without JavaScript the links are there, the
    counts are on the home."""

    def __init__(self, console: Any) -> None:
        self.console = console

    @cached_property
    def waiting(self) -> list[Waiting]:
        actor = self.console.actor
        return [Waiting(p, p.items(actor, FIRST)) for p in providers_for(self.console.roles)]

    @cached_property
    def counts(self) -> dict[str, int]:
        return {w.provider.key: w.count for w in self.waiting}

    @property
    def counted(self) -> bool:
        """Whether this request has worked the lists out already (the home, the
        fragment): the navigation shows the badges then, else their placeholders."""
        return "waiting" in self.__dict__

    @property
    def poll_seconds(self) -> int:
        return settings.CONSOLE_POLL_SECONDS

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def busy(self) -> list[Waiting]:
        """The lists with something in them (the home shows their items first)."""
        return [w for w in self.waiting if w.count]

    @property
    def quiet(self) -> list[Waiting]:
        """The lists with nothing in them (the home names them on one line)."""
        return [w for w in self.waiting if not w.count]

    def badge(self, item: NavItem) -> int:
        return sum(self.counts.get(k, 0) for k in item.counts)

    @property
    def nav(self) -> list[tuple[str, list[tuple[NavItem, int | None, str]]]]:
        """``[(group, [(item, badge, badge_id), ...]), ...]``; the badge is None (a
        placeholder) unless the lists were worked out already (:attr:`counted`)."""
        counted = self.counted
        return [(group, [(i, self.badge(i) if counted and i.counts else None, badge_id(i))
                         for i in items])
                for group, items in nav_for(self.console.roles)]

    @property
    def badges(self) -> list[tuple[NavItem, int, str]]:
        """The badges with their counts (works the lists out: the fragment's)."""
        return [(i, self.badge(i), badge_id(i)) for _, items in nav_for(self.console.roles)
                for i in items if i.counts]


def badge_id(item: NavItem) -> str:
    return "badge-" + hashlib.sha1(item.url.encode() + item.label.encode()).hexdigest()[:10]


def fragment_stamp(html: str) -> str:
    """The ``data-updated`` stamp of a fragment: a hash of what it shows."""
    return hashlib.sha256(html.encode()).hexdigest()[:20]


def shell_of(request: Any) -> Shell | None:
    console = getattr(request, "console", None)
    if console is None:
        return None
    shell = getattr(request, "_console_shell", None)
    if shell is None:
        shell = request._console_shell = Shell(console)
    return shell


def context(request: Any) -> dict[str, Any]:
    """Template context processor: ``console_shell`` (None outside the console)."""
    return {"console_shell": shell_of(request)}
