"""How a poker buy-in or add-on was paid, and where a cash one is recorded as a chip sale.

A player pays for table stakes (637a.8(b)(2)-(3)) either with cash at the table, which the
dealer exchanges for chips from the tray and drops in the drop box (a chip sale: finance's
expected drop counts it), or with chips brought from the cage or another table (no sale:
nothing leaves the tray, nothing goes in the box). The seating command records which, so
the dealer records one thing, not a seat and then a sale.

Finance keeps the table's day (its tray, its drop box) and sits above this app: it fills
in :func:`register` from its ``AppConfig.ready()`` with the function that records the
sale in the table day's stream, which the seating command calls in its own transaction
(DESIGN §2: a lower app learns of a higher one through a registry, never an import).
"""

from __future__ import annotations

from typing import Any, Protocol

CASH = "cash"
CHIPS = "chips"
#: what a buy-in or add-on may be paid with
PAID_WITH = (CASH, CHIPS)
# There is no default: a client that left it out would record a cash buy-in as no sale
# (the defect of issue 22) or chips brought to the table as one; the dealer says which.


class SaleRecorder(Protocol):
    def __call__(self, *, actor: Any, table_id: Any, amount_cents: int, seat: int,
                 paid_for: str, role: str) -> None: ...


_recorder: SaleRecorder | None = None


def register(recorder: SaleRecorder) -> None:
    """Finance's: record a cash buy-in's chip sale (in the caller's transaction)."""
    global _recorder
    _recorder = recorder


def record_cash_sale(*, actor: Any, table_id: Any, amount_cents: int, seat: int,
                     paid_for: str, role: str) -> None:
    """The chips sold for a cash buy-in (``paid_for`` "buy_in") or add-on ("add_on"), in
    the table day's record. Without finance installed there is nowhere to keep it: an
    error, never a sale silently lost."""
    if _recorder is None:
        raise RuntimeError("no chip sale recorder registered (the finance app records "
                           "cash buy-ins)")
    _recorder(actor=actor, table_id=table_id, amount_cents=amount_cents, seat=seat,
              paid_for=paid_for, role=role)
