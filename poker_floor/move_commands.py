"""The floor's moving commands, each declared once (casino.declared): must-move games,
table changes, and opening and breaking tables by lot (issue 24, items 3 and 4). The
poker floor's API (poker_floor.api.urls) and the console's forms are made from these.

The refusal codes these commands add are given their sentences here (they join the one
catalogue, casino.refusals).
"""

from __future__ import annotations

from typing import Any

from casino.api.commands import EmptyInput
from casino.declared import declare
from casino.roles import Role
from poker_floor.api import serializers_moves as s
from poker_floor.services import moves
from poker_floor.services.common import FLOOR

W = "waitlists/<str:pk>/"

#: the codes of poker_floor.services.moves and poker_floor.domain.must_move, in words
REFUSALS = {
    "invalid_move": "That move cannot be made.",
    "no_table_stakes": "The player has no chips at the table to move with.",
    "no_must_move": "This game has no must-move tables.",
    "invalid_feeders": "Name one or more other tables of this game to feed the main table, "
                       "each once.",
    "must_move_table_full": "That seat at the main table is not free: the main table is "
                            "full or the seat is taken.",
    "must_move_nobody": "Nobody is seated at the must-move tables.",
    "not_at_feeder": "Nobody is seated at that seat of a must-move table of this game.",
    "table_not_empty": "Players are seated or called at that table already.",
    "table_empty": "Nobody is seated at that table.",
}


def _move(service: Any, input: type, output: type, route: str, url_name: str, label: str,
          summary: str, doc: str, *, roles: tuple[Role, ...] = FLOOR,
          created: bool = False) -> Any:
    # stream=None: the list's stream moves at every listing, call and page, so a form
    # carrying its version would go stale within minutes on a busy floor; the services
    # check the seats and the list under the list's lock instead.
    return declare(service=service, input=input, output=output, roles=roles,
                   path=W + route, url_name=url_name, id_arg="waitlist_id", created=created,
                   stream=None, label=label, summary=summary, doc=doc, refusals=REFUSALS)


must_move_set = _move(
    moves.must_move_set, s.MustMoveSetIn, s.MustMoveOut, "must-move/", "waitlist-must-move-set",
    "Set the must-move tables",
    "Make a table the main game, fed by must-move tables of the same game.",
    "Make a table of the list's game the main game and name the must-move tables that feed "
    "it: when a seat opens at the main game, the player seated longest at a must-move table "
    "moves to it first, then the list is offered the seat left.")
must_move_clear = _move(
    moves.must_move_clear, EmptyInput, s.MustMoveOut, "must-move/clear/",
    "waitlist-must-move-clear", "Stop the must-move game",
    "Stop a game being a must-move game.",
    "The game is no longer a must-move game: seats opening at its former main table are "
    "offered to the list.")
must_move = _move(
    moves.must_move, s.MustMoveIn, s.MovedSeatOut, "must-move/move/", "waitlist-must-move",
    "Move the player to the main game",
    "Move the player seated longest at the must-move tables to the main game.",
    "Move the player seated longest at the must-move tables, with the table stakes, to a "
    "free seat of the main game; naming another player needs a reason. The order the "
    "player was chosen from is recorded (the fairness record shows it). Not while the "
    "player is in a hand (637a.8(b)(2): stakes are not removed during a round of play).")
table_change_request = _move(
    moves.table_change_request, s.TableChangeIn, s.ChangeEntryOut, "table-changes/",
    "waitlist-table-change", "Ask for a table change",
    "List a seated player who asks for another table of the same game.",
    "A player seated at a table of the list's game asks for another table of it: listed "
    "as a table change, called before the list's players in the order asked, never to "
    "the player's own table; moved there with the table stakes.", created=True)
table_open_by_lot = _move(
    moves.table_open_by_lot, s.ByLotIn, s.OpenedByLotOut, "open-by-lot/",
    "waitlist-open-by-lot", "Open the table by lot",
    "Open a table and call the top of the list to its seats by lot.",
    "Open a table of the list's game (or take an open, empty one): the first players "
    "waiting, as many as it has seats, are drawn to its seats by lot and each is called "
    "to the seat drawn. The draw is recorded as it fell. Opening a closed table needs a "
    "floorperson (the tables' own rule).")
table_break_by_lot = _move(
    moves.table_break_by_lot, s.ByLotIn, s.BrokenByLotOut, "break-by-lot/",
    "waitlist-break-by-lot", "Break the table by lot",
    "Break a table: seat its players at the game's other tables by lot.",
    "Break a table of the list's game between hands: every player there is seated by lot "
    "at a vacant seat of the game's other open tables, moved with the table stakes; those "
    "left without a seat go first on the list and keep their stakes until called. The "
    "draw is recorded, and the table is closed (a floorperson's step, the tables' own "
    "rule).", roles=(Role.FLOORPERSON,))
