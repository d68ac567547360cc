"""What finance adds to the staff console (console.registry): the "waiting for me" lists in
console_tasks, the pages and printables in console_pages."""

from finance import console_pages, console_tasks  # noqa: F401  (they register on import)
from finance import console_history  # noqa: F401  (its event types' sentences register on import)
from finance import console_table_panel  # noqa: F401  (today's tray and drop on a table's page)
from console.forms import denominations  # noqa: E402, I001
from finance.domain.table_day import CASH_DENOMINATIONS, CHIP_DENOMINATIONS  # noqa: E402

# the console's count boxes, one per denomination (console.forms: pieces by denomination)
denominations(pieces=CHIP_DENOMINATIONS, chips=CHIP_DENOMINATIONS, cash=CASH_DENOMINATIONS)
