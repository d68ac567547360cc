"""poker_room's console pages (console.registry.page): the poker room floor
(poker_room.console_floor; its seats also on a poker table's page, a tables.console_panels
panel), a hand's history in plain words and the poker dispute calculator
(poker_room.console_hands)."""

from console.registry import NavItem, nav, page
from poker_room.console_floor import floor_page, seat_page, seats_panel
from poker_room.console_hands import hand_page, poker_calculator
from poker_room.console_removals import removals_page
from poker_room.services.disputes import DISPUTE_ROLES
from tables.console_panels import register_panel

page("poker/", floor_page, name="poker_floor")
page("poker/tables/<uuid:pk>/seats/<int:n>/", seat_page, name="poker_seat")
page("poker/hands/<uuid:pk>/", hand_page, name="poker_hand")
page("disputes/poker/", poker_calculator, name="poker_calculator")
page("poker/removals/", removals_page, name="poker_removals")
register_panel(seats_panel)

# the floor's own nav item is poker_room.console_tasks's "Poker floor" (with its badge)
nav(NavItem(group="Poker room", label="Dispute calculator (poker)",
            url="/console/disputes/poker/", roles=DISPUTE_ROLES, order=80))
