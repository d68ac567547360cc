"""Finance's commands (one function per command, keyword-only, each naming its roles)."""

from finance.services.close import gaming_day_close, gaming_days_close_due, open_items
from finance.services.common import (
    AT_TABLE,
    CAGE,
    COUNTING,
    DEALING,
    FINANCE,
    FLOOR,
    READERS,
    REMOVING,
    RUNNERS,
    SIGNING_OFF,
    VOIDING,
)
from finance.services.drop import drop_accept, drop_count, drop_count_sign, drop_remove
from finance.services.exceptions import variance_explain, variance_sign_off
from finance.services.tray import (
    chips_sell,
    inventory_record,
    inventory_sign,
    slip_carry,
    slip_complete,
    slip_prepare,
    slip_request,
    slip_void,
)

__all__ = [
    "AT_TABLE", "CAGE", "COUNTING", "DEALING", "FINANCE", "FLOOR", "READERS", "REMOVING",
    "RUNNERS", "SIGNING_OFF", "VOIDING", "chips_sell", "drop_accept", "drop_count",
    "drop_count_sign", "drop_remove", "gaming_day_close", "gaming_days_close_due",
    "inventory_record", "inventory_sign", "open_items", "slip_carry", "slip_complete",
    "slip_prepare", "slip_request", "slip_void", "variance_explain", "variance_sign_off",
]
