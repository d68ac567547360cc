"""A crawl of the console in Chromium (issue 23, item 7): from ``/console/``, every
same-origin link under ``/console/`` is followed, each kind of page once (ids, numbers and
days collapsed into a pattern), and each page checked as a person with a screen reader, a
keyboard or a 768 px tablet meets it. Only GETs: never a form submitted, never the logout.

What a page is checked for (``page_faults``): it answered 200; axe-core finds no serious or
critical violation (``tests/console/_axe.py``), also with each of its disclosures opened;
nothing scrolls sideways (``scrollWidth <= innerWidth``); exactly one ``<h1>``; the first
Tab from the top focuses the skip link."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tests.console._axe import serious_violations

SKIP_LINK = "Skip to the main content"
#: what the crawl never opens: logging out (a POST anyway), the home's fragment (not a page)
NEVER = ("/console/logout/", "/console/waiting/")

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_NUMBER = re.compile(r"(?<![A-Za-z])\d+")


def pattern(url: str) -> str:
    """The kind of page a URL is: its path with ids, days and numbers collapsed, and the
    names (not the values) of its query's parameters, so ``/console/tables/<id>/`` is one
    page whatever the table, and ``/console/events/?type=X`` one filter whatever X."""
    parts = urlsplit(url)
    path = _NUMBER.sub("<n>", _DAY.sub("<day>", _UUID.sub("<id>", parts.path)))
    # a stream's id is a kind and an id ("deck-<id>"): its kind is the page's kind
    path = re.sub(r"(/console/events/stream/)[^/]*?-?<(id|n)>/", r"\1<stream>/", path)
    keys = sorted({k for k, _ in parse_qsl(parts.query, keep_blank_values=True)})
    return path + (f"?{'&'.join(keys)}" if keys else "")


def followed(href: str, origin: str) -> str | None:
    """The URL to visit for a link (without its fragment), or None if the crawl leaves it."""
    parts = urlsplit(href)
    if f"{parts.scheme}://{parts.netloc}" != origin or not parts.path.startswith("/console/"):
        return None
    if any(parts.path.startswith(p) for p in NEVER):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


_CHECKS = """() => {
  const d = document.documentElement;
  return {h1: document.querySelectorAll("h1").length,
          scroll: d.scrollWidth, inner: window.innerWidth,
          links: Array.from(document.querySelectorAll("a[href]"), a => a.href)};
}"""
_FOCUSED = """() => {
  const e = document.activeElement;
  return e ? (e.textContent || "").trim() : "";
}"""
#: the page's closed disclosures: a button that says aria-expanded="false" (the nav's
#: Menu at 768 px, any other) and a details element's summary; only the visible ones
_DISCLOSURES = """(skip) => {
  const shown = e => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length);
  const all = [...document.querySelectorAll('[aria-expanded="false"], details:not([open]) > summary')];
  return all.filter(e => shown(e) && !(skip && e.matches(skip))).map((e, i) => {
    e.setAttribute("data-crawl-disclosure", String(i));
    return (e.textContent || "").trim().slice(0, 40) || e.tagName;
  });
}"""


@dataclass
class Visit:
    """One page seen: where, as whom, and what was wrong with it."""
    url: str
    role: str
    faults: list[str] = field(default_factory=list)
    #: the page whose link led here (None for where the crawl starts)
    found_on: str | None = None


def page_faults(page: Any, response: Any, *, skip_disclosures: str | None = None,
                width_only: bool = False) -> tuple[list[str], list[str]]:
    """``(faults, links)`` of the page Playwright has just loaded: see the module's
    docstring. ``width_only`` checks the width and axe only (the home at 1280 px);
    ``skip_disclosures`` is a selector of openers not opened here (opened elsewhere)."""
    faults: list[str] = []
    status = response.status if response is not None else None
    if status != 200:
        faults.append(f"answered {status}")
    facts = page.evaluate(_CHECKS)
    if facts["scroll"] > facts["inner"]:
        faults.append(f"scrolls sideways at {facts['inner']} px: {facts['scroll']} px wide")
    faults += [f"axe: {v}" for v in serious_violations(page)]
    if width_only:
        return faults, facts["links"]
    if facts["h1"] != 1:
        faults.append(f"{facts['h1']} <h1> elements (one wanted)")
    page.keyboard.press("Tab")
    focused = page.evaluate(_FOCUSED)
    if focused != SKIP_LINK:
        faults.append(f"the first Tab focuses {focused[:60]!r}, not the skip link")
    for i, label in enumerate(page.evaluate(_DISCLOSURES, skip_disclosures)):
        opener = page.locator(f'[data-crawl-disclosure="{i}"]')
        try:
            opener.click(timeout=2000)
        except Exception as e:  # noqa: BLE001  (a disclosure nobody can open is a fault)
            faults.append(f"the disclosure {label!r} does not open: {type(e).__name__}")
            continue
        faults += [f"axe with {label!r} open: {v}" for v in serious_violations(page)]
        if page.evaluate(_CHECKS)["scroll"] > facts["inner"]:
            faults.append(f"scrolls sideways with {label!r} open")
    return faults, facts["links"]


def crawl(page: Any, origin: str, role: str, *, limit: int, deadline: float,
          start: str = "/console/") -> tuple[list[Visit], list[str]]:
    """Breadth first from ``start``: each kind of page once, at most ``limit`` pages, and
    nothing begun after ``deadline`` (``time.monotonic()``). Returns the visits and the
    URLs left unvisited (by the limit or the time)."""
    queue: list[tuple[str, str | None]] = [(start, None)]
    seen, visits, left = {pattern(start)}, [], []
    while queue:
        url, found_on = queue.pop(0)
        if len(visits) >= limit or time.monotonic() > deadline:
            left.append(url)
            continue
        response = page.goto(origin + url, wait_until="load")
        # the nav's Menu is the same on every page: opened on the first (the home) only
        faults, links = page_faults(page, response,
                                    skip_disclosures="[data-nav-toggle]" if visits else None)
        visits.append(Visit(url=url, role=role, faults=faults, found_on=found_on))
        for href in links:
            target = followed(href, origin)
            if target is not None and pattern(target) not in seen:
                seen.add(pattern(target))
                queue.append((target, url))
    return visits, left


def report(visits: Iterable[Visit]) -> str:
    """Every bad page with all its faults, one line each, and where its link was."""
    return "\n".join(f"[{v.role}] {v.url}: {f}"
                     + (f" (linked from {v.found_on})" if v.found_on else "")
                     for v in visits for f in v.faults)
