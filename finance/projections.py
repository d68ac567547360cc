"""Finance's read models as an inline projection of the finance events: each table day's
row holds its stream folded (``finance.domain.table_day``) with the figures the reports
read; each exception and each gaming day's close has its row. Inline: the rows commit with
the events, so a command always decides on current rows; ``rebuild_projections`` replays
them from the log."""

from __future__ import annotations

import uuid
from dataclasses import asdict
from datetime import date

from casino.eventstore.projections import Projection, register
from casino.eventstore.store import RecordedEvent
from finance.domain.table_day import CLOSER, CREDIT, FILL, OPENER, TableDayState, evolve
from finance.models import FinanceException, GamingDay, TableDay

TABLE_DAY_EVENTS = frozenset({
    "InventorySlipRecorded", "InventorySlipSigned", "ChipsSold", "SlipRequested",
    "SlipPrepared", "SlipCarried", "SlipCompleted", "SlipVoided", "DropBoxRemoved",
    "DropCounted", "DropCountSigned", "DropCountAccepted", "VarianceRecorded",
    "VarianceRevised", "VarianceExplained", "VarianceSignedOff", "TableDayClosed"})
GAMING_DAY_EVENTS = frozenset({"GamingDayCloseHeld", "GamingDayClosed"})


def _table_day_key(stream_id: str) -> tuple[uuid.UUID, date]:
    """``finance_table_day-<table uuid>-<YYYY-MM-DD>``."""
    rest = stream_id.removeprefix("finance_table_day-")
    return uuid.UUID(rest[:36]), date.fromisoformat(rest[37:])


def _gaming_day_key(stream_id: str) -> tuple[int, date]:
    """``finance_gaming_day-<property id>-<YYYY-MM-DD>``."""
    prop, day = stream_id.removeprefix("finance_gaming_day-").split("-", 1)
    return int(prop), date.fromisoformat(day)


def _state_of(row: TableDay) -> TableDayState:
    s = row.state or {}
    return TableDayState(**s) if s else TableDayState()


def _table_day(e: RecordedEvent) -> None:
    # Rows are written with create() or update(), never save(): outside a transaction the
    # store runs inline projections in a pipeline on PostgreSQL, where save() cannot tell
    # an UPDATE that found its row from one that did not.
    from tables.models import GameTable

    table_id, day = _table_day_key(e.stream_id)
    this_day = TableDay.objects.filter(table_id=table_id, gaming_day=day)
    if e.type == "TableDayClosed" and this_day.exists():
        # the close changes no figure of the day: no fold, one UPDATE (a room closes at
        # once); exists() first, as update() counts no rows in the store's pipeline
        this_day.update(frozen=e.data["figures"], open_at_close=e.data["open_items"],
                        stream_version=e.version)
        return
    row = TableDay.objects.filter(table_id=table_id, gaming_day=day).first()
    state = evolve(_state_of(row) if row else TableDayState(), e.type, e.data, e.metadata)
    fields = {
        "state": asdict(state), "stream_version": e.version,
        "opener_cents": state.inventory_cents(OPENER),
        "closer_cents": state.inventory_cents(CLOSER),
        "chip_sales_cents": state.chip_sales_cents, "fills_cents": state.slips_cents(FILL),
        "credits_cents": state.slips_cents(CREDIT), "open_slips": len(state.open_slips()),
        "drop_state": state.drop["state"], "drop_counted_cents": state.drop.get("counted_cents")}
    if e.type == "TableDayClosed":
        fields.update(frozen=e.data["figures"], open_at_close=e.data["open_items"])
    item = _step_item(e)
    if item is not None:
        fields["step_times"] = {**(row.step_times if row else {}),
                                item: e.recorded_at.isoformat()}
    if row is None:
        prop = GameTable.objects.filter(pk=table_id).values_list("property_id", flat=True)[0]
        row = TableDay.objects.create(property_id=prop, table_id=table_id, gaming_day=day,
                                      **fields)
    else:
        TableDay.objects.filter(pk=row.pk).update(**fields)
    _exception(row, e)


def _step_item(e: RecordedEvent) -> str | None:
    """The item an event is a step of, as ``TableDay.step_times`` keys it (None for a
    chip sale, a variance or the close: no one waits on those at the table)."""
    if e.type.startswith("InventorySlip"):
        return f"inventory:{e.data['slip']}"
    if e.type.startswith("Slip"):
        return f"slip:{e.data['slip_id']}"
    if e.type.startswith("Drop"):
        return "drop"
    return None


def _exception(row: TableDay, e: RecordedEvent) -> None:
    d, who = e.data, e.metadata.get("actor", "")
    if e.type == "VarianceRecorded":
        FinanceException.objects.create(
            property_id=row.property_id, exception_id=d["exception_id"],
            table_id=row.table_id, gaming_day=row.gaming_day, figure=d["figure"],
            expected_cents=d["expected_cents"], counted_cents=d["counted_cents"],
            variance_cents=d["variance_cents"], recorded_at=e.recorded_at,
            after_close=bool(d.get("after_close")))
    elif e.type == "VarianceRevised":
        FinanceException.objects.filter(exception_id=d["exception_id"]).update(
            expected_cents=d["expected_cents"], counted_cents=d["counted_cents"],
            variance_cents=d["variance_cents"], state="open")
    elif e.type == "VarianceExplained":
        FinanceException.objects.filter(exception_id=d["exception_id"]).update(
            state="explained", explanation=d["explanation"], explained_by=who,
            explained_at=e.recorded_at)
    elif e.type == "VarianceSignedOff":
        FinanceException.objects.filter(exception_id=d["exception_id"]).update(
            state="signed_off", signed_off_by=who, signed_off_at=e.recorded_at)


def _gaming_day(e: RecordedEvent) -> None:
    prop, day = _gaming_day_key(e.stream_id)
    fields: dict = {"stream_version": e.version, "open_items": e.data.get("open_items", [])}
    if e.type == "GamingDayCloseHeld":
        fields["state"] = "held"
    else:
        # each table's figures were frozen in its own stream just before (TableDayClosed)
        tables = TableDay.objects.filter(property_id=prop, gaming_day=day,
                                         frozen__isnull=False).order_by("pk")
        fields.update(state="closed", closed_at=e.recorded_at,
                      closed_by=e.metadata.get("actor", ""),
                      with_open_items=bool(e.data.get("with_open_items")),
                      figures={str(t.table_id): t.frozen for t in tables},
                      open_items=[i for t in tables for i in t.open_at_close]
                      + e.data.get("open_items", []))
    if GamingDay.objects.filter(property_id=prop, gaming_day=day).exists():
        GamingDay.objects.filter(property_id=prop, gaming_day=day).update(**fields)
    else:
        GamingDay.objects.create(property_id=prop, gaming_day=day, **fields)


@register
class FinanceProjection(Projection):
    """Table days, exceptions and gaming days."""

    name = "finance"
    mode = "inline"
    event_types = TABLE_DAY_EVENTS | GAMING_DAY_EVENTS

    def apply(self, event: RecordedEvent) -> None:
        if event.type in TABLE_DAY_EVENTS:
            _table_day(event)
        else:
            _gaming_day(event)

    def reset(self) -> None:
        FinanceException.objects.all().delete()
        TableDay.objects.all().delete()
        GamingDay.objects.all().delete()
