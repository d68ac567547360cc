"""The demo's lists (`make run`): a Hold'em waitlist with three players waiting and an
interest list for a game no table deals, so the console's **Waitlists**, the room board
and the public live games feed have something to show. Players are listed through the
list service, as a floorperson would list them; a game that has its list already is left
as it is, so this is safe at every start."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from casino.actors import actor_of
from casino.models import Property
from poker_floor.models import Waitlist
from poker_floor.services.lists import player_list, waitlist_open

#: fictional players: initials, or a first name with an example.com address (never a
#: real person's contact)
DEMO_LISTS = {
    "holdem": [{"name": "A.D."}, {"name": "Jordan", "email": "jordan@example.com"},
               {"name": "K.M."}],
    "draw-high": [{"name": "R.T."}],
}
#: the console suggests opening another Hold'em table once three are waiting
OPEN_TABLE_AT = {"holdem": 3}


def seed_lists(prop: Property) -> list[str]:
    """Open each demo list not open yet and list its players; say what was done."""
    floor = actor_of(get_user_model().objects.get(username="demo_floorperson"))
    notes = []
    for game, players in DEMO_LISTS.items():
        if Waitlist.objects.filter(property=prop, game=game).exists():
            continue
        waitlist = waitlist_open(actor=floor, game=game,
                                 open_table_at=OPEN_TABLE_AT.get(game))
        for player in players:
            player_list(actor=floor, waitlist_id=waitlist.pk, **player)
        notes.append(f"{waitlist.name}: {len(players)} listed")
    return notes
