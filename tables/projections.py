"""The inline projection behind every read model of the tables app.

It applies each event's step to its row by calling the model's django-fsm transition, so
the allowed paths are checked once more as the event is applied, and a rebuild from the
events reproduces the rows exactly.

Rows are written with ``QuerySet.update`` and ``create``: on PostgreSQL an append made
outside a transaction runs the projections in pipeline mode, where row counts (which
``Model.save`` relies on) are not known yet. What a hand's or a round's start and its
close write (every command of a table's play, issue 25) goes as plain SQL on the
append's own cursor (:func:`write_unread`): no ORM query built per event, no result read.
"""

from __future__ import annotations

import uuid
import weakref
from collections.abc import Callable, Sequence
from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, connection, models

from casino.domain.errors import ConflictError
from casino.eventstore.projections import Projection, register
from casino.eventstore.store import RecordedEvent, hot_cursor
from casino.models import Property
from tables.domain.banked import rebuild
from tables.domain.banked.snapshot import state_to_snapshot
from tables.domain.catalogue import BANKED_GAMES
from tables.models import (
    Deck,
    DeckState,
    DeckStep,
    GameTable,
    Round,
    RoundState,
    RulesState,
    RulesSubmission,
    TableResult,
)

STREAM_TYPES = ("rules_submission", "table", "deck", "round")


def _when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _save(obj: models.Model, version: int) -> None:
    obj.stream_version = version
    fields = {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields
              if not f.primary_key}
    type(obj).objects.filter(pk=obj.pk).update(**fields)


def _uuid_of(stream_id: str) -> str:
    return stream_id.split("-", 1)[1]


def write_unread(sql: str, params: Sequence[Any]) -> None:
    """One statement whose result nobody reads, on the append's own cursor. In the command
    runner's pipeline (PostgreSQL) it rides with the appends and the COMMIT: reading a row
    count, a RETURNING or a row would stop the pipeline for the server's answer. Here and in
    a rebuild it is the same statement, so the rows are the same."""
    if connection.vendor == "postgresql":
        _kept_cursor().execute(sql, params)
        return
    with hot_cursor() as cur:
        cur.execute(sql, params)


#: PostgreSQL: the connection -> the cursor its projections write with (see _kept_cursor)
_CURSORS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def _kept_cursor() -> Any:
    """:func:`hot_cursor`, one kept per connection: a psycopg cursor copies its
    connection's adapters when it is made, which costs about as much CPU as sending a
    statement, and a hand's last action writes seven. It keeps no state on the server
    (no name, nothing prepared), so it is safe to use again in any transaction; a new
    connection (Django reconnected) gets a new one."""
    connection.ensure_connection()
    raw = connection.connection
    cur = _CURSORS.get(raw)
    if cur is None or cur.closed:
        cur = _CURSORS[raw] = hot_cursor()
    return cur


def db_value(model: type[models.Model], name: str, value: Any) -> Any:
    """``value`` as the database stores ``model``'s field ``name`` (SQLite keeps a UUID as
    32 hex characters, a datetime as text)."""
    return model._meta.get_field(name).get_db_prep_save(value, connection)


def _insert(obj: models.Model) -> None:
    """``obj`` inserted as ``save(force_insert=True)`` would (every concrete field, its
    ``pre_save``), without reading anything back."""
    fields = obj._meta.concrete_fields
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    write_unread(f"INSERT INTO {connection.ops.quote_name(obj._meta.db_table)} ({columns}) "
                 f"VALUES ({', '.join(['%s'] * len(fields))})",
                 [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields])


# --- Rules Submissions -----------------------------------------------------------------

def _rules(e: RecordedEvent) -> RulesSubmission:
    return RulesSubmission.objects.get(pk=_uuid_of(e.stream_id))


def rules_drafted(e: RecordedEvent) -> None:
    d = e.data
    RulesSubmission.objects.create(
        id=_uuid_of(e.stream_id), property=Property.objects.get(licence_number=d["property"]),
        game=d["game"], version_number=d["version_number"], options=d["options"],
        notes=d.get("notes", ""), drafted_by=e.metadata["actor"], created_at=e.recorded_at,
        stream_version=e.version)


def rules_step(transition: str, **fields: Callable[[RecordedEvent], Any]
               ) -> Callable[[RecordedEvent], None]:
    def apply(e: RecordedEvent) -> None:
        rs = _rules(e)
        getattr(rs, transition)()
        for name, value in fields.items():
            setattr(rs, name, value(e))
        _save(rs, e.version)
    return apply


def _revised_by(e: RecordedEvent) -> list[str]:
    previous = _rules(e).revised_by
    return sorted(set(previous) | {e.metadata["actor"]})


def _superseded_by(e: RecordedEvent) -> RulesSubmission | None:
    by = e.data.get("superseded_by")
    return RulesSubmission.objects.get(pk=by) if by else None


_NO_REQUEST: dict[str, Callable[[RecordedEvent], Any]] = {
    "withdrawal_requested_by": lambda e: "", "withdrawal_reason": lambda e: "",
    "withdrawal_requested_at": lambda e: None}


def rules_withdrawn(e: RecordedEvent) -> None:
    """A version leaves for good. In effect, it leaves by the second officer's confirmation
    of a request (or, in events recorded before the two-step withdrawal, by one officer);
    any other version by one officer's withdrawal. The event names who asked, why and when;
    an event without them was asked and confirmed by its actor at its time."""
    rs = _rules(e)
    if rs.state == RulesState.IN_EFFECT:
        rs.confirm_withdrawal()
    else:
        rs.withdraw()
    d, actor = e.data, e.metadata["actor"]
    rs.withdrawal_reason = d.get("reason", "")
    rs.withdrawal_requested_by = d.get("requested_by") or actor
    rs.withdrawal_requested_at = _when(d.get("requested_at")) or e.recorded_at
    rs.withdrawn_by = actor
    rs.ended_at = e.recorded_at
    _save(rs, e.version)


# --- tables ----------------------------------------------------------------------------

def _table(e: RecordedEvent) -> GameTable:
    return GameTable.objects.get(pk=_uuid_of(e.stream_id))


def table_configured(e: RecordedEvent) -> None:
    d = e.data
    GameTable.objects.create(
        id=_uuid_of(e.stream_id), property=Property.objects.get(licence_number=d["property"]),
        name=d["name"], game=d["game"], positions=d["positions"],
        dealing_method=d["dealing_method"], shuffler=d["shuffler"], created_at=e.recorded_at,
        stream_version=e.version)


def table_step(transition: str | None, **fields: Callable[[RecordedEvent], Any]
               ) -> Callable[[RecordedEvent], None]:
    def apply(e: RecordedEvent) -> None:
        t = _table(e)
        if transition:
            getattr(t, transition)()
        for name, value in fields.items():
            setattr(t, name, value(e))
        _save(t, e.version)
    return apply


def table_reconfigured(e: RecordedEvent) -> None:
    t = _table(e)
    t.reconfigure()
    for name in ("name", "positions", "dealing_method", "shuffler"):
        if name in e.data:
            setattr(t, name, e.data[name])
    _save(t, e.version)


def _equipment(flag: bool) -> Callable[[RecordedEvent], None]:
    def apply(e: RecordedEvent) -> None:
        t = _table(e)
        setattr(t, f"{e.data['device']}_out_of_order", flag)
        _save(t, e.version)
    return apply


# --- decks -----------------------------------------------------------------------------

def _deck(e: RecordedEvent) -> Deck:
    return Deck.objects.get(pk=_uuid_of(e.stream_id))


def _log_step(deck: Deck, e: RecordedEvent, step: str, details: dict | None = None) -> None:
    m = e.metadata
    day = m.get("gaming_day")
    DeckStep.objects.create(
        deck=deck, property_id=deck.property_id, step=step,
        gaming_day=date.fromisoformat(day) if day else e.recorded_at.date(), at=e.recorded_at,
        actor=m.get("actor", ""), role=m.get("role", ""),
        credential_number=m.get("credential_number", ""), details=details or {},
        stream_version=e.version)


def deck_received(e: RecordedEvent) -> None:
    d = e.data
    deck = Deck.objects.create(
        id=_uuid_of(e.stream_id), property=Property.objects.get(licence_number=d["property"]),
        table_id=d.get("table_id"), back_colour=d["back_colour"], batch=d["batch"],
        preinspected=d["preinspected_preshuffled"],
        # 589.4(e): a preinspected, preshuffled deck skips inspection, spread and shuffle;
        # it still waits for a cut where the chapter asks for one (589.5(c)(2)).
        state=(DeckState.RECEIVED if not d["preinspected_preshuffled"]
               else DeckState.SHUFFLED if d.get("cut_required", True) else DeckState.READY),
        cut_required=d.get("cut_required", True), received_at=e.recorded_at,
        stream_version=e.version)
    _log_step(deck, e, "received", {k: d[k] for k in ("back_colour", "batch",
                                                      "preinspected_preshuffled")})


def deck_step(step: str, transition: str | None = None,
              **fields: Callable[[RecordedEvent], Any]) -> Callable[[RecordedEvent], None]:
    def apply(e: RecordedEvent) -> None:
        deck = _deck(e)
        if transition:
            getattr(deck, transition)()
        for name, value in fields.items():
            setattr(deck, name, value(e))
        _save(deck, e.version)
        _log_step(deck, e, step, dict(e.data))
    return apply


def deck_shuffled(e: RecordedEvent) -> None:
    deck = _deck(e)
    deck.shuffle()
    deck.cut_required = e.data["cut_required"]
    if not deck.cut_required:
        deck.make_ready()
    _save(deck, e.version)
    _log_step(deck, e, "shuffled", dict(e.data))


def deck_inspection_verified(e: RecordedEvent) -> None:
    deck = _deck(e)
    if e.data["accepted"]:
        deck.verify()  # a rejected deck is removed by the DeckRemoved that follows
    _save(deck, e.version)
    _log_step(deck, e, "inspection-verified" if e.data["accepted"] else "inspection-rejected",
              dict(e.data))


def deck_dealt_round(e: RecordedEvent) -> None:
    # Not an inventory step: one per round would drown the report.
    deck = db_value(Deck, "id", uuid.UUID(_uuid_of(e.stream_id)))
    write_unread("UPDATE tables_deck SET rounds_dealt = rounds_dealt + 1, stream_version = %s "
                 "WHERE id = %s", [e.version, deck])


def deck_counted(e: RecordedEvent) -> None:
    deck = _deck(e)
    if e.data["correct"]:
        deck.rounds_since_count = 0
    _save(deck, e.version)
    _log_step(deck, e, "counted" if e.type == "DeckCounted" else "shuffler-counted",
              dict(e.data))


# --- rounds ----------------------------------------------------------------------------

def round_row(e: RecordedEvent) -> Round:
    """The round row a ``RoundOpened`` makes (not saved): what the projection inserts and
    what round_open answers, from one mapping. A house-banked round's row starts with its
    snapshot (the domain state after the opening, :mod:`casino.command_runner`)."""
    d = e.data
    snapshot = None
    if "options" in d and d.get("game") in BANKED_GAMES:
        snapshot = state_to_snapshot(rebuild([{"type": e.type, "data": d}]))
    return Round(
        id=uuid.UUID(_uuid_of(e.stream_id)), table_id=uuid.UUID(d["table_id"]),
        number=d["number"], deck_id=uuid.UUID(d["deck_id"]),
        rules_id=uuid.UUID(d["rules_submission_id"]),
        rules_version_number=d["rules_version_number"], dealing_method=d["dealing_method"],
        opened_at=e.recorded_at, stream_version=e.version, snapshot=snapshot,
        snapshot_version=e.version if snapshot is not None else 0)


def round_opened(e: RecordedEvent) -> None:
    d = e.data
    rnd = round_row(e)
    _insert(rnd)
    table = db_value(GameTable, "id", rnd.table_id)
    write_unread("UPDATE tables_gametable SET current_round_id = %s, last_deck_id = %s, "
                 "rounds_played = %s WHERE id = %s",
                 [db_value(GameTable, "current_round", rnd.id),
                  db_value(GameTable, "last_deck", rnd.deck_id), d["number"], table])
    # 637a.7(e)(4)(i), 589.11(g): rounds of play at the table, whichever deck dealt them.
    write_unread("UPDATE tables_deck SET rounds_since_count = rounds_since_count + 1 "
                 "WHERE table_id = %s AND state = %s", [table, DeckState.IN_PLAY.value])


#: The round's OPEN → CLOSED transition as one statement that reads nothing: a round not
#: open gets no state (NULL), which its NOT NULL column refuses, so the statement fails by
#: itself and the whole command with it, inside the runner's pipeline too, where no row
#: count can be read before COMMIT. Every command that closes a round refused a closed one
#: on its locked read already (hand_closed, round_closed); this keeps the read model from
#: ever closing a round twice (a second RoundClosed appended past the services, a stream
#: replayed by rebuild_projections). A closed round keeps its first closed_at.
_CLOSE_ROUND = ("UPDATE tables_round SET state = CASE WHEN state = %s THEN %s END, "
                "closed_at = %s, stream_version = %s WHERE id = %s")


def _not_open(exc: Exception) -> bool:
    """The close refused by the state's NOT NULL column (SQLite's IntegrityError through
    Django's cursor, psycopg's not_null_violation on the append's own cursor)."""
    return isinstance(exc, IntegrityError) or getattr(exc, "sqlstate", None) == "23502"


def round_closed(e: RecordedEvent) -> None:
    round_id = uuid.UUID(_uuid_of(e.stream_id))
    round_key = db_value(Round, "id", round_id)
    try:
        write_unread(_CLOSE_ROUND, [RoundState.OPEN.value, RoundState.CLOSED.value,
                                    db_value(Round, "closed_at", e.recorded_at), e.version,
                                    round_key])
    except Exception as exc:
        # outside a pipeline the refusal is known here (a pipeline's, at its COMMIT)
        if _not_open(exc):
            raise ConflictError("the round is already closed", code="round_closed") from exc
        raise
    # The table whose round this is: only it can point at the round (round_opened).
    write_unread("UPDATE tables_gametable SET current_round_id = NULL "
                 "WHERE current_round_id = %s", [db_value(GameTable, "current_round", round_id)])
    if "by_wager" in e.data:  # a house-banked round: its totals go to the table results
        # Every service records the table with the round's events; an event without it
        # (recorded before) is looked up.
        table_id = e.metadata.get("table") or Round.objects.filter(pk=round_id).values_list(
            "table_id", flat=True).get()
        _add_results(uuid.UUID(str(table_id)), e)


_RESULTS_UPSERT = (
    "INSERT INTO tables_tableresult (property_id, table_id, gaming_day, wager, wagered, "
    "returned, house_win, rounds) VALUES %s "
    "ON CONFLICT (table_id, gaming_day, wager) DO UPDATE SET "
    "wagered = tables_tableresult.wagered + excluded.wagered, "
    "returned = tables_tableresult.returned + excluded.returned, "
    "house_win = tables_tableresult.house_win + excluded.house_win, "
    "rounds = tables_tableresult.rounds + 1")
_RESULTS_ROW = ("((SELECT property_id FROM tables_gametable WHERE id = %s), %s, %s, %s, %s, "
                "%s, %s, %s)")


def _add_results(table_id: uuid.UUID, e: RecordedEvent) -> None:
    # RoundClosed carries the domain's totals per wager type, void rounds included (all
    # returned), so earlier settlements undone by a void are never counted. One upsert
    # for every wager type of the round (the row of a table, day and wager is unique:
    # constraint table_result_once).
    d = e.data
    day = connection.ops.adapt_datefield_value(date.fromisoformat(e.metadata["gaming_day"]))
    table_key = TableResult._meta.get_field("table").get_db_prep_value(table_id, connection)
    rows = {w: (t["wagered"], t["returned"]) for w, t in d["by_wager"].items()}
    rows[TableResult.ALL] = (d["wagered"], d["returned"])
    params: list[Any] = []
    for wager, (wagered, returned) in rows.items():
        params += [table_key, table_key, day, wager, wagered, returned, wagered - returned, 1]
    write_unread(_RESULTS_UPSERT % ", ".join([_RESULTS_ROW] * len(rows)), params)


_now = lambda e: e.recorded_at  # noqa: E731

HANDLERS: dict[str, Callable[[RecordedEvent], None]] = {
    "RulesSubmissionDrafted": rules_drafted,
    "RulesSubmissionRevised": rules_step("revise", options=lambda e: e.data["options"],
                                         notes=lambda e: e.data.get("notes", ""),
                                         revised_by=_revised_by),
    "RulesSubmissionSubmitted": rules_step("submit",
                                           submitted_by=lambda e: e.metadata["actor"]),
    "RulesSubmissionReturned": rules_step("return_to_draft", submitted_by=lambda e: ""),
    "RulesSubmissionApproved": rules_step("approve", approved_by=lambda e: e.metadata["actor"],
                                          effective_at=lambda e: _when(e.data["effective_at"])),
    "RulesSubmissionTookEffect": rules_step("take_effect",
                                            took_effect_at=lambda e: _when(e.data["at"])),
    # Superseding a version ends any withdrawal asked of it.
    "RulesSubmissionSuperseded": rules_step("supersede", ended_at=lambda e: _when(e.data["at"]),
                                            superseded_by=_superseded_by, **_NO_REQUEST),
    "RulesSubmissionWithdrawalRequested": rules_step(
        "request_withdrawal", withdrawal_requested_by=lambda e: e.metadata["actor"],
        withdrawal_reason=lambda e: e.data["reason"], withdrawal_requested_at=_now),
    "RulesSubmissionWithdrawalCancelled": rules_step("cancel_withdrawal", **_NO_REQUEST),
    "RulesSubmissionWithdrawn": rules_withdrawn,
    "TableConfigured": table_configured,
    "TableReconfigured": table_reconfigured,
    "TableOpened": table_step("open"),
    "TableClosed": table_step("close"),
    "DealerAssigned": table_step(None, dealer_id=lambda e: e.data["dealer_user_id"]),
    "EquipmentOutOfOrder": _equipment(True),
    "EquipmentRestored": _equipment(False),
    "DeckReceived": deck_received,
    "DeckInspected": deck_step("inspected", "inspect", defects=lambda e: e.data["defects"]),
    "DeckInspectionVerified": deck_inspection_verified,
    "DeckSpread": deck_step("spread", "spread"),
    "DeckWashed": deck_step("washed", "wash"),
    "DeckShuffled": deck_shuffled,
    "DeckShuffleJammed": deck_step("shuffle-jammed", "jam"),  # 637a.18(q)
    "DeckCut": deck_step("cut", "make_ready"),
    "DeckRecutOrdered": deck_step("recut-ordered", "order_recut",
                                  cut_required=lambda e: True),
    "DeckPutInPlay": deck_step(
        "in-play", "put_in_play", table_id=lambda e: e.data["table_id"],
        entered_play_at=lambda e: _when(e.data["entered_play_at"]),
        deadline_at=lambda e: _when(e.data["deadline_at"]),
        limit_basis=lambda e: e.data["limit_basis"]),
    "DeckDeadlineChanged": deck_step(
        "deadline-changed", None, deadline_at=lambda e: _when(e.data["deadline_at"]),
        limit_basis=lambda e: e.data["limit_basis"], change_warned=lambda e: False),
    "DeckDealtRound": deck_dealt_round,
    "DeckCounted": deck_counted,
    "DeckShufflerCounted": deck_counted,
    "DeckCountVerified": deck_step("count-verified"),
    "DeckChangeWarning": deck_step("change-warning", None, change_warned=lambda e: True),
    "DeckChangeDue": deck_step("change-due", None, change_due=lambda e: True),
    "DeckRemoved": deck_step("removed", "remove",
                             removal_reason=lambda e: e.data["reason"]),
    "DeckDestroyed": deck_step("destroyed", "destroy"),
    "DeckCancelled": deck_step("cancelled", "cancel"),
    "RoundOpened": round_opened,
    "RoundClosed": round_closed,
    # A house-banked round's wagers, cards, decisions and settlements change only its
    # snapshot and stream version, which the command runner writes with the events
    # (casino.command_runner; rebuild_projections rebuilds them with the snapshots).
}


@register
class TablesProjection(Projection):
    """Rules Submissions, tables, decks, rounds, the card inventory log and the table
    results of house-banked rounds."""

    name = "tables"
    mode = "inline"
    event_types = frozenset(HANDLERS)

    def apply(self, event: RecordedEvent) -> None:
        HANDLERS[event.type](event)

    def reset(self) -> None:
        # Children first: rows refer to one another.
        GameTable.objects.update(current_round=None, last_deck=None)
        TableResult.objects.all().delete()
        DeckStep.objects.all().delete()
        Round.objects.all().delete()
        Deck.objects.all().delete()
        GameTable.objects.all().delete()
        RulesSubmission.objects.update(superseded_by=None)
        RulesSubmission.objects.all().delete()
