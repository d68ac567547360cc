"""The fairness record (issue 24, item 9): for one list and one gaming day, every step of the
list in the order it happened — each player added, called (in turn, out of turn with the
reason and the players passed, or by lot), passed, timed out (moved down or removed),
called off, seated, removed, paged, moved — with the time, who did it, the player's
initials and their place on the list at that moment. A player's complaint "I was
skipped" is answered by their "passed" steps: each names who was called instead and why.

It is worked out **from the events** of the list's stream (``waitlist-<id>``), never from
the read models' present state: the list is replayed from its first event (an entry
listed on an earlier day holds its place) and the steps recorded on the day (the
events' ``gaming_day`` metadata) are given. What the read models add is only what the
events do not say in clear: a player's initials (:attr:`ListEntry.initials`, sealed in
the events; "erased" once their details are erased) and the tables' names.

Never a name, phone or e-mail: the record is read by compliance as well as the floor.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from casino import personal_data
from casino.actors import Actor
from casino.domain.errors import DomainError
from casino.eventstore.models import Event
from casino.eventstore.records import upcast
from casino.roles import Role
from casino.scoping import property_row, property_rows
from console.history import who
from poker_floor.domain import queue
from poker_floor.models import ListEntry, Waitlist
from tables.models import GameTable

#: who reads the record: the compliance officer (a complaint, an audit) and the floor
FAIRNESS_READERS = (Role.COMPLIANCE, Role.POKER_SHIFT_SUPERVISOR, Role.FLOORPERSON)


class FairnessDayError(DomainError):
    """The day asked for is not a date (YYYY-MM-DD)."""

    code = "invalid_gaming_day"


def day_of(text: str | None, actor: Actor) -> date:
    """The gaming day ``text`` names (``YYYY-MM-DD``), today's gaming day when none is
    given; 400 ``invalid_gaming_day`` (field ``day``) for anything else."""
    if not text:
        return actor.gaming_day()
    try:
        return date.fromisoformat(text)
    except (TypeError, ValueError):
        raise FairnessDayError("the day is a date, YYYY-MM-DD", field="day") from None


@dataclass
class Who:
    """A list entry as the record names it: its id, initials, and place at the moment."""

    entry: str
    initials: str
    position: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"entry": self.entry, "initials": self.initials, "position": self.position}


@dataclass
class Step:
    """One event of the list as the record shows it."""

    version: int
    at: datetime
    type: str
    #: "added", "called", "passed", "timed out", "called off", "seated", "removed",
    #: "paged", "page failed", "moved", "opened by lot", "broken by lot", "must-move",
    #: "list"
    kind: str
    #: the person or task that recorded it ("dana (floorperson)", "the system (...)")
    by: str
    actor: str
    role: str
    #: the player concerned (their place: at the moment of the step; a timeout's is the
    #: place they were moved down to)
    player: Who | None = None
    #: the step in words (initials, tables by name, never a name)
    text: str = ""
    table: str | None = None
    table_name: str = ""
    seat: int | None = None
    reason: str = ""
    #: a call: the players passed over; a pass: the player called instead
    passed: list[Who] = field(default_factory=list)
    called_instead: Who | None = None
    in_turn: bool | None = None
    by_lot: bool = False
    moved_to: int | None = None
    missed: int | None = None
    call: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "version": self.version, "at": self.at, "type": self.type, "kind": self.kind,
            "by": self.by, "actor": self.actor, "role": self.role,
            "player": self.player.as_dict() if self.player else None, "text": self.text,
            "table": self.table, "table_name": self.table_name, "seat": self.seat,
            "reason": self.reason, "passed": [p.as_dict() for p in self.passed],
            "called_instead": self.called_instead.as_dict() if self.called_instead else None,
            "in_turn": self.in_turn, "by_lot": self.by_lot, "moved_to": self.moved_to,
            "missed": self.missed, "call": self.call}


class _Order:
    """The list's calling order replayed event by event with the functions the projection
    keeps ``Waitlist.order`` with (:mod:`poker_floor.domain.queue`): the active entries
    (waiting or called) in calling order, table changes and a broken table's players
    first; a called player keeps their place until seated, taken off or moved down."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.kinds: dict[str, str] = {}

    def position(self, entry: str) -> int | None:
        try:
            return self.ids.index(entry) + 1
        except ValueError:
            return None

    def add(self, entry: str, kind: str) -> None:
        self.kinds[entry] = kind
        if entry not in self.ids:
            self.ids = queue.listed(self.ids, self.kinds, entry, kind)

    def remove(self, entry: str) -> int | None:
        pos = self.position(entry)
        self.ids = queue.moved_to(self.ids, entry, None)
        return pos

    def put_at(self, entry: str, position: int | None) -> None:
        self.ids = queue.moved_to(self.ids, entry, position)


def _names(waitlist: Waitlist, actor: Actor
           ) -> tuple[dict[str, tuple[str, bool]], dict[str, str]]:
    """The initials (and erased flag) of every entry of the list, and the names of the
    property's tables: two queries whatever the number of steps."""
    entries = {str(pk): (initials, erased) for pk, initials, erased in
               ListEntry.objects.filter(waitlist=waitlist).values_list("id", "initials", "erased")}
    tables = {str(pk): name for pk, name in property_rows(GameTable.objects, actor)
              .values_list("id", "name")}
    return entries, tables


def _stream(waitlist: Waitlist, day: date) -> list[Event]:
    """The list's events up to the end of ``day`` (an event of a later gaming day ends
    the read: a stream's gaming days only go forward)."""
    out = []
    text = day.isoformat()
    for e in Event.objects.filter(stream_id=waitlist.stream_id).order_by("version").iterator():
        if str((e.metadata or {}).get("gaming_day") or "") > text:
            break
        out.append(e)
    return out


def fairness_record(waitlist: Waitlist, day: date, *, actor: Actor,
                    entry: str | None = None) -> dict[str, Any]:
    """The record of ``waitlist`` for gaming day ``day`` (see the module): ``{"waitlist",
    "day", "steps": [Step ...], "waiting_at_start": [Who], "waiting_at_end": [Who]}``;
    ``entry`` narrows the steps to those of one player (their own, and every call that
    passed them over)."""
    events = _stream(waitlist, day)
    entries, tables = _names(waitlist, actor)

    def initials(entry_id: Any) -> str:
        got = entries.get(str(entry_id))
        if got is None:
            return "?"
        # an erased player: what every reader shows once the key (and initials) went
        return personal_data.ERASED if got[1] else (got[0] or "?")

    def table_name(table_id: Any) -> str:
        return tables.get(str(table_id), f"table {str(table_id)[:8]}") if table_id else ""

    def person(entry_id: Any, position: int | None) -> Who:
        return Who(str(entry_id), initials(entry_id), position)

    order = _Order()
    text = day.isoformat()
    steps: list[Step] = []
    at_start: list[Who] | None = None
    for e in events:
        on_day = str((e.metadata or {}).get("gaming_day") or "") == text
        if on_day and at_start is None:
            at_start = [person(x, i + 1) for i, x in enumerate(order.ids)]
        made = _step(e, order, person, table_name)
        if on_day:
            steps.extend(made)
    if at_start is None:
        at_start = [person(x, i + 1) for i, x in enumerate(order.ids)]
    if entry:
        steps = [s for s in steps if _concerns(s, entry)]
    return {"waitlist": waitlist, "day": day, "steps": steps,
            "waiting_at_start": at_start,
            "waiting_at_end": [person(x, i + 1) for i, x in enumerate(order.ids)]}


def _concerns(step: Step, entry: str) -> bool:
    return bool((step.player and step.player.entry == entry)
                or any(p.entry == entry for p in step.passed))


def _step(e: Event, order: _Order, person: Any, table_name: Any) -> list[Step]:
    """The steps one event makes (a call that passed players over makes one "passed"
    step per player passed, after the call), the order moved as the event moves it."""
    d: Mapping[str, Any] = upcast(e.type, e.schema_version, e.data or {})[1] or {}
    meta: Mapping[str, Any] = e.metadata or {}
    base = {"version": e.version, "at": e.recorded_at, "type": e.type, "by": who(meta),
            "actor": str(meta.get("actor") or ""), "role": str(meta.get("role") or "")}
    t = e.type
    entry = str(d.get("entry") or "")

    def step(kind: str, text: str, **more: Any) -> Step:
        # a sentence ending in initials ("... listed first: D.R.") takes no second period
        return Step(kind=kind, text=text[:-1] if text.endswith("..") else text, **base, **more)

    if t == "WaitlistOpened":
        return [step("list", f"The list opened for {d.get('name') or d.get('game')}.")]
    if t == "WaitlistConfigured":
        at = d.get("open_table_at")
        return [step("list", f"A table is suggested at {at} waiting." if at
                     else "No table opening is suggested.")]
    if t == "PlayerListed":
        order.add(entry, str(d.get("kind") or "player"))
        who_ = person(entry, order.position(entry))
        kind = d.get("kind") or "player"
        how = {"change": " for a table change", "broken": " from a broken table"}.get(kind, "")
        source = " at the kiosk" if d.get("source") == "kiosk" else ""
        return [step("added", f"{who_.initials} added{how}{source} at position "
                     f"{who_.position}.", player=who_,
                     table=str(d["from_table"]) if d.get("from_table") else None,
                     table_name=table_name(d.get("from_table")), seat=d.get("from_seat"))]
    if t == "SeatOffered":
        called = person(entry, order.position(entry))
        passed = [person(p, order.position(str(p))) for p in d.get("passed") or []]
        reason = str(d.get("reason") or "")
        by_lot = bool(d.get("by_lot"))
        in_turn = not passed and not reason and not by_lot
        where = f"seat {d.get('seat')} at {table_name(d.get('table'))}"
        how = ("by lot" if by_lot else "in turn" if in_turn
               else f"out of turn ({reason})" if reason else "out of turn")
        over = ", ".join(f"{p.initials} (position {p.position})" for p in passed)
        passing = f"; passed over: {over}" if passed else ""
        out = [step("called", f"{called.initials} (position {called.position}) called {how} to "
                    f"{where}{passing}.", player=called, table=str(d.get("table") or "") or None,
                    table_name=table_name(d.get("table")), seat=d.get("seat"), reason=reason,
                    passed=passed, in_turn=in_turn, by_lot=by_lot, call=str(d.get("call") or ""))]
        for p in passed:
            out.append(step("passed", f"{p.initials} (position {p.position}) passed over: "
                            f"{called.initials} called instead to {where}"
                            f"{f' ({reason})' if reason else ''}.", player=p,
                            table=str(d.get("table") or "") or None,
                            table_name=table_name(d.get("table")), seat=d.get("seat"),
                            reason=reason, called_instead=called, in_turn=False,
                            call=str(d.get("call") or "")))
        return out
    if t == "CallTimedOut":
        moved_to = d.get("moved_to")
        order.put_at(entry, moved_to)
        who_ = person(entry, moved_to)
        missed = d.get("missed")
        what = (f"moved down to position {moved_to}" if moved_to is not None
                else "removed from the list")
        return [step("timed out", f"{who_.initials} did not come in time (call missed "
                     f"{missed} time{'' if missed == 1 else 's'}): {what}.", player=who_,
                     moved_to=moved_to, missed=missed, call=str(d.get("call") or ""))]
    if t == "CallCancelled":
        who_ = person(entry, order.position(entry))
        reason = str(d.get("reason") or "")
        return [step("called off", f"{who_.initials}'s call was called off"
                     f"{f' ({reason})' if reason else ''}: waiting at position "
                     f"{who_.position}.",
                     player=who_, reason=reason, call=str(d.get("call") or ""))]
    if t == "PlayerSeatedFromList":
        stays = bool(d.get("stays_listed"))
        order.remove(entry)
        if stays:  # a table change from the seat taken now (as the projection moves it)
            order.add(entry, "change")
        who_ = person(entry, order.position(entry) if stays else None)
        where = f"seat {d.get('seat')} at {table_name(d.get('table'))}"
        return [step("seated", f"{who_.initials} seated at {where}"
                     f"{', staying on the list' if stays else ''}.", player=who_,
                     table=str(d.get("table") or "") or None, table_name=table_name(d.get("table")),
                     seat=d.get("seat"), call=str(d.get("call") or ""))]
    if t == "PlayerDelisted":
        pos = order.remove(entry)
        who_ = person(entry, pos)
        reason = str(d.get("reason") or "")
        at = f" from position {pos}" if pos else ""
        return [step("removed", f"{who_.initials} removed from the list{at}"
                     f"{f' ({reason})' if reason else ''}.", player=who_, reason=reason)]
    if t in ("PageSent", "PageFailed"):
        who_ = person(entry, order.position(entry))
        channel = str(d.get("channel") or "").replace("_", " ")
        by = f" by {channel}" if channel else ""
        call = str(d.get("call") or "")
        if t == "PageSent":
            return [step("paged", f"{who_.initials} paged{by}.", player=who_, call=call)]
        error = str(d.get("error") or "").replace("_", " ")
        return [step("page failed", f"The page to {who_.initials}{by} failed"
                     f"{f': {error}' if error else ''}.", player=who_, call=call)]
    if t == "MustMoveSet":
        feeders = ", ".join(table_name(f) for f in d.get("feeders") or []) or "none"
        return [step("must-move", f"{table_name(d.get('main_table'))} made a must-move main "
                     f"game, fed by {feeders}.", table=str(d.get("main_table") or "") or None,
                     table_name=table_name(d.get("main_table")))]
    if t == "MustMoveCleared":
        return [step("must-move", f"{table_name(d.get('main_table'))} is no longer a must-move "
                     "main game.", table=str(d.get("main_table") or "") or None,
                     table_name=table_name(d.get("main_table")))]
    if t == "PlayerMoved":
        return [_moved(d, step, person, table_name, order)]
    if t == "TableOpenedByLot":
        draw = [x for x in d.get("draw") or [] if isinstance(x, Mapping)]
        drawn = ", ".join(f"{person(x.get('entry'), None).initials} (position "
                          f"{order.position(str(x.get('entry')))}) to seat {x.get('seat')}"
                          for x in draw) or "nobody"
        return [step("opened by lot", f"{table_name(d.get('table'))} opened; seats drawn by "
                     f"lot: {drawn}.", table=str(d.get("table") or "") or None,
                     table_name=table_name(d.get("table")), by_lot=True)]
    if t == "TableBrokenByLot":
        draw = [x for x in d.get("draw") or [] if isinstance(x, Mapping)]
        drawn = ", ".join(f"seat {x.get('from_seat')} to seat {x.get('to_seat')} at "
                          f"{table_name(x.get('to_table'))}" for x in draw) or "nobody"
        listed = d.get("listed") or []
        first = (f"; listed first: {', '.join(person(x, None).initials for x in listed)}"
                 if listed else "")
        return [step("broken by lot", f"{table_name(d.get('table'))} broken; players drawn "
                     f"by lot: {drawn}{first}.", table=str(d.get("table") or "") or None,
                     table_name=table_name(d.get("table")), by_lot=True)]
    return [step("other", f"{t}.")]


def _moved(d: Mapping[str, Any], step: Any, person: Any, table_name: Any, order: _Order) -> Step:
    why = str(d.get("why") or "")
    entry = d.get("entry")
    who_ = None
    if entry:
        who_ = person(entry, order.position(str(entry)))
    words = {"must_move": "from the must-move table to the main game",
             "table_change": "for a table change", "table_broken": "from a broken table"
             }.get(why, why.replace("_", " "))
    reason = str(d.get("reason") or "")
    name = f"{who_.initials} " if who_ else "The player at "
    return step("moved", f"{name}seat {d.get('from_seat')} at {table_name(d.get('from_table'))} "
                f"moved to seat {d.get('to_seat')} at {table_name(d.get('to_table'))} {words}"
                f"{f' ({reason})' if reason else ''}.", player=who_,
                table=str(d.get("to_table") or "") or None,
                table_name=table_name(d.get("to_table")), seat=d.get("to_seat"), reason=reason)


def waitlist_for(actor: Actor, waitlist_id: Any) -> Waitlist:
    """The actor's property's list (404 ``waitlist_not_found`` for another's)."""
    actor.require(*FAIRNESS_READERS)
    return property_row(Waitlist.objects, actor, waitlist_id, what="waitlist")


def steps_as_dicts(steps: Iterable[Step]) -> list[dict[str, Any]]:
    return [s.as_dict() for s in steps]
