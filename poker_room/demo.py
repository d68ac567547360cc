"""The demo poker room: players seated at the demo poker tables (`make run`), so a new
user can deal a hand from the README's walk-through. Seats are taken through the seating
service, as a dealer would take them (events appended); a table whose seats are already
taken is left as it is, so this is safe at every start."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from casino.actors import actor_of
from casino.domain.money import format_money
from casino.models import Property
from poker_room.models import Seat
from poker_room.services.seats import seat_player, table_rules
from tables.domain.catalogue import get_table_game
from tables.models import GameTable, TableStatus

#: who sits down at each demo poker table: a named player (what a High Hand slip needs,
#: 637a.16(f)(1)) and anonymous seats; fictional names and 555 numbers
DEMO_PLAYERS = [
    {"name": "Avery Demo", "phone": "555-0101"}, None,
    {"name": "Jordan Sample", "phone": "555-0102"}, None,
]


def seed_players(prop: Property) -> list[str]:
    """Seat the demo players where a demo poker table is open and empty; say what was
    done."""
    dealer = actor_of(get_user_model().objects.get(username="demo_dealer"))
    notes = []
    for table in GameTable.objects.filter(property=prop, status=TableStatus.OPEN,
                                          name__startswith="P-").order_by("name"):
        if not get_table_game(table.game).is_poker or Seat.objects.filter(table=table).exists():
            continue
        options = table_rules(table).shared_dict()
        buy_in = min(options["buy_in_maximum_cents"], max(options["buy_in_minimum_cents"],
                                                          10_000))
        for seat, player in enumerate(DEMO_PLAYERS, start=1):
            person = None if player is None else {
                **player, "name": f"{player['name']} ({table.name})"}
            # the players pay cash at the table: the buy-in is the day's chip sale too
            seat_player(actor=dealer, table_id=table.pk, seat=seat, buy_in_cents=buy_in,
                        player=person, paid_with="cash")
        notes.append(f"{table.name}: {len(DEMO_PLAYERS)} players seated with "
                     f"{format_money(buy_in)} each")
    return notes


def describe(prop: Property) -> list[dict[str, Any]]:
    out = []
    for table in GameTable.objects.filter(property=prop, name__startswith="P-").order_by("name"):
        seats = Seat.objects.filter(table=table).order_by("seat")
        out.append({"table": table.name, "id": str(table.pk), "game": table.game,
                    "seats": [(s.seat, s.stack_cents) for s in seats]})
    return out
