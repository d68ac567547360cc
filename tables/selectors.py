"""Reads of the tables app."""

from __future__ import annotations

from datetime import date
from typing import Any

from casino.models import Property
from tables.models import Deck, DeckState, DeckStep, TableResult

REMOVAL_STEPS = ("removed",)
DISPOSAL_STEPS = ("destroyed", "cancelled")


def card_inventory(property: Property, gaming_day: date) -> dict[str, Any]:
    """The card inventory of one gaming day: what was received, what is in play, what was
    removed and what was destroyed or cancelled, and every signed step (who, credential,
    when)."""
    steps = list(DeckStep.objects.filter(property=property, gaming_day=gaming_day)
                 .select_related("deck", "deck__table").order_by("at", "id"))
    return {
        "gaming_day": gaming_day,
        "received": [st for st in steps if st.step == "received"],
        "in_play": list(Deck.objects.filter(property=property, state=DeckState.IN_PLAY)
                        .order_by("table__name", "entered_play_at")),
        "removed": [st for st in steps if st.step in REMOVAL_STEPS],
        "destroyed": [st for st in steps if st.step in DISPOSAL_STEPS],
        "signatures": steps,
    }


def table_results(table: Any, day: Any) -> list[Any]:
    """A table's house-banked results of one gaming day, the 'all' row last."""
    rows = list(TableResult.objects.filter(table=table, gaming_day=day))
    return sorted(rows, key=lambda r: (r.wager == TableResult.ALL, r.wager))
