"""Reads of the tables app."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from collections.abc import Iterable
from typing import Any

from django.db.models import IntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.conf import settings
from django.utils import timezone

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


def decks_in_play(table: GameTable) -> list[Deck]:
    """The table's decks in play, oldest first (loaded by :func:`with_decks_in_play`, or
    read now)."""
    decks = getattr(table, _IN_PLAY, None)
    return list(decks) if decks is not None else list(_decks_in_play().filter(table=table))


def next_deck(table: GameTable) -> str | None:
    """The deck in play that deals the next round (the decks alternate, 589.3(b)(3),
    637a.3(a)); None when no deck is in play."""
    in_play = [str(d.pk) for d in decks_in_play(table)]
    if not in_play:
        return None
    last = str(table.last_deck_id) if table.last_deck_id else None
    return expected_deck(in_play, last) or in_play[0]


# --- rules in force --------------------------------------------------------------------

def rules_in_force(property: Any, game: str, now: datetime | None = None
                   ) -> RulesSubmission | None:
    """The Rules Submission version in force for ``game`` **as of** ``now``, read without
    appending anything (DESIGN §2, reads never write).

    It is the version IN_EFFECT, unless an APPROVED version's effective time has come and
    its timer (or the beat sweep, :func:`tables.services.timers.timers_sweep`) has not yet
    recorded it taking effect: then the newest such by version number is in force, exactly
    as the timer will shortly record (an approved version older than the one in effect is
    superseded instead, :func:`tables.services.rules._take_effect`). A withdrawn or
    superseded version is never in force; a version in effect whose withdrawal awaits a
    second officer still is. None when no version is in force.

    Signage, round_open, table_open and the tables' ``rules_notice`` all read this; only
    the timer, the sweep and an approval effective at once put a version in effect.
    """
    now = now or timezone.now()
    # The newest of the version in effect and the approved ones whose time has come: a
    # due version newer than the one in effect is in force; an older one is not (it will
    # be superseded). One query.
    return (RulesSubmission.objects
            .filter(Q(state=RulesState.IN_EFFECT)
                    | Q(state=RulesState.APPROVED, effective_at__lte=now),
                    property=property, game=game)
            .order_by("-version_number").first())


def _due_approved(pairs: set[tuple[Any, str]], now: datetime) -> dict[tuple[Any, str], int]:
    """Per (property, game): the highest version number APPROVED with its effective time
    come (in force as of now, :func:`rules_in_force`, unless older than the one in
    effect). One query for all the pairs."""
    if not pairs:
        return {}
    rows = (RulesSubmission.objects
            .filter(property_id__in={p for p, _ in pairs}, game__in={g for _, g in pairs},
                    state=RulesState.APPROVED, effective_at__lte=now)
            .values_list("property_id", "game", "version_number"))
    due: dict[tuple[Any, str], int] = {}
    for prop, game, number in rows:
        due[(prop, game)] = max(number, due.get((prop, game), 0))
    return due


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
    query for the page rather than two per table. Reads only: a version whose effective
    time has come but that no one has put in effect yet is not activated here; it is
    taken as in force (:func:`rules_in_force`), so it silences the notice of the version
    it will supersede, or of the withdrawn version it replaces."""
    tables = list(tables)
    pairs = {(t.property_id, t.game) for t in tables}
    last = _last_in_effect(pairs)
    due = _due_approved(pairs, timezone.now())
    for t in tables:
        rs = last.get((t.property_id, t.game))
        number = due.get((t.property_id, t.game))
        if number is not None and (rs is None or rs.state != RulesState.IN_EFFECT
                                   or number > rs.version_number):
            rs = None  # a due approved version is in force: nothing to tell
        setattr(t, _NOTICE, notice_of(rs))
    return tables


def rules_notice(table: GameTable) -> dict[str, Any] | None:
    """The table's notice about its game's rules (:func:`notice_of`), as
    :func:`with_rules_notices` found it, else read now."""
    if not hasattr(table, _NOTICE):
        with_rules_notices([table])
    return getattr(table, _NOTICE)


# --- what waits for someone (the console's "waiting for me", tables.console_tasks) -----
# Each reads the read models in one query for the whole property, however many tables or
# decks it has (the console's benchmark holds it to that).

def _last_step(steps: tuple[str, ...], value: str, output_field: Any = None) -> Subquery:
    """The ``value`` of a deck's newest step among ``steps`` (a correlated subquery).
    A key inside the JSON details names its type (``output_field``): SQLite's JSON
    extract gives the bare number, which a JSON field would try to parse again."""
    return Subquery(DeckStep.objects.filter(deck=OuterRef("pk"), step__in=steps)
                    .order_by("-stream_version").values(value)[:1], output_field=output_field)


def decks_to_inspect(property: Property, *, dealer_id: int | None = None) -> QuerySet:
    """Decks received at a table and not yet inspected (589.4(a), 637a.4(a)), oldest
    first; only those at the tables ``dealer_id`` is assigned to when given (a dealer
    inspects only at their own table)."""
    rows = (Deck.objects.filter(property=property, state=DeckState.RECEIVED,
                                table__isnull=False)
            .select_related("table").order_by("received_at", "id"))
    return rows if dealer_id is None else rows.filter(table__dealer_id=dealer_id)


def inspections_to_verify(property: Property) -> QuerySet:
    """Decks the dealer inspected that no floorperson has verified yet (589.4(a),
    637a.4(a)), each with who inspected it and when (``inspected_by``,
    ``inspected_at``), oldest first."""
    return (Deck.objects.filter(property=property, state=DeckState.INSPECTED,
                                table__isnull=False)
            .select_related("table")
            .annotate(inspected_by=_last_step(("inspected",), "actor"),
                      inspected_at=_last_step(("inspected",), "at"))
            .order_by("inspected_at", "id"))


_COUNT_STEPS = ("counted", "count-verified")


def counts_to_verify(property: Property) -> QuerySet:
    """Decks in play whose dealer's last count (637a.7(e)(4)) no floorperson has signed
    yet, each with who counted, when and how many cards (``counted_by``, ``counted_at``,
    ``counted_cards``), oldest count first."""
    return (Deck.objects.filter(property=property, state=DeckState.IN_PLAY,
                                table__isnull=False)
            .select_related("table")
            .annotate(last_count_step=_last_step(_COUNT_STEPS, "step"),
                      counted_by=_last_step(_COUNT_STEPS, "actor"),
                      counted_at=_last_step(_COUNT_STEPS, "at"),
                      counted_cards=_last_step(_COUNT_STEPS, "details__cards",
                                                 output_field=IntegerField()))
            .filter(last_count_step="counted")
            .order_by("counted_at", "id"))


def deck_changes_due(property: Property, now: datetime, *, dealer_id: int | None = None
                     ) -> QuerySet:
    """Decks in play whose change is due: past their time limit (589.3(c), 671a.3(c),
    579.3(c), 637a.3(c)), or within the warning before it
    (``DECK_CHANGE_WARNING_SECONDS``), or already marked by the deck timer; soonest
    deadline first. Read from ``deadline_at`` as of ``now``, so a timer message late or
    lost changes nothing here."""
    warn = timedelta(seconds=settings.DECK_CHANGE_WARNING_SECONDS)
    rows = (Deck.objects.filter(property=property, state=DeckState.IN_PLAY,
                                table__isnull=False)
            .filter(Q(deadline_at__lte=now + warn) | Q(change_warned=True)
                    | Q(change_due=True))
            .select_related("table").order_by("deadline_at", "id"))
    return rows if dealer_id is None else rows.filter(table__dealer_id=dealer_id)


def rules_awaiting_approval(property: Property) -> QuerySet:
    """Rules Submissions submitted and waiting for a second compliance officer's approval
    (601a.2), oldest first."""
    return (RulesSubmission.objects.filter(property=property, state=RulesState.SUBMITTED)
            .order_by("created_at", "id"))


def withdrawals_awaiting_confirmation(property: Property) -> QuerySet:
    """Versions in effect whose withdrawal one compliance officer asked for and no second
    has confirmed (nor anyone cancelled), oldest request first."""
    return (RulesSubmission.objects.filter(property=property, state=RulesState.IN_EFFECT)
            .exclude(withdrawal_requested_by="")
            .order_by("withdrawal_requested_at", "id"))
