"""The poker floor's list and call commands, each declared once (casino.declared): the API
operation, the API reference and the console form are made from these. The moves'
commands are :mod:`poker_floor.move_commands`'.

A list's commands carry no stream version in their console form (``stream=None``): the
list's stream moves at every player added, call made and call answered, so a form opened
a minute ago would go stale during any busy hour; the services refuse what the list's
present state does not allow (``already_listed``, ``seat_already_offered``,
``call_already_answered`` ...) with nothing recorded, under the list's lock.
"""

from __future__ import annotations

from typing import Any

from casino.declared import declare
from poker_floor.api import serializers as s
from poker_floor.services import calls, lists
from poker_floor.services.common import FLOOR, SEATING

W = "waitlists/<str:pk>/"
C = "calls/<str:pk>/"


def _list(service: Any, input: type, output: type, route: str, url_name: str, label: str,
          summary: str, doc: str, *, created: bool = False, roles: tuple[Any, ...] = FLOOR,
          id_arg: str | None = "waitlist_id") -> Any:
    return declare(service=service, input=input, output=output, roles=roles, path=route,
                   url_name=url_name, id_arg=id_arg, created=created, stream=None,
                   label=label, summary=summary, doc=doc)


waitlist_open = _list(
    lists.waitlist_open, s.WaitlistOpenIn, s.WaitlistRowOut, "waitlists/open/",
    "waitlist-open", "Open the list",
    "Open the list of a poker game at this property.",
    "Open a poker game's list: one per game, named by the stakes of its Rules Submission "
    "in force, as the room announces its games and limits (637a.9(c)). It is a waitlist while a table of the game is open and an "
    "interest list otherwise.", created=True, id_arg=None)
waitlist_configure = _list(
    lists.waitlist_configure, s.WaitlistConfigureIn, s.WaitlistRowOut, W + "configure/",
    "waitlist-configure", "Save the list's setting",
    "Set how many waiting players make the console suggest opening a table.",
    "The number of waiting players at which the console suggests opening another table "
    "of the game (0: never).")
player_list = _list(
    lists.player_list, s.PlayerListIn, s.ListEntryOut, W + "players/", "waitlist-player-list",
    "Add the player to the list",
    "Add a player to a list, with a phone or e-mail for paging.",
    "Add a player at the end of the list (table changes and a broken table's players are "
    "called first): the name or initials, and a phone or e-mail for paging if the player "
    "gives one. The details are sealed in the event under a key of the entry's own and "
    "erased after the retention period. 409 already_listed for a player on the list "
    "already.", created=True)
player_delist = _list(
    lists.player_delist, s.PlayerDelistIn, s.ListEntryOut, W + "players/remove/",
    "waitlist-player-delist", "Take the player off the list",
    "Take a player off a list, saying why.",
    "Take a player off the list with the reason (left the room, asked to be taken off). "
    "A player with an open call is refused (409 entry_called): cancel the call first.")
call_next = _list(
    calls.call_next, s.CallNextIn, s.FloorCallOut, W + "calls/next/", "waitlist-call-next",
    "Call the next player",
    "Offer a vacant seat to the first eligible player on the list.",
    "Offer a vacant seat at an open table of the list's game to the first eligible player "
    "(table changes and a broken table's players first; a table change never at its own "
    "table). The player is paged and has the Rules' call minutes to take it. 409 "
    "list_empty when nobody can be offered it; table_not_in_game for a table of another "
    "game.", created=True)
call_player = _list(
    calls.call_player, s.CallPlayerIn, s.FloorCallOut, W + "calls/", "waitlist-call-player",
    "Call this player",
    "Offer a vacant seat to one player on the list.",
    "Offer a vacant seat to a chosen player. Calling someone other than the first eligible "
    "player passes over those ahead: a reason is required (reason_required), and the "
    "players passed over are recorded with it for the fairness record.", created=True)
call_seat = _list(
    calls.call_seat, s.CallSeatIn, s.FloorCallOut, C + "seat/", "call-seat",
    "Seat the called player",
    "Seat a called player at the seat offered.",
    "The called player takes the seat (637a.8(a)): seated through the seat service with the "
    "buy-in as at any seat, or, for a table change, moved with the table stakes. The "
    "player leaves the list unless stays_listed: then the entry becomes a table change "
    "from the seat just taken (never offered that table).", roles=SEATING, id_arg="call_id")
call_timeout = _list(
    calls.call_timeout, s.CallTimeoutIn, s.FloorCallOut, C + "timeout/", "call-timeout",
    "Record that the player did not come",
    "Time out a call whose player did not come in time.",
    "The called player did not come within the Rules' call minutes: moved down the posted "
    "number of places, or taken off the list at the last allowed miss, and the seat is "
    "offered to the next player. 409 call_not_due before the deadline, "
    "call_already_answered once answered.", id_arg="call_id")
call_cancel = _list(
    calls.call_cancel, s.CallCancelIn, s.FloorCallOut, C + "cancel/", "call-cancel",
    "Withdraw the call",
    "Withdraw an open call, saying why.",
    "Withdraw an open call with the reason; the player keeps their place on the list.",
    id_arg="call_id")
