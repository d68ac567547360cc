"""Every report and every printable prints on US Letter in Debian's Chromium without
running off the page, and reads on a 1,400 px screen without a horizontal scroll bar
(issue 22, item 4). The reports are those registered (``finance.reports.names``, so a new
report is checked the day it is added) and the other pages finance prints: the gaming day,
the rounds and hands behind each table's figures, the jackpot funds' ledgers and the High
Hand periods (the fund records § 637a.15(e) and § 637a.16(e) ask finance to keep), for
the small day of :mod:`tests.finance._day`. The printables are the table signs, one for
each game of the catalogue (the payouts and limits posted at the table: § 579.2(b)(7),
§ 589.2(b)(5)-(7), § 671a.2(b)(5), § 637a.8(k)).

For each page:

The drop the Hi-Lo box is short is explained at length and signed off first, so the
exception's text and times are printed too.

* **on screen**, at a 1,400 px window, the document is no wider than the window (a wide
  table scrolls inside its own box, never the page);
* **in print media**, at the width a Letter page leaves inside its margins (reports
  landscape 11 in, printables portrait 8.5 in, less 0.5 in a side, at 96 CSS px an inch),
  the document is no wider than that; the print view shows no stray separator (a "·"
  left between hidden links), no empty row, no cell left empty by its hidden link (the
  "Behind" column) and no bordered box left empty;
* **as a PDF** (``page.pdf`` with ``prefer_css_page_size``), every page is Letter in the
  page's orientation: 792 × 612 pt for a report, 612 × 792 pt for a printable. Chromium is
  asked for the *other* orientation, so the page's own ``@page`` rule is what decides.

The PDFs are left in the test's ``tmp_path`` for a person to look at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connections

from finance import reports
from finance.models import FinanceException
from finance.services.exceptions import variance_explain, variance_sign_off
from tables.domain.catalogue import GAMES
from tests.finance import _day
from tests.finance._day import SmallDay
from tests.finance._live import (  # noqa: F401  server: the live-server fixture
    caught_up,
    committed_day,
    configure_table,
    log_in,
    put_rules_in_effect,
    server,
)

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.usefixtures("committed_db")]

#: a Letter page in PostScript points (72 an inch): 8.5 in × 11 in
LETTER_PORTRAIT_PT = (612, 792)
LETTER_LANDSCAPE_PT = (792, 612)
#: the printable width at 96 CSS px an inch, with the 0.5 in margins the pages' @page
#: rules set: landscape (11 − 2 × 0.5) × 96 = 960 px, portrait (8.5 − 2 × 0.5) × 96 = 720 px
PRINTABLE_WIDTH_PX = {True: 960, False: 720}
SCREEN_WIDTH_PX = 1400


@dataclass(frozen=True)
class Printed:
    what: str
    path: str
    landscape: bool


def _pages(d: SmallDay) -> list[Printed]:
    """The pages to print: every registered report, finance's other printed pages, the
    jackpot ledgers, and a sign for every game (the signs' tables are set up here)."""
    day = d.day.isoformat()
    pages = [Printed(f"report {n}", f"/finance/reports/{n}/?first={day}", True)
             for n in reports.names()]
    pages += [
        Printed("gaming day", f"/finance/days/{day}/", True),
        Printed("behind the Hi-Lo table", f"/finance/behind/{d.hilo.pk}/{day}/", True),
        Printed("behind the Hold'em table", f"/finance/behind/{d.poker.pk}/{day}/", True),
        Printed("Bad Beat fund ledger", f"/jackpots/report/bad-beat/?first={day}", True),
        Printed("High Hand fund ledger", f"/jackpots/report/high-hand/?first={day}", True),
        Printed("High Hand periods", f"/jackpots/report/high-hand/?by=period&first={day}",
                True),
    ]
    pages += [Printed(f"sign of {t.game}", f"/api/v1/tables/{t.pk}/signage?format=html",
                      False) for t in _sign_tables(d)]
    return pages


#: a long explanation, as a clerk writes one: the exception report, the gaming day and
#: the behind page must wrap it, not widen the page
EXPLANATION = ("The count team found the Hi-Lo box $20.00 short of the chips sold for cash: "
               "the surveillance review of the table from 6:00 AM to the close shows a $20 "
               "bill given back to a player who changed his mind before the chips were "
               "pushed; the dealer was retrained on the procedure for a cancelled sale.")


def _explained_and_signed_off(d: SmallDay) -> None:
    """The Hi-Lo drop short ($20.00) explained by finance and signed off by a second
    person of finance (the exception's times and people filled in, its text long)."""
    row = FinanceException.objects.get(table_id=d.hilo.pk, gaming_day=d.day, figure="drop")
    variance_explain(actor=d.team["finance"], exception_id=row.exception_id,
                     explanation=EXPLANATION)
    variance_sign_off(actor=d.team["finance2"], exception_id=row.exception_id)


def _sign_tables(d: SmallDay) -> list[Any]:
    """A table of every game in the catalogue, each with its example Rules Submission in
    effect: the day's two tables and a closed table of each other game (the paytables
    and the jackpot blocks differ by game, so each game's sign is printed)."""
    played = {d.hilo.game: d.hilo, d.poker.game: d.poker}
    out = []
    for game in GAMES:
        if game not in played:
            put_rules_in_effect(d.team, game)
            played[game] = configure_table(d.team, game, name=f"Sign {game}")
        out.append(played[game])
    return out


_MEDIA_BOX = re.compile(rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]")


def media_boxes(pdf: bytes) -> list[tuple[int, int]]:
    """Each ``/MediaBox [x0 y0 x1 y1]`` of the PDF as (width, height) in points, rounded.
    Chromium writes its page dictionaries uncompressed, so reading the text is enough."""
    return [(round(float(x1) - float(x0)), round(float(y1) - float(y0)))
            for x0, y0, x1, y1 in _MEDIA_BOX.findall(pdf)]


def test_media_boxes_reads_each_page_size() -> None:
    pdf = (b"1 0 obj << /Type /Page /MediaBox [0 0 792 612] >> endobj\n"
           b"2 0 obj << /Type /Page /MediaBox [ 0 0 612.0 792.0 ] >> endobj")
    assert media_boxes(pdf) == [(792, 612), (612, 792)]


#: what the print view shows that it should not, found in the DOM as printed
_LEFTOVERS_JS = r"""() => {
  const shown = el => el.getClientRects().length > 0 &&
                      getComputedStyle(el).visibility !== 'hidden';
  const out = [];
  document.body.innerText.split('\n').forEach(raw => {
    const line = raw.trim();
    const m = line.match(/(^|\s)[·|]\s*([·|]|$)/) || line.match(/^[·|]/);
    if (m) out.push('a stray separator: "…' + line.slice(Math.max(0, m.index - 40),
                                                     m.index + 5) + '"');
  });
  document.querySelectorAll('tr').forEach(tr => {
    if (shown(tr) && tr.innerText.trim() === '')
      out.push('empty row in table ' + (tr.closest('table').id || ''));
  });
  document.querySelectorAll('td, th').forEach(cell => {
    if (shown(cell) && cell.innerText.trim() === '' && cell.querySelector('a, form, button')) {
      const table = cell.closest('table'), row = cell.closest('tr');
      const th = table.querySelectorAll('thead th')[[...row.children].indexOf(cell)];
      out.push('a cell left empty by its hidden link, column "' +
               (th ? th.innerText.trim() : '?') + '" of table ' + (table.id || ''));
    }
  });
  document.querySelectorAll('body *').forEach(el => {
    if (['TD', 'TH', 'TR', 'TABLE', 'TBODY', 'THEAD', 'svg'].includes(el.tagName) ||
        el.closest('svg') || !shown(el) || el.innerText.trim() !== '') return;
    const s = getComputedStyle(el);
    if (['Top', 'Right', 'Bottom', 'Left'].some(
          side => parseFloat(s['border' + side + 'Width']) > 0 &&
                  s['border' + side + 'Style'] !== 'none'))
      out.push('an empty ' + el.tagName.toLowerCase() + ' with a border (a rule)');
  });
  return out;
}"""


def _width(page: Any) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def _problems(page: Any, server: str, p: Printed, out: Path) -> list[str]:
    found: list[str] = []
    page.set_viewport_size({"width": SCREEN_WIDTH_PX, "height": 900})
    page.emulate_media(media="screen")
    response = page.goto(f"{server}{p.path}")
    assert response is not None and response.ok, (p.what, response and response.status)
    if (w := _width(page)) > SCREEN_WIDTH_PX:
        found.append(f"on a {SCREEN_WIDTH_PX} px screen it is {w} px wide")

    printable = PRINTABLE_WIDTH_PX[p.landscape]
    page.emulate_media(media="print")
    page.set_viewport_size({"width": printable, "height": 900})
    if (w := _width(page)) > printable:
        found.append(f"printed, it is {w} px wide on a page {printable} px wide")
    found += page.evaluate(_LEFTOVERS_JS)

    pdf = page.pdf(format="Letter", landscape=not p.landscape, prefer_css_page_size=True,
                   print_background=True)
    name = re.sub(r"[^a-z0-9]+", "-", p.what.lower()).strip("-")
    (out / f"{name}.pdf").write_bytes(pdf)
    boxes = media_boxes(pdf)
    expected = LETTER_LANDSCAPE_PT if p.landscape else LETTER_PORTRAIT_PT
    if not boxes or any(b != expected for b in boxes):
        found.append(f"its PDF pages are {sorted(set(boxes))} pt, not Letter {expected}")
    return [f"{p.what} ({p.path}): {f}" for f in found]


def test_every_report_and_printable_fits_letter(server, browser, monkeypatch,  # noqa: F811
                                                tmp_path) -> None:
    monkeypatch.setattr(_day, "projections", SimpleNamespace(catch_up=caught_up))
    try:
        d = committed_day()
        _explained_and_signed_off(d)
        context = browser.new_context()
        page = context.new_page()
        log_in(page, server, d.team["finance"].username, "/finance/reports/")
        problems: list[str] = []
        for p in _pages(d):
            problems += _problems(page, server, p, tmp_path)
        context.close()
    finally:
        # the test's own ORM calls ran beside Playwright's event loop, on a connection of
        # their own: closed here, so no session outlives the test
        connections.close_all()
    assert problems == [], "\n".join(problems)
