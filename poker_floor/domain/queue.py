"""The calling order of a list and the posted procedure for a called player who does not
come (pure: no database; the services and the projection both use it, so the order the
floor is shown is the order the events make).

A list's ``order`` holds its active entries (waiting or called) in calling order: table
changes and a broken table's players (``change``, ``broken``) first, in the order they
were listed, then players (``player``) in the order they were added. A called player who
does not come within the Rules' ``call_minutes`` is moved down ``move_down_places``
places, or taken off at the ``missed_calls_allowed``-th miss.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: entry statuses still on the list
WAITING, CALLED = "waiting", "called"
ACTIVE = (WAITING, CALLED)
#: entry kinds served before the list (issue 24, item 3: table changes "served before the
#: list, in order"; a broken table's players with them)
PRIORITY_KINDS = frozenset({"change", "broken"})


@dataclass(frozen=True)
class Entry:
    """What the calling order needs of an entry."""

    id: str
    kind: str = "player"
    status: str = WAITING
    #: a table change's own table: it is never offered a seat there
    from_table: str | None = None


def place_new(order: Sequence[str], kinds: Mapping[str, str], kind: str) -> int:
    """The index a new entry of ``kind`` takes in ``order``: a player at the end; a table
    change or a broken table's player after the table changes and broken-table players at
    the head of the list, before the first player."""
    if kind not in PRIORITY_KINDS:
        return len(order)
    for i, entry in enumerate(order):
        if kinds.get(entry, "player") not in PRIORITY_KINDS:
            return i
    return len(order)


def listed(order: Sequence[str], kinds: Mapping[str, str], entry: str, kind: str
           ) -> list[str]:
    """``order`` with ``entry`` (of ``kind``) added at its place."""
    out = list(order)
    out.insert(place_new(out, kinds, kind), entry)
    return out


def eligible(entries: Sequence[Entry], table: str) -> list[Entry]:
    """The entries that may be offered a seat at ``table``, in calling order: waiting (not
    called already), and not a table change from that very table."""
    return [e for e in entries
            if e.status == WAITING and not (e.kind == "change" and e.from_table == table)]


def first_eligible(entries: Sequence[Entry], table: str) -> Entry | None:
    found = eligible(entries, table)
    return found[0] if found else None


def passed_over(entries: Sequence[Entry], table: str, chosen: str) -> list[str]:
    """The eligible entries ahead of ``chosen``: those an out-of-turn call passes over
    (recorded in SeatOffered.passed; the floor must give a reason when there are any)."""
    out = []
    for e in eligible(entries, table):
        if e.id == chosen:
            return out
        out.append(e.id)
    return out


@dataclass(frozen=True)
class Miss:
    """A called player who did not come: the new order and position (1-based), or None
    when the player is taken off the list."""

    order: list[str]
    moved_to: int | None
    missed: int


def missed_call(order: Sequence[str], entry: str, *, missed_before: int,
                move_down_places: int, missed_calls_allowed: int) -> Miss:
    """The posted procedure for a call not answered in time: the player's misses counted;
    at the ``missed_calls_allowed``-th the player is taken off the list; before it the
    player is moved down ``move_down_places`` places from where they stood (to the end at
    most). An entry not in the order (taken off meanwhile) stays out."""
    missed = missed_before + 1
    rest = [e for e in order if e != entry]
    if missed >= missed_calls_allowed or entry not in order:
        return Miss(rest, None, missed)
    index = min(list(order).index(entry) + move_down_places, len(rest))
    rest.insert(index, entry)
    return Miss(rest, index + 1, missed)


def moved_to(order: Sequence[str], entry: str, position: int | None) -> list[str]:
    """``order`` with ``entry`` put at the 1-based ``position`` (None: taken off) — how
    the projection applies CallTimedOut.moved_to."""
    rest = [e for e in order if e != entry]
    if position is None:
        return rest
    rest.insert(max(0, min(position - 1, len(rest))), entry)
    return rest
