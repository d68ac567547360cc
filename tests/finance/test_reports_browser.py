"""Every finance report in a real browser (Debian's Chromium driven by Playwright) against
the product served on a real socket: finance logs in, opens the list of reports, then each
report's page for the small day of :mod:`tests.finance._day`: the page renders its table,
the statistical report draws its chart, and "Download CSV" downloads a CSV whose header
is the report's column words with their units ("Kind", "Drop ($)"). The reports are those
registered (``finance.reports.names``).
"""

from __future__ import annotations

import csv
import io
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connections

from finance import reports
from tests.finance import _day
from tests.finance._csv_headers import CSV_HEADERS
from tests.finance._day import SmallDay
from tests.finance._live import PASSWORD, server  # noqa: F401  server: the live-server fixture
from tests.finance._live import caught_up as _caught_up
from tests.finance._live import committed_day as _committed_day

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.usefixtures("committed_db")]

def test_every_report_renders_and_downloads_its_csv(server, browser, monkeypatch) -> None:
    monkeypatch.setattr(_day, "projections", SimpleNamespace(catch_up=_caught_up))
    try:
        _every_report(server, browser, _committed_day())
    finally:
        # the test's own ORM calls ran beside Playwright's event loop, on a connection of
        # their own: closed here, so no session outlives the test
        connections.close_all()


def _every_report(server: str, browser: Any, d: SmallDay) -> None:
    names = reports.names()
    assert {"master-game", "statistical", "poker-revenue", "jackpot-funds",
            "exceptions"} <= set(names)
    day = d.day.isoformat()
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    page.goto(f"{server}/api-auth/login/?next=/finance/reports/")
    page.fill("input[name=username]", d.team["finance"].username)
    page.fill("input[name=password]", PASSWORD)
    page.click("[type=submit]")
    page.wait_for_url(f"{server}/finance/reports/")
    listed = [a.get_attribute("href") for a in page.locator("li a").all()]
    for name in names:
        assert any(h.startswith(f"/finance/reports/{name}/") for h in listed), name
    for name in names:
        report = reports.build(name, d.team["finance"], d.day, d.day, {})
        page.goto(f"{server}/finance/reports/{name}/?first={day}")
        assert page.locator("h1").inner_text().startswith(report.title), name
        body = page.locator("table tbody").first
        assert body.locator("tr").count() >= 1, name
        assert "Nothing in these gaming days" not in body.inner_text(), name
        if name == "statistical":
            assert page.locator("svg.chart").is_visible()
            assert page.locator("svg.chart circle").count() == 1
        with page.expect_download() as got:
            page.click("text=Download CSV")
        text = open(got.value.path(), encoding="utf-8").read()
        header = next(csv.reader(io.StringIO(text)))
        # the CSV rule for people (casino.domain.spreadsheet): each column's words, a
        # money column's with its unit "($)"; a percent column's words already say "%"
        assert header == CSV_HEADERS[name], name
        assert len(text.splitlines()) >= 2, name
    context.close()
