"""The poker floor in the staff console: its pages, tasks and history sentences register
themselves (console.apps imports this module)."""

from __future__ import annotations

# each registers on import: sentences, pages, the "waiting for me" lists and the nav item
from poker_floor import console_history, console_pages, console_tasks  # noqa: F401
