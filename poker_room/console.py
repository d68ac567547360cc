"""What poker_room adds to the staff console (console.registry): the "waiting for me" lists in
console_tasks, the pages and printables in console_pages."""

from poker_room import console_pages, console_tasks  # noqa: F401  (they register on import)
from poker_room import console_history  # noqa: F401  (its event types' sentences register on import)
