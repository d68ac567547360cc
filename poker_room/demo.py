"""The demo poker room: the jackpot boxes registered (637a.2(e)) and players seated at the
demo poker tables (`make run`), so a new user can deal a hand from the README's
walk-through. Seats are taken through the seating service, as a dealer would take them
(events appended); a table whose seats are already taken is left as it is, so this is
safe at every start."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from casino.actors import actor_of
from casino.domain.money import format_money
from casino.models import Property
from poker_room.domain.contributions import posted_funds
from poker_room.models import PokerTable, Seat
from poker_room.services.jackpot_boxes import jackpot_box_register
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
    floor = actor_of(get_user_model().objects.get(username="demo_floorperson"))
    notes = []
    for table in GameTable.objects.filter(property=prop, status=TableStatus.OPEN,
                                          name__startswith="P-").order_by("name"):
        if not get_table_game(table.game).is_poker or Seat.objects.filter(table=table).exists():
            continue
        # the jackpot boxes on the table first: its hands pay into no fund without
        jackpot_boxes_ready(table, floor)
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


def jackpot_boxes_ready(table: GameTable, floor: Any) -> list[str]:
    """637a.2(e): a box registered on ``table`` by ``floor`` (a floorperson's actor) for
    each jackpot fund its rules in effect pay into that has none yet, tagged with the
    table's name and the fund's; the tags registered."""
    poker = PokerTable.objects.filter(table_id=table.pk).first()
    have = poker.jackpot_boxes if poker else {}
    tags = []
    for fund in posted_funds(table_rules(table).shared_dict()):
        if fund not in have:
            tag = f"{table.name}/{fund}"[:40]
            jackpot_box_register(actor=floor, table_id=table.pk, fund=fund, box=tag,
                                 transparent=True, locked=True, beside_drop_box=True)
            tags.append(tag)
    return tags


def describe(prop: Property) -> list[dict[str, Any]]:
    out = []
    for table in GameTable.objects.filter(property=prop, name__startswith="P-").order_by("name"):
        seats = Seat.objects.filter(table=table).order_by("seat")
        out.append({"table": table.name, "id": str(table.pk), "game": table.game,
                    "seats": [(s.seat, s.stack_cents) for s in seats]})
    return out
