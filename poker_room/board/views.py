"""The room board page and its data: for the poker room's screens and the supervisor's
desk (637a.9(c)). Opened by staff logged in with a room role, or by a screen with its
display key (``ROOM_BOARD_DISPLAY_KEYS``), which shows this board and nothing else."""

from __future__ import annotations

from casino.roles import Role
from casino.screens import board_views
from poker_room.board.selectors import room_board

#: staff who may open the board with their own login
BOARD_ROLES = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE,
               Role.FINANCE, Role.SECURITY)

board_page, board_data = board_views(
    keys_setting="ROOM_BOARD_DISPLAY_KEYS", roles=BOARD_ROLES, what="room board",
    login_next="/poker/board/", template="poker_room/board.html",
    refused_template="poker_room/board_refused.html", data=room_board)
