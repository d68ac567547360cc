"""Reads of the tables app."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import Prefetch, QuerySet

from casino.models import Property
from tables.domain.decks import expected_deck
from tables.models import Deck, DeckState, DeckStep, GameTable, TableResult

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


_IN_PLAY = "decks_in_play"  # where with_decks_in_play puts them


def _decks_in_play() -> QuerySet:
    return Deck.objects.filter(state=DeckState.IN_PLAY).order_by("entered_play_at")


def with_decks_in_play(tables: QuerySet) -> QuerySet:
    """``tables`` with their dealer and decks in play loaded for :func:`next_deck`: two
    queries for a page of tables rather than one per table."""
    return tables.select_related("dealer").prefetch_related(
        Prefetch("decks", queryset=_decks_in_play(), to_attr=_IN_PLAY))


def next_deck(table: GameTable) -> str | None:
    """The deck in play that deals the next round (the decks alternate, 589.3(b)(3),
    637a.3(a)); None when no deck is in play."""
    decks = getattr(table, _IN_PLAY, None)
    if decks is None:
        decks = _decks_in_play().filter(table=table)
    in_play = [str(d.pk) for d in decks]
    if not in_play:
        return None
    last = str(table.last_deck_id) if table.last_deck_id else None
    return expected_deck(in_play, last) or in_play[0]
