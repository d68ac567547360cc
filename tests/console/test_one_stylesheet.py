"""One base template and one stylesheet (issue 23, item 1): the console, the boards, the
reports, the table signs and the printables are all pages of ``console/base.html`` (directly
or through ``console/page.html`` / ``console/print.html``), styled by
``console/static/console/casino.css`` alone and scripted by ``console.js`` alone, so the
Content-Security-Policy (``script-src 'self'; style-src 'self'``) needs no exemption for them.

Every template of the repository is read (the admin's and DRF's own templates live in
their packages under .venv and are not ours). A template whose name starts with ``_`` is an
include, a piece of a page or an htmx fragment, and extends nothing; every other template
is a page and must reach ``console/base.html`` through its ``{% extends %}`` chain.
Exceptions are listed by name with their reason (the Django admin's pages of ours)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", "var", "docs", "node_modules", ".git", "site"}
BASE = "console/base.html"
#: page templates that may not extend the base, each with its reason
EXCEPTIONS: dict[str, str] = {
    BASE: "the base itself",
    **{f"casino/admin/{name}.html": "a page of the Django admin, on the admin's own base "
       "and styles (casino.admin: the read-only views, issue 35)"
       for name in ("index", "password_change_refused", "read_only_change_form",
                    "read_only_change_list", "read_only_inline")},
}
#: stylesheets of ours: only the one
STYLESHEETS_ALLOWED = {"console/static/console/casino.css"}

EXTENDS = re.compile(r"""\{%\s*extends\s+["']([^"']+)["']\s*%\}""")
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I)
STYLE_BLOCK = re.compile(r"<style\b", re.I)
STYLE_ATTRIBUTE = re.compile(r"""\sstyle\s*=\s*["']""", re.I)
HANDLER_ATTRIBUTE = re.compile(r"""\son[a-z]+\s*=\s*["']""", re.I)


def _templates() -> dict[str, Path]:
    """``{"finance/report.html": path}``: every template under an app's templates/."""
    found: dict[str, Path] = {}
    for path in ROOT.rglob("templates/**/*.html"):
        rel = path.relative_to(ROOT)
        if set(rel.parts) & SKIP:
            continue
        name = "/".join(rel.parts[rel.parts.index("templates") + 1:])
        found[name] = path
    return found


TEMPLATES = _templates()


def test_the_repository_has_templates_to_check() -> None:
    # the walk finds the pages this test is about (a wrong ROOT would pass everything)
    for name in ("console/base.html", "console/print.html", "poker_room/board.html",
                 "jackpots/board.html", "finance/report.html", "tables/signage.html",
                 "finance/console/print_slip.html"):
        assert name in TEMPLATES, name


def test_no_template_has_an_inline_script_a_style_block_or_a_style_attribute() -> None:
    faults = []
    for name, path in sorted(TEMPLATES.items()):
        text = path.read_text()
        for what, pattern in (("inline <script>", INLINE_SCRIPT), ("<style>", STYLE_BLOCK),
                              ('style="…"', STYLE_ATTRIBUTE),
                              ("an inline event handler (on…=)", HANDLER_ATTRIBUTE)):
            if pattern.search(text):
                faults.append(f"{name}: {what}")
    assert faults == []


def test_the_checks_catch_what_they_are_for() -> None:
    # each pattern finds its fault and passes the allowed form
    assert INLINE_SCRIPT.search("<script>var a = 1;</script>")
    assert INLINE_SCRIPT.search('<script type="module">x()</script>')
    assert not INLINE_SCRIPT.search('<script src="/static/console/console.js" defer></script>')
    assert STYLE_BLOCK.search("<style>body{}</style>")
    assert STYLE_ATTRIBUTE.search('<td style="color:red">')
    assert not STYLE_ATTRIBUTE.search('<td class="style">')
    assert HANDLER_ATTRIBUTE.search('<button onclick="print()">')
    assert not HANDLER_ATTRIBUTE.search("<button data-print>")


def _chain(name: str) -> list[str]:
    seen = [name]
    while True:
        m = EXTENDS.search(TEMPLATES[seen[-1]].read_text()) if seen[-1] in TEMPLATES else None
        if m is None:
            return seen
        seen.append(m.group(1))
        if len(seen) > 10:
            return seen


def test_every_page_template_extends_the_one_base() -> None:
    faults = []
    for name in sorted(TEMPLATES):
        if name.rsplit("/", 1)[-1].startswith("_") or name in EXCEPTIONS:
            continue
        chain = _chain(name)
        if chain[-1] != BASE:
            faults.append(" → ".join(chain))
    assert faults == []


def test_the_printables_extend_the_printable_base_and_the_boards_the_base() -> None:
    for name in TEMPLATES:
        if "/console/print_" in name:
            assert _chain(name)[1] == "console/print.html", name
    assert _chain("console/print.html")[-1] == BASE
    for name in ("poker_room/board.html", "jackpots/board.html", "tables/signage.html",
                 "finance/report.html", "jackpots/report.html", "jackpots/report_periods.html"):
        assert _chain(name)[1] == BASE, name


def test_there_is_one_stylesheet_of_ours() -> None:
    css = {str(p.relative_to(ROOT)) for p in ROOT.rglob("static/**/*.css")
           if not set(p.relative_to(ROOT).parts) & SKIP and "vendor" not in p.parts}
    assert css == STYLESHEETS_ALLOWED


def test_the_print_section_sets_every_colour_to_black_on_white() -> None:
    """Black and white must read (issue 23, item 5): in print every colour is black and
    every background white or none, so nothing is said by colour alone on paper."""
    css = (ROOT / "console/static/console/casino.css").read_text()
    prints = re.findall(r"@media print\s*\{(.*?)\n\}", css, re.S)
    assert prints, "no @media print section"
    joined = "\n".join(prints)
    assert re.search(r"\*[^{]*\{[^}]*color:\s*#000\s*!important", joined)
    assert re.search(r"background:\s*(transparent|#fff)\s*!important", joined)
    # the pages: Letter portrait by default, a report landscape through its named page
    assert re.search(r"@page\s*\{\s*size:\s*letter;", css)
    assert re.search(r"@page report\s*\{\s*size:\s*letter landscape;", css)


def test_the_moved_pages_get_the_strict_policy(db: None, make_staff: Any) -> None:
    """The boards, finance's reports and the table sign need no loosening any more: their
    answers carry ``script-src 'self'; style-src 'self'`` with nothing inline allowed."""
    from django.test import Client

    c = Client()
    c.force_login(make_staff("finance", "floorperson"))
    for url in ("/finance/reports/", "/poker/board/", "/jackpots/board/"):
        r = c.get(url)
        assert r.status_code == 200, url
        policy = r["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy, url
        assert "unsafe-inline" not in policy, url
