"""The Bad Beat block of the table sign (§ 637a.15(b)): the posted qualifying hand said
once, in words, and the block laid out within its column rule, looked at in Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from tables.domain.rules_options import example_options
from tables.domain.signage import signage_for
from tests.tables._api import ok as _ok

pytestmark = pytest.mark.django_db
V1 = "/api/v1"

#: the example Hold'em submission's qualifying hand, worked out by hand (§ 637a.15(b)(3))
QUALIFYING = ("a losing hand of four of a kind, eights or better; both hole cards must "
              "play; at least 4 players dealt in")


def _bad_beat_lines(options: dict[str, Any]) -> dict[str, str]:
    sign = signage_for("holdem", options)
    block = next(s for s in sign["sections"] if s["title"] == "Bad Beat payout")
    return {line["label"]: line["value"] for line in block["lines"]}


@pytest.mark.regulation("637a.15(b)(3)")
def test_the_qualifying_hand_says_or_better_once() -> None:
    """§ 637a.15(b)(3): four of a kind of eights or better, beaten: one "or better"; a
    submission without a least rank says the category alone."""
    from tables.domain.rules_options import validate_options

    options = validate_options("holdem", example_options("holdem"))
    assert _bad_beat_lines(options)["Qualifying Bad Beat"] == QUALIFYING
    q = options["bad_beat"]["qualifying_hand"]
    options["bad_beat"]["qualifying_hand"] = {**q, "losing_hand_at_least": "full-house",
                                              "rank_at_least": None,
                                              "both_hole_cards_must_play": False}
    assert _bad_beat_lines(options)["Qualifying Bad Beat"] == (
        "a losing hand of full house or better; at least 4 players dealt in")


def _measure(html: str, request: pytest.FixtureRequest) -> list[dict[str, Any]]:
    """The Bad Beat block's measures in Chromium at a Letter page's width (96 px an inch)
    and a narrow screen's. The shared ``browser`` fixture is asked for only after the
    test's reads: Playwright's event loop in this thread would give the ORM another
    connection than the test's transaction. (Without Chromium it skips, or fails on CI.)"""
    browser = request.getfixturevalue("browser")
    out = []
    page = browser.new_page()
    try:
        for width in (816, 560):
            page.set_viewport_size({"width": width, "height": 1200})
            page.set_content(html)
            out.append({"width": width, **page.evaluate(MEASURE)})
    finally:
        page.close()
    return out


#: in the page: the tallest Bad Beat label (its text alone), a line's height, how far the
#: furthest value runs past the section's rule, and whether the qualifying sentence sits
#: under its label
MEASURE = """() => {
  const h2 = [...document.querySelectorAll('h2')]
    .find(h => h.textContent.trim() === 'Bad Beat payout');
  const table = h2.nextElementSibling;
  const rule = h2.getBoundingClientRect().right;
  const line = parseFloat(getComputedStyle(table.querySelector('td')).lineHeight) || 20;
  const labels = [...table.querySelectorAll('td')]
    .filter(td => !td.classList.contains('value'));
  const tallest = Math.max(...labels.map(td => {
    const r = document.createRange();
    r.selectNodeContents(td.firstChild);
    return r.getBoundingClientRect().height; }));
  const values = [...table.querySelectorAll('.value')].filter(v => v.textContent.trim());
  return {tallest, line,
          overflow: Math.max(...values.map(v => v.getBoundingClientRect().right)) - rule,
          sentenceUnderLabel: values.some(v => v.tagName === 'DIV'
            && v.textContent.includes('eights or better'))};
}"""


@pytest.mark.browser
def test_the_bad_beat_block_stays_within_its_rule(api_as: Any,
                                                   request: pytest.FixtureRequest) -> None:
    """§ 637a.15(b): the sign as served (the API's HTML), set in Chromium at a Letter
    page's width and narrower: each Bad Beat label on one line, every value inside the
    section's rule, the qualifying sentence under its label."""
    compliance, admin = api_as("compliance"), api_as("admin")
    rs = _ok(compliance.post(f"{V1}/rules-submissions/", {
        "game": "holdem", "options": example_options("holdem")}, format="json"), 201)
    _ok(compliance.post(f"{V1}/rules-submissions/{rs['id']}/submit/"))
    _ok(api_as("compliance").post(f"{V1}/rules-submissions/{rs['id']}/approve/", {},
                                  format="json"))
    table = _ok(admin.post(f"{V1}/tables/", {
        "name": "HOLDEM-1", "game": "holdem", "positions": 10, "dealing_method": "hand",
        "shuffler": "automated"},
        format="json"), 201)
    page_html = admin.get(f"{V1}/tables/{table['id']}/signage?format=html").content.decode()
    assert QUALIFYING in page_html
    for found in _measure(page_html, request):
        assert found["tallest"] < 1.5 * found["line"], found
        assert found["overflow"] <= 0.5, found
        assert found["sentenceUnderLabel"], found
