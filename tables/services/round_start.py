"""Starting a round on the command runner (DESIGN §2-§3, issue 25 item 2): the table's
row read under lock in ONE statement that carries what the round's gate decides on — the
Rules Submission versions that may be in force and the table's decks in play — the
decision in the pure domain (:mod:`tables.domain.round_gate`), and the appends to the new
round's stream and the dealing deck's stream in one transaction, each at the version the
read saw (a deck that moved on meanwhile makes the runner read and decide once more).

The statement is written here once per database (JSON sub-selects: ``json_agg`` and
``json_build_object`` on PostgreSQL, ``json_group_array`` and ``json_object`` on SQLite).
A poker hand starts on its own aggregate (:mod:`poker_room.services.hand_opening`), the
same statement with the poker table's row and seats after these columns
(:func:`table_select`).
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.utils import timezone

from casino import command_runner
from casino.actors import Actor
from casino.command_runner import Aggregate, Also, Outcome
from casino.eventstore.store import NewEvent, RecordedEvent, Stream
from tables.domain.round_gate import (
    DeckInPlay,
    RoundOpening,
    RulesVersion,
    TableAtStart,
    check_deck,
    check_table_free,
    deck_due,
    round_opening,
    rules_required,
)
from tables.models import Deck, DeckState, Round, RulesState, RulesSubmission
from tables.projections import round_row
from tables.services.common import found

POSTGRES = connection.vendor == "postgresql"
#: the JSON functions of this database: (object, array, array aggregate, a JSON column
#: as JSON); the process talks to one database, so the statement is written once
_OBJ, _ARR, _AGG, _JSON = (("json_build_object", "json_build_array", "json_agg", "{}")
                           if POSTGRES else
                           ("json_object", "json_array", "json_group_array", "json({})"))


def sql_object(**fields: str) -> str:
    """A JSON object of the sub-select's columns, by name."""
    pairs = ", ".join(f"'{name}', {column}" for name, column in fields.items())
    return f"{_OBJ}({pairs})"


def sql_array(*columns: str) -> str:
    """A JSON array of the sub-select's columns."""
    return f"{_ARR}({', '.join(columns)})"


def sql_agg(expr: str, order: str) -> str:
    """An array of ``expr`` over the sub-select's rows, in ``order`` on PostgreSQL (on
    SQLite the caller sorts: json_group_array takes no ORDER BY)."""
    return f"{_AGG}({expr} ORDER BY {order})" if POSTGRES else f"{_AGG}({expr})"


#: The Rules Submission versions that may be in force for the table's game at its
#: property (in effect, or approved: whether an approved one's time has come is decided
#: with the clock, :func:`tables.domain.round_gate.rules_in_force`).
RULES_SQL = (
    "(SELECT " + sql_agg(sql_object(id="v.id", version_number="v.version_number",
                                    state="v.state", effective_at="v.effective_at",
                                    options=_JSON.format("v.options")), "v.version_number")
    + " FROM tables_rulessubmission v WHERE v.property_id = r.property_id "
    f"AND v.game = r.game AND v.state IN ('{RulesState.IN_EFFECT.value}', "
    f"'{RulesState.APPROVED.value}'))")
#: The table's decks in play, oldest first.
DECKS_SQL = (
    "(SELECT " + sql_agg(sql_object(id="d.id", change_due="d.change_due",
                                    deadline_at="d.deadline_at",
                                    rounds_since_count="d.rounds_since_count",
                                    stream_version="d.stream_version",
                                    entered_play_at="d.entered_play_at"), "d.entered_play_at")
    + f" FROM tables_deck d WHERE d.table_id = r.id AND d.state = '{DeckState.IN_PLAY.value}')")
#: The table's own columns, in :func:`table_at_start`'s order.
TABLE_COLUMNS = ("r.id", "r.name", "r.game", "r.status", "r.dealer_id", "r.positions",
                 "r.current_round_id", "r.rounds_played", "r.last_deck_id",
                 "r.dealing_method", "r.shuffler", "r.shuffler_out_of_order",
                 "r.shoe_out_of_order", RULES_SQL, DECKS_SQL)


def table_select(more_columns: tuple[str, ...] = (), joins: str = "") -> str:
    """The runner's locked read of a table (``r``: the table's row, the one locked) at the
    caller's property, its columns :data:`TABLE_COLUMNS` then ``more_columns`` (from
    ``joins``). The runner's parameters: the table's id and the property's."""
    return (f"SELECT {', '.join(TABLE_COLUMNS + more_columns)} FROM tables_gametable r"
            f"{' ' + joins if joins else ''} WHERE r.id = %%s AND r.property_id = %%s"
            "%(lock)s")


#: A table starting a round: no snapshot of its own (its row is what it decides on); it
#: appends to the new round's stream and the deck's.
TABLE_START: Aggregate[None] = command_runner.register(Aggregate(
    name="table_start", stream_type="table", what="table", select=table_select(), update="",
    stream_id=lambda key: f"table-{key}"))


# --- the row read ----------------------------------------------------------------------

def json_value(value: Any) -> Any:
    """A JSON column as Python (the driver may hand it over parsed or as text)."""
    return json.loads(value) if isinstance(value, str) else value


def key(value: Any) -> str | None:
    """A row key as the events write it (SQLite keeps UUIDs as 32 hex characters)."""
    return str(uuid.UUID(str(value))) if value else None


def moment(value: Any) -> datetime | None:
    """A timestamp from a JSON sub-select (ISO text; SQLite's carries no zone: UTC)."""
    if not value:
        return None
    at = datetime.fromisoformat(value) if isinstance(value, str) else value
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def _rules(value: Any) -> tuple[RulesVersion, ...]:
    return tuple(RulesVersion(key(v["id"]) or "", v["version_number"], v["state"],
                              moment(v["effective_at"]), json_value(v["options"]))
                 for v in json_value(value) or [])


def _decks(value: Any) -> tuple[DeckInPlay, ...]:
    decks = [DeckInPlay(key(d["id"]) or "", bool(d["change_due"]), moment(d["deadline_at"]),
                        d["rounds_since_count"], d["stream_version"],
                        moment(d["entered_play_at"]))
             for d in json_value(value) or []]
    # oldest first (SQLite's aggregate is not ordered); a deck in play has entered play
    epoch = datetime.min.replace(tzinfo=UTC)
    return tuple(sorted(decks, key=lambda d: d.entered_play_at or epoch))


def table_at_start(row: tuple[Any, ...]) -> TableAtStart:
    """The table from the first :data:`TABLE_COLUMNS` of the runner's row."""
    (pk, name, game, status, dealer_id, positions, current_round_id, rounds_played,
     last_deck_id, dealing_method, shuffler, shuffler_ooo, shoe_ooo, rules, decks
     ) = row[:len(TABLE_COLUMNS)]
    return TableAtStart(key(pk) or "", name, game, status, dealer_id, positions,
                        key(current_round_id), rounds_played, key(last_deck_id),
                        dealing_method, shuffler, bool(shuffler_ooo), bool(shoe_ooo),
                        _rules(rules), _decks(decks))


# --- the decision ----------------------------------------------------------------------

def _deck_named(actor: Actor, table: TableAtStart, deck_id: Any) -> DeckInPlay | None:
    """The deck the dealer named among the table's decks in play; None (then refused:
    ``deck_not_in_play``) for a deck of the property that is not; 404 ``deck_not_found``
    for no deck of the property (looked up only then)."""
    try:
        wanted = str(uuid.UUID(str(deck_id)))
    except (TypeError, ValueError):
        wanted = None
    deck = next((d for d in table.decks if d.id == wanted), None)
    if deck is None:
        found(Deck, deck_id, actor, what="deck")
    return deck


def opening(actor: Actor, table: TableAtStart, deck_id: Any,
            now: datetime | None = None) -> tuple[RoundOpening, list[Also]]:
    """The table's next round (refused by the round's gate, in its order: the table, the
    rules, the deck) and its appends: ``RoundOpened`` starting the round's stream,
    ``DeckDealtRound`` at the deck's version. The caller may add events to the round's
    (the first ``Also``) after ``RoundOpened``."""
    now = now or timezone.now()
    check_table_free(table)
    rules = rules_required(table, now)
    deck = deck_due(table) if deck_id is None else _deck_named(actor, table, deck_id)
    check_deck(table, deck, now)
    assert deck is not None  # check_deck refused a deck not in play
    o = round_opening(table, rules, deck, str(uuid.uuid4()))
    return o, [
        Also(Stream("round", f"round-{o.round_id}"), 0, [NewEvent("RoundOpened", o.opened)]),
        Also(Stream("deck", f"deck-{deck.id}"), deck.stream_version,
             [NewEvent("DeckDealtRound", o.deck_dealt)])]


def round_events(out: Outcome[Any], o: RoundOpening) -> list[RecordedEvent]:
    """The new round's stream as the command appended it, ``RoundOpened`` first."""
    return out.others[f"round-{o.round_id}"]


def round_answer(opened: RecordedEvent, rules: RulesVersion, actor: Actor) -> Round:
    """The round as the projection inserted it, rebuilt from its ``RoundOpened`` (not
    read back), with its Rules Submission version attached (``rnd.rules``)."""
    rnd = round_row(opened)
    rnd._state.adding, rnd._state.db = False, "default"
    rs = RulesSubmission(id=uuid.UUID(rules.id), property_id=actor.property.pk,
                         game=opened.data["game"], version_number=rules.version_number,
                         options=rules.options, state=rules.state,
                         effective_at=rules.effective_at)
    rs._state.adding, rs._state.db = False, "default"
    rnd.rules = rs
    return rnd


__all__ = ["DECKS_SQL", "RULES_SQL", "TABLE_COLUMNS", "TABLE_START", "json_value", "key",
           "moment", "opening", "round_answer", "round_events", "sql_agg", "sql_array",
           "sql_object", "table_at_start", "table_select"]
