"""A crawler of the Django admin for tests/casino/test_admin_crawl.py: it signs nothing,
follows every link within ``/admin/`` from the pages it is given, and reports what each
page must not hold — a form that changes data, a secret, another property's mark, a 5xx.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

LOGOUT = "/admin/logout/"
#: controls a person could fill in; a hidden input, a submit or a search box changes nothing
#: by itself (a hidden one only inside a form that posts, which is failed anyway)
HARMLESS_INPUTS = {"hidden", "submit", "button", "reset", "search", "checkbox"}
#: at most this many query strings of one path (filters and orderings combine without end;
#: a list's filter choices are on its first page, which is checked whole)
QUERIES_PER_PATH = 3
MOST_PAGES = 5000


class PageParser(HTMLParser):
    """The links of a page, its forms and the fields outside a form read with GET."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.posting_forms: list[str] = []  # the action of each <form method=post>
        self.fields: list[str] = []  # an editable control not in a GET form
        self._forms: list[str] = []  # the method of each open <form>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "form":
            method = a.get("method", "get").lower()
            self._forms.append(method)
            if method != "get":
                self.posting_forms.append(a.get("action", ""))
        elif tag in ("input", "textarea", "select"):
            kind = a.get("type", "text").lower() if tag == "input" else tag
            in_get_form = bool(self._forms) and self._forms[-1] == "get"
            if kind not in HARMLESS_INPUTS and not in_get_form:
                self.fields.append(f"<{tag} name={a.get('name', '')!r} type={kind!r}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self._forms:
            self._forms.pop()


@dataclass
class Crawl:
    """What a crawl saw: each URL's status, and each finding as "<url>: <what>"."""

    client: Any
    secrets: dict[str, str]  # the secret's value → what it is
    other_marks: list[str]  # text only the other property's rows hold
    statuses: dict[str, int] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)
    _per_path: dict[str, int] = field(default_factory=dict)

    def run(self, starts: list[str]) -> Crawl:
        queue = deque(starts)
        while queue:
            url = queue.popleft()
            if url in self.statuses:
                continue
            assert len(self.statuses) < MOST_PAGES, "the crawl found no end"
            queue.extend(self.visit(url))
        return self

    def visit(self, url: str) -> list[str]:
        response = self.client.get(url)
        self.statuses[url] = response.status_code
        if response.status_code >= 500:
            self.findings.append(f"{url}: answered {response.status_code}")
        if response.status_code in (301, 302, 303, 307, 308):
            return self._admin_urls(url, [response["Location"]])
        body = response.content.decode("utf-8", "replace")
        self.check_text(url, body)
        if "html" not in response.get("Content-Type", ""):
            return []
        page = PageParser()
        page.feed(body)
        for action in page.posting_forms:
            if urljoin(url, action) != LOGOUT:
                self.findings.append(f"{url}: a form that posts to {action or 'itself'}")
        for control in page.fields:
            self.findings.append(f"{url}: an input outside a search {control}")
        return self._admin_urls(url, page.links)

    def check_text(self, url: str, body: str) -> None:
        lowered = body.lower()
        for value, what in self.secrets.items():
            if value.lower() in lowered:
                self.findings.append(f"{url}: shows {what}")
        for mark in self.other_marks:
            if mark.lower() in lowered:
                self.findings.append(f"{url}: shows the other property's {mark!r}")

    def _admin_urls(self, base: str, hrefs: list[str]) -> list[str]:
        urls = []
        for href in hrefs:
            parts = urlsplit(urljoin(base, href))
            if parts.netloc not in ("", "testserver") or not parts.path.startswith("/admin/"):
                continue
            if parts.path == LOGOUT:
                continue
            query = urlencode(sorted(parse_qsl(parts.query, keep_blank_values=True)))
            url = parts.path + (f"?{query}" if query else "")
            if query:
                seen = self._per_path.get(parts.path, 0)
                if seen >= QUERIES_PER_PATH or url in self.statuses:
                    continue
                self._per_path[parts.path] = seen + 1
            urls.append(url)
        return urls
