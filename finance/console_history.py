"""Sentences for finance's event types (:mod:`console.history`): a table's day (the tray,
chip sales, fill and credit slips, the drop and its count, variances) and the gaming
day's close."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from console.history import money, say, sentences, who, words

D = Mapping[str, Any]


def _sold(data: D, metadata: D) -> str:
    return (f"{who(metadata)} sold {money(data.get('amount_cents'))} in chips for cash at "
            f"seat {data.get('seat')} ({words(data.get('paid_for'))})")


def _held(data: D, metadata: D) -> str:
    return (f"{who(metadata)} held the gaming day's close: {data.get('count')} open "
            "item(s)")


def _day_closed(data: D, metadata: D) -> str:
    open_items = " with open items" if data.get("with_open_items") else ""
    return (f"{who(metadata)} closed the gaming day{open_items}: {data.get('tables')} "
            f"tables, {data.get('exceptions')} exception(s)")


def _table_day(data: D, metadata: D) -> str:
    f = data.get("figures") or {}
    return (f"{who(metadata)} closed the table's day ({f.get('table') or 'the table'}): "
            f"win {money(f.get('win_cents'))}")


sentences({
    "InventorySlipRecorded": say("{who} recorded the {slip:w} slip: {total_cents:$}"),
    "InventorySlipSigned": say("{who} signed the {slip:w} slip"),
    "ChipsSold": _sold,
    "SlipRequested": say("{who} asked for a {kind:w} of {total_cents:$}"),
    "SlipPrepared": say("{who} prepared the slip"),
    "SlipCarried": say("{who} carried the slip's chips"),
    "SlipCompleted": say("{who} signed the slip at the table"),
    "SlipVoided": say("{who} voided the slip: {reason}"),
    "DropBoxRemoved": say("{who} removed the drop box"),
    "DropCounted": say("{who} counted {counted_cents:$} in the drop box"),
    "DropCountSigned": say("{who} signed the drop count"),
    "DropCountAccepted": say("{who} accepted the drop count into the cage"),
    "VarianceRecorded": say("{who} recorded a variance in the {figure:w}: {counted_cents:$} "
                            "counted, {expected_cents:$} expected ({variance_cents:$})"),
    "VarianceRevised": say("{who} revised the variance in the {figure:w}: "
                           "{counted_cents:$} counted, {expected_cents:$} expected "
                           "({variance_cents:$})"),
    "VarianceExplained": say("{who} explained the variance: {explanation}"),
    "VarianceSignedOff": say("{who} signed off the variance"),
    "TableDayClosed": _table_day,
    "GamingDayCloseHeld": _held,
    "GamingDayClosed": _day_closed,
})
