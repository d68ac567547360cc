"""The reports finance files, each a :class:`Report` built by one function registered
here under its name (``master-game``, ``statistical``, ``poker-revenue``,
``jackpot-funds``, ``exceptions``). One page template prints any of them, one CSV writer
downloads any of them, one API view serves them as JSON: a new report is a function.

Every figure is read from the read models and events; nothing is written. A row may name
``behind``: the URL of the rounds and hands its figures come from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

from casino.actors import Actor
from casino.domain.errors import NotFoundError

#: how a column's values are shown: money (cents), percent, count, text, flag, date (a
#: gaming day), time (an instant: ISO 8601 with its offset)
KINDS = ("money", "percent", "count", "text", "flag", "date", "time")


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    kind: str = "money"


@dataclass
class Report:
    """A report's figures: rows of ``{column key: value}`` (money in cents)."""

    name: str
    title: str
    first: date
    last: date
    columns: list[Column]
    rows: list[dict[str, Any]]
    #: what the figures are and where they come from, for the reader (and the rules cited)
    basis: str = ""
    #: a variant of the report ("preliminary" or "final" for the Master Game Report)
    version: str = ""
    totals: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    #: an optional chart: {"title", "unit", "axis" (the value axis's name), "points":
    #: [{"label", "value", "flag", "low", "high"}]} drawn as an inline SVG by the page
    chart: dict[str, Any] | None = None

    def as_data(self) -> dict[str, Any]:
        out = asdict(self)
        out["first"], out["last"] = self.first.isoformat(), self.last.isoformat()
        return out


Builder = Callable[[Actor, date, date, dict[str, str]], Report]
_builders: dict[str, Builder] = {}


def register(name: str) -> Callable[[Builder], Builder]:
    def add(fn: Builder) -> Builder:
        _builders[name] = fn
        return fn
    return add


def names() -> list[str]:
    _load()
    return sorted(_builders)


def build(name: str, actor: Actor, first: date, last: date,
          params: dict[str, str] | None = None) -> Report:
    """The report ``name`` for the span; 404 ``report_not_found`` for another name."""
    _load()
    builder = _builders.get(name)
    if builder is None:
        raise NotFoundError(f"no report {name!r}; the reports: {', '.join(sorted(_builders))}",
                            code="report_not_found")
    return builder(actor, first, last, dict(params or {}))


def csv_table(report: Report) -> tuple[list[tuple[str, str, str]], list[dict[str, Any]]]:
    """The report as its CSV is written (casino.api.downloads.csv_download, through the
    one writer casino.domain.spreadsheet: dollars to the cent, gaming days as dates,
    instants with their offset, no cell a formula): the columns as (key, words, kind),
    then the rows and the totals, last."""
    return ([(c.key, c.label, c.kind) for c in report.columns],
            report.rows + ([report.totals] if report.totals else []))


def _load() -> None:
    """Import the report modules (each registers itself)."""
    from finance.reports import (  # noqa: F401
        exceptions,
        jackpot_funds,
        master_game,
        poker_revenue,
        statistical,
    )
