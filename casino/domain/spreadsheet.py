"""How a CSV meant for people writes its cells — one rule for every download (finance's
reports, the jackpot fund ledgers), so a reader never guesses a unit or a zone:

* the header is the column's words with its unit: ``Drop ($)``, ``Hold (%)``;
* money is dollars to the cent, without the sign or separators, so a spreadsheet sums
  it: ``1860.00``, ``-50.00`` (never a bare count of cents);
* a gaming day is its date, ``2026-11-25``;
* an instant is ISO 8601 in the property's zone with its offset,
  ``2026-11-25T06:10:00-05:00`` (never a naive or unlabelled time);
* no cell is a formula (OWASP's CSV injection rule). A number the code itself writes (a
  money, percent or count column holding a number) is written bare, so a spreadsheet
  reads ``-50.00`` as minus fifty dollars; every other cell is text — words a person
  typed (an explanation, a username, a table's name) among them — and is written quoted,
  with a single quote put before it when it begins with ``=``, ``+``, ``-``, ``@``, a tab
  or a carriage return (:func:`neutral`), so no spreadsheet runs it. A negative amount
  stays a number because the code made it from cents; a ``-`` that came from a person
  never reaches a number column.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from casino.domain.money import Cents, unsigned_dollars
from casino.domain.wall_clock import iso_with_offset

#: the unit a column of each kind carries in its header
UNITS = {"money": "$", "percent": "%"}
#: the kinds of column whose cells are numbers when the value is one
NUMBER_KINDS = ("money", "percent", "count")
#: what a spreadsheet takes as the start of a formula (OWASP, "CSV Injection")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def header(label: str, kind: str = "text") -> str:
    """``Drop`` of kind money → ``Drop ($)``; a column without a unit, or whose words
    already name it (``Hold %``), keeps its words."""
    unit = UNITS.get(kind)
    return f"{label} ({unit})" if unit and unit not in label else label


def dollars_cell(cents: Cents | None) -> str:
    """123456 → ``1234.56``; -5000 → ``-50.00``; nothing yet (None) → empty."""
    if cents is None:
        return ""
    dollars = unsigned_dollars(cents)  # refuses anything but whole cents first
    return f"{'-' if cents < 0 else ''}{dollars}"


def day_cell(day: date | str | None) -> str:
    """A gaming day as ``YYYY-MM-DD`` (an ISO date string is kept as it is)."""
    if day is None or day == "":
        return ""
    return day.isoformat() if isinstance(day, date) else str(day)


def instant_cell(moment: datetime | str | None, *, time_zone: str) -> str:
    """An instant (aware, or ISO 8601 text with an offset) in the property's zone with
    its offset; nothing yet → empty. A naive time is refused, never written."""
    if moment is None or moment == "":
        return ""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return iso_with_offset(moment, time_zone=time_zone)


def cell(value: Any, kind: str, *, time_zone: str) -> str:
    """A value of a column of ``kind`` (money, percent, count, text, flag, date, time)."""
    if value is None or value == "":
        return ""
    if kind == "money":
        return dollars_cell(value)
    if kind == "date":
        return day_cell(value)
    if kind == "time":
        return instant_cell(value, time_zone=time_zone)
    if kind == "percent":
        return f"{value:.2f}"
    if kind == "flag":
        return "yes" if value is True else ("no" if value is False else str(value))
    return str(value)


def neutral(text: str) -> str:
    """Text as a cell no spreadsheet runs: ``=1+2`` → ``'=1+2`` (likewise a leading
    ``+``, ``-``, ``@``, tab or carriage return); any other text as it is. The one escape
    of every export: :func:`write_csv` puts every text cell through it."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def field(value: Any, kind: str, *, time_zone: str) -> Decimal | int | str:
    """What :func:`write_csv` hands the csv module for one cell: a number the code wrote
    (a money, percent or count column holding a number) as a number, written bare; any
    other cell as text through :func:`neutral`, which the writer quotes."""
    text = cell(value, kind, time_zone=time_zone)
    if kind in NUMBER_KINDS and _is_number(value):
        return int(text) if kind == "count" and isinstance(value, int) else Decimal(text)
    return neutral(text)


def write_csv(columns: Iterable[tuple[str, str, str]], rows: Iterable[Mapping[str, Any]],
              *, time_zone: str) -> str:
    """The one CSV writer: ``columns`` as (key, label, kind), a header row of the labels
    with their units, then each row's cells as :func:`field` gives them. Text is always
    quoted and numbers never (``QUOTE_NONNUMERIC``: a Decimal and an int are numbers to
    the csv module), so a spreadsheet takes a figure as a number and text as text."""
    columns = list(columns)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    w.writerow([neutral(header(label, kind)) for _, label, kind in columns])
    for row in rows:
        w.writerow([field(row.get(key), kind, time_zone=time_zone)
                    for key, _, kind in columns])
    return buf.getvalue()
