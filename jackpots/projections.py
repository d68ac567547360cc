"""The contributions follower: the poker room's ``JackpotContributed`` events (one per fund
per pot, 637a.15(c), 637a.16(c)) into the funds' ledgers, boxes and totals.

An async projection (:mod:`casino.eventstore.projections`): a Celery task queued when an
append commits catches it up, and the beat sweep covers a lost message; its checkpoint is
written in the same transaction as its rows, so a task delivered twice, or a worker that
dies mid-batch, applies each contribution exactly once. It reads only the public event
(``fund``, ``kind``, ``amount_cents``, ``table_id``, ``gaming_day``; the property from the
event's metadata): nothing of the poker engine.

A batch is added up in memory and written as one upsert per row it touches (PostgreSQL
and SQLite), which is what lets the follower keep up with a whole room.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from django.db import connection

from casino.eventstore.projections import Projection, register
from casino.eventstore.store import RecordedEvent
from casino.models import Property
from jackpots.models import Fund, FundDay, PayoutBox

CONTRIBUTED = "JackpotContributed"

def _property_ids(events: Sequence[RecordedEvent]) -> dict[str, int]:
    """Licence number (the events' metadata) -> property id, one query for a batch."""
    licences = {e.metadata["property"] for e in events}
    return dict(Property.objects.filter(licence_number__in=licences)
                .values_list("licence_number", "pk"))


@register
class ContributionsFollower(Projection):
    """Fund ledgers from the poker room's contributions (637a.15(c)-(e), 637a.16(c)-(e))."""

    name = "jackpot_contributions"
    mode = "async"
    event_types = frozenset({CONTRIBUTED})

    def apply(self, event: RecordedEvent) -> None:
        self.apply_batch([event])

    def apply_batch(self, events: Sequence[RecordedEvent]) -> None:
        days: dict[tuple, list[Any]] = {}
        boxes: dict[tuple, list[Any]] = {}
        funds: dict[tuple, list[Any]] = {}
        properties = _property_ids(events)
        for e in events:
            d = e.data
            prop = properties[e.metadata["property"]]
            cents, at = int(d["amount_cents"]), e.recorded_at
            table = uuid.UUID(str(d["table_id"]))
            for rows, key in ((days, (prop, d["fund"], d["kind"], table,
                                      date.fromisoformat(d["gaming_day"]))),
                              (boxes, (prop, d["fund"], d["kind"], table)),
                              (funds, (prop, d["fund"], d["kind"]))):
                row = rows.setdefault(key, [0, 0, at, at])
                row[0] += cents
                row[1] += 1
                row[2], row[3] = min(row[2], at), max(row[3], at)
        _upsert_days(days)
        _upsert_boxes(boxes)
        _upsert_funds(funds)

    def reset(self) -> None:
        FundDay.objects.all().delete()
        PayoutBox.objects.all().delete()
        Fund.objects.all().delete()


def _uuid(value: uuid.UUID) -> Any:
    return FundDay._meta.get_field("table_id").get_db_prep_value(value, connection)


def _when(value: datetime) -> Any:
    return connection.ops.adapt_datetimefield_value(value)


def _execute(sql: str, rows: list[list[Any]]) -> None:
    if rows:
        with connection.cursor() as cur:
            cur.executemany(sql, rows)


def _upsert_days(days: dict[tuple, list[Any]]) -> None:
    _execute(
        "INSERT INTO jackpots_fundday (property_id, fund, kind, table_id, gaming_day, "
        "contributions_cents, contributions) VALUES (%s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (property_id, fund, table_id, gaming_day) DO UPDATE SET "
        "contributions_cents = jackpots_fundday.contributions_cents "
        "+ excluded.contributions_cents, "
        "contributions = jackpots_fundday.contributions + excluded.contributions",
        [[p, f, k, _uuid(t), connection.ops.adapt_datefield_value(day), c, n]
         for (p, f, k, t, day), (c, n, _, _) in days.items()])


def _upsert_boxes(boxes: dict[tuple, list[Any]]) -> None:
    _execute(
        "INSERT INTO jackpots_payoutbox (property_id, fund, kind, table_id, expected_cents, "
        "contributed_cents, last_contribution_at) VALUES (%s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (property_id, fund, table_id) DO UPDATE SET "
        "expected_cents = jackpots_payoutbox.expected_cents + excluded.expected_cents, "
        "contributed_cents = jackpots_payoutbox.contributed_cents "
        "+ excluded.contributed_cents, last_contribution_at = excluded.last_contribution_at",
        [[p, f, k, _uuid(t), c, c, _when(last)]
         for (p, f, k, t), (c, _, _, last) in boxes.items()])


def _upsert_funds(funds: dict[tuple, list[Any]]) -> None:
    _execute(
        "INSERT INTO jackpots_fund (property_id, name, kind, contributions_cents, "
        "contributions, first_contribution_at, last_contribution_at) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (property_id, name) DO UPDATE SET "
        "contributions_cents = jackpots_fund.contributions_cents "
        "+ excluded.contributions_cents, "
        "contributions = jackpots_fund.contributions + excluded.contributions, "
        "last_contribution_at = excluded.last_contribution_at",
        [[p, f, k, c, n, _when(first), _when(last)]
         for (p, f, k), (c, n, first, last) in funds.items()])
