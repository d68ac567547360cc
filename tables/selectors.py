"""Reads of the tables app."""

from __future__ import annotations

from datetime import date
from collections.abc import Iterable
from typing import Any

from django.db.models import Prefetch, QuerySet

from casino.eventstore.digests import digest_for_gaming_day
from casino.models import Property
from tables.domain.decks import expected_deck
from tables.models import (
    Deck,
    DeckState,
    DeckStep,
    GameTable,
    RulesState,
    RulesSubmission,
    TableResult,
)

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
        # The signed digest of the log that anchors this day (DESIGN §3), so that the
        # printed report carries a copy of it out of the building.
        "digest": digest_for_gaming_day(gaming_day, time_zone=property.time_zone,
                                        start_hour=property.gaming_day_start_hour),
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


# --- rules notices ---------------------------------------------------------------------

_NOTICE = "rules_notice_found"  # where with_rules_notices puts each table's notice
_NOTICE_FIELDS = ("id", "property_id", "game", "version_number", "state", "took_effect_at",
                  "ended_at", "withdrawal_requested_by", "withdrawal_reason",
                  "withdrawal_requested_at", "withdrawn_by")


def _last_in_effect(pairs: set[tuple[Any, str]]) -> dict[tuple[Any, str], RulesSubmission]:
    """Per (property, game): the version that took effect last (the one in effect, or the
    last to leave effect). One query for all the pairs."""
    if not pairs:
        return {}
    rows = (RulesSubmission.objects
            .filter(property_id__in={p for p, _ in pairs}, game__in={g for _, g in pairs},
                    took_effect_at__isnull=False)
            .only(*_NOTICE_FIELDS).order_by("-took_effect_at", "-version_number"))
    last: dict[tuple[Any, str], RulesSubmission] = {}
    for rs in rows:
        last.setdefault((rs.property_id, rs.game), rs)
    return last


def notice_of(rs: RulesSubmission | None) -> dict[str, Any] | None:
    """What a table of the game must be told about its rules, given the version that took
    effect last: that a withdrawal of the version in effect awaits a second compliance
    officer (``rules_withdrawal_pending``), or that the last version in effect was
    withdrawn and none has taken its place (``rules_withdrawn``: rounds are refused).
    None otherwise."""
    if rs is None:
        return None
    if rs.withdrawal_pending:
        code = "rules_withdrawal_pending"
    elif rs.state == RulesState.WITHDRAWN:
        code = "rules_withdrawn"
    else:
        return None
    withdrawn = rs.state == RulesState.WITHDRAWN
    return {"code": code, "rules_submission": rs.pk, "version_number": rs.version_number,
            "reason": rs.withdrawal_reason, "requested_by": rs.withdrawal_requested_by,
            "requested_at": rs.withdrawal_requested_at,
            "confirmed_by": rs.withdrawn_by if withdrawn else None,
            "withdrawn_at": rs.ended_at if withdrawn else None}


def with_rules_notices(tables: Iterable[GameTable]) -> list[GameTable]:
    """``tables`` (a page, already read) each with its :func:`rules_notice` found: one
    query for the page rather than one per table. Reads only: a version whose effective
    time has come but that no one has put in effect yet is not activated here."""
    tables = list(tables)
    last = _last_in_effect({(t.property_id, t.game) for t in tables})
    for t in tables:
        setattr(t, _NOTICE, notice_of(last.get((t.property_id, t.game))))
    return tables


def rules_notice(table: GameTable) -> dict[str, Any] | None:
    """The table's notice about its game's rules (:func:`notice_of`), as
    :func:`with_rules_notices` found it, else read now."""
    if not hasattr(table, _NOTICE):
        with_rules_notices([table])
    return getattr(table, _NOTICE)
