"""The poker floor's test helpers: a property with its people, open poker tables under a
Rules Submission in force, a list and players on it — all made through the real services
(events appended). ``floor`` / ``make_floor`` (tests/poker_floor/conftest.py) give a
:class:`Floor`; the other helpers read what the events and rows say.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from casino.actors import Actor, actor_of
from casino.eventstore.store import RecordedEvent, read_stream
from casino.models import Event, Property
from tables.domain.catalogue import get_table_game
from tables.domain.rules_options import example_options

#: valid telephone numbers (phonenumbers, region US), as typed and as stored (E.164)
PHONES = [("201-555-0123", "+12015550123"), ("(212) 555-0199", "+12125550199"),
          ("617-555-0142", "+16175550142"), ("+1 202 555 0101", "+12025550101"),
          ("+44 20 7946 0958", "+442079460958")]
#: every role of casino.roles.Role, each its own person (``approver``: a second
#: compliance officer, who approves the Rules Submission the first drafted)
PEOPLE = {"floor": ("floorperson",), "supervisor": ("poker_shift_supervisor",),
          "dealer": ("dealer",), "cashier": ("cashier",), "finance": ("finance",),
          "compliance": ("compliance",), "approver": ("compliance",),
          "security": ("security",), "admin": ("admin",), "count_team": ("count_team",),
          "nobody": ()}
#: the buy-in of the example Hold'em Rules Submission ($40 to $400 in $1 chips)
BUY_IN = 4000

_names = itertools.count(1)


def event_count() -> int:
    """Every event in the store (a refusal appends nothing: this does not change)."""
    return Event.objects.count()


def list_events(waitlist: Any) -> list[RecordedEvent]:
    return list(read_stream(f"waitlist-{waitlist.pk}"))


def list_types(waitlist: Any) -> list[str]:
    return [e.type for e in list_events(waitlist)]


def table_events(table: Any) -> list[RecordedEvent]:
    return list(read_stream(f"poker_table-{table.pk}"))


@dataclass
class Floor:
    """One property's poker floor for a test: ``people[name]`` is an Actor for each of
    :data:`PEOPLE`; ``dealer`` is assigned to every table made here."""

    property: Property
    people: dict[str, Actor]
    make_staff: Any
    rules_put: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, who: str) -> Actor:
        return self.people[who]

    # --- rules and tables ---------------------------------------------------------------

    def rules(self, game: str = "holdem", **changes: Any) -> Any:
        """Put a Rules Submission for ``game`` in effect: the example options with
        ``changes`` (``waitlist={"call_minutes": 1}``, ...)."""
        from tables.services import rules

        options = {**example_options(game), **changes}
        rs = rules.rules_draft(actor=self["compliance"], game=game, options=options)
        rules.rules_submit(actor=self["compliance"], rules_id=rs.pk)
        rs = rules.rules_approve(actor=self["approver"], rules_id=rs.pk)
        self.rules_put[game] = rs
        return rs

    def table(self, game: str = "holdem", *, positions: int | None = None,
              open: bool = True, name: str | None = None) -> Any:
        """A table of ``game`` with the dealer assigned, open unless ``open=False``; the
        game's rules are put in effect first if this floor has not done it."""
        from tables.services import tables

        if game not in self.rules_put:
            self.rules(game)
        g = get_table_game(game)
        t = tables.table_configure(
            actor=self["admin"], name=name or f"{g.id[:20]}-{next(_names)}", game=game,
            positions=positions or g.max_positions,
            dealing_method="hand" if g.is_poker else "automated-shoe", shuffler="automated")
        tables.table_assign_dealer(actor=self["floor"], table_id=t.pk,
                                   dealer=self["dealer"].username)
        return tables.table_open(actor=self["floor"], table_id=t.pk) if open else t

    def tables(self, n: int, game: str = "holdem", **kw: Any) -> list[Any]:
        return [self.table(game, **kw) for _ in range(n)]

    def table_open(self, table: Any) -> Any:
        from tables.services import tables

        return tables.table_open(actor=self["floor"], table_id=table.pk)

    def table_close(self, table: Any) -> Any:
        from tables.services import tables

        return tables.table_close(actor=self["floor"], table_id=table.pk)

    # --- seats --------------------------------------------------------------------------

    def seat(self, table: Any, seat: int, name: str | None = None, phone: str = "",
             buy_in_cents: int = BUY_IN) -> Any:
        """Seat a player (anonymous without a name) through poker_room's seat service."""
        from poker_room.services.seats import seat_player

        return seat_player(actor=self["floor"], table_id=table.pk, seat=seat,
                           buy_in_cents=buy_in_cents, paid_with="chips",
                           player={"name": name, "phone": phone} if name else None)

    def fill(self, table: Any, *, leave: tuple[int, ...] = ()) -> None:
        """Seat an anonymous player at every seat of ``table`` but ``leave``."""
        for s in range(1, table.positions + 1):
            if s not in leave:
                self.seat(table, s)

    def leave(self, table: Any, seat: int) -> Any:
        from poker_room.services.seats import seat_leave

        return seat_leave(actor=self["floor"], table_id=table.pk, seat=seat)

    # --- lists --------------------------------------------------------------------------

    def waitlist(self, game: str = "holdem", open_table_at: int | None = None) -> Any:
        from poker_floor.services.lists import waitlist_open

        if game not in self.rules_put:
            self.rules(game)
        return waitlist_open(actor=self["floor"], game=game, open_table_at=open_table_at)

    def list_player(self, waitlist: Any, name: str, phone: str = "", email: str = "",
                    **kw: Any) -> Any:
        from poker_floor.services.lists import player_list

        return player_list(actor=self["floor"], waitlist_id=waitlist.pk, name=name,
                           phone=phone, email=email, **kw)

    def list_players(self, waitlist: Any, *names: str) -> list[Any]:
        """Each name added in turn, each with the next phone no one on the list has: those
        of :data:`PHONES` in turn, then +1 201 555 01NN (one phone is one player: a phone
        on the list already is refused, ``already_listed``)."""
        from poker_floor.domain.queue import ACTIVE
        from poker_floor.models import ListEntry

        used = set(ListEntry.objects.filter(waitlist_id=waitlist.pk, status__in=ACTIVE)
                   .values_list("phone", flat=True))
        numbers = dict(PHONES)  # typed -> stored
        numbers.update((f"+1 201 555 01{n:02d}", f"+120155501{n:02d}") for n in range(100)
                       if f"+120155501{n:02d}" not in numbers.values())
        free = (typed for typed, stored in numbers.items() if stored not in used)
        return [self.list_player(waitlist, n, phone=next(free)) for n in names]

    def reload(self, row: Any) -> Any:
        return type(row).objects.get(pk=row.pk)


def make_floor_for(property: Property, make_staff: Any) -> Floor:
    people = {who: actor_of(make_staff(*roles, property=property))
              for who, roles in PEOPLE.items()}
    return Floor(property=property, people=people, make_staff=make_staff)


def committed_floor(licence: str, prefix: str) -> Floor:
    """A :class:`Floor` at a new property ``licence`` made outside pytest-django's
    transaction (``committed_db``: a Celery worker or a server thread reads it)."""
    from casino.services import property_register, staff_bootstrap

    prop = property_register(name=f"{prefix} Casino", licence_number=licence, system="test")
    count = itertools.count(1)

    def make_staff(*roles: str, property: Property | None = None) -> Any:
        n = next(count)
        return staff_bootstrap(property=property or prop, username=f"{prefix}-{n}",
                               password="x" * 12, credential_number=f"{prefix}-{n:04d}",
                               roles=roles, system="test").user

    return make_floor_for(prop, make_staff)
