"""Each printable of a table's gaming day fits one US Letter page, portrait, in Debian's
Chromium (issue 23, item 5), every text black on paper: ``page.pdf(format="A4", prefer_css_page_size=True)`` — asked
for A4, so casino.css's ``@page`` rule is what makes it Letter — gives one page of
612 × 792 pt (8.5 × 11 in at 72 pt an inch).

The page is the console's own HTML (rendered by the Django test client inside the test's
transaction); Chromium loads it at a made-up address whose requests are answered here:
the page itself, and its static files (Pico, casino.css, console.js) from the apps' static
folders, as the server serves them. :func:`letter_pages` is used by the jackpots'
printables too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.staticfiles import finders

from casino.actors import Actor
from finance.services import drop, tray
from tests.console._axe import serious_violations
from tests.finance.test_printables import CASH, CHIPS, FILL, OPENER, _slip, _url, client_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

ORIGIN = "http://printables.test"
#: a Letter page in PostScript points
LETTER_PORTRAIT_PT = (612, 792)


def letter_pages(browser: Any, html: str) -> list[tuple[int, int]]:
    """The PDF Chromium prints of ``html``: each page's size in points, rounded."""
    page = browser.new_page()

    def answer(route: Any) -> None:
        url = route.request.url
        if url.startswith(ORIGIN + "/static/"):
            path = finders.find(url[len(ORIGIN + "/static/"):].split("?")[0])
            if path is None:
                route.fulfill(status=404, body="")
                return
            kind = "text/css" if path.endswith(".css") else "text/javascript"
            with open(path, "rb") as f:
                route.fulfill(status=200, body=f.read(), content_type=kind)
        elif url == ORIGIN + "/page":
            route.fulfill(status=200, body=html, content_type="text/html; charset=utf-8")
        else:
            route.fulfill(status=404, body="")

    try:
        page.route("**/*", answer)
        page.goto(ORIGIN + "/page")
        # a console page: axe-core finds no serious or critical violation (issue 23)
        assert serious_violations(page) == []
        page.emulate_media(media="print")
        # the stylesheet is in force (a page without it would print too)
        assert page.evaluate("getComputedStyle(document.querySelector('.print-actions'))"
                             ".display") == "none"
        # black and white: on paper every element's text is black (nothing said by
        # colour alone)
        coloured = page.evaluate("[...document.querySelectorAll('body *')].filter(e => "
                                 "getComputedStyle(e).color !== 'rgb(0, 0, 0)')"
                                 ".map(e => e.tagName + '.' + e.className)")
        assert coloured == []
        pdf = page.pdf(format="A4", prefer_css_page_size=True, print_background=True)
    finally:
        page.close()
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    return [(round(float(w)), round(float(h))) for w, h in boxes]


def test_the_fill_slip_the_inventory_slip_and_the_count_sheet_each_fit_one_letter_page(
        team: dict[str, Actor], open_table: Callable, request: pytest.FixtureRequest) -> None:
    table = open_table("five-card-hi-lo")
    tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="opener",
                          pieces=OPENER)
    tray.inventory_sign(actor=team["floor"], table_id=table.pk, slip="opener")
    slip = _slip(team, table, "fill", FILL)
    drop.drop_remove(actor=team["runner"], table_id=table.pk)
    drop.drop_count(actor=team["counter"], table_id=table.pk, cash=CASH, chips=CHIPS)
    drop.drop_count_sign(actor=team["counter2"], table_id=table.pk)
    drop.drop_accept(actor=team["cashier"], table_id=table.pk)
    c = client_of(team["cashier"])
    pages = {what: c.get(_url(table, team["cashier"], rest)).content.decode()
             for what, rest in (("fill slip", f"slips/{slip}/"),
                                ("inventory slip", "inventory/opener/"),
                                ("count sheet", "drop/"))}
    # the browser only now, after the ORM (its event loop would take another connection)
    browser = request.getfixturevalue("browser")
    for what, html in pages.items():
        assert letter_pages(browser, html) == [LETTER_PORTRAIT_PT], what
