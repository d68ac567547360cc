"""The API walker's time-and-money checks (tests/casino/test_api_shows_time_and_money.py)
applied to answers the walker never reads: the answers of commands and the refusals.

Issue 22: "every refusal message that reaches a person states amounts in dollars and
times in the property's zone", and JSON carries cents only in ``…_cents`` fields (with
one shape of jackpot contributions). The walker reads each GET of a seeded day; the
example requests (tests/casino/test_api_reference.py) and the fuzz
(tests/casino/test_api_fuzz.py) send every command, by every role, valid and not, so each
of their answers is held to the same rules here:

* a 2xx JSON body: everything :func:`problems_in` checks;
* a problem (``application/problem+json``): its ``detail``, the sentence a person reads,
  by the walker's text check; its structured members (``open_items``, amounts …) by
  :func:`problems_in`. ``errors`` — a field's validation messages — is left out: it
  names the values the caller sent, as sent.

The tests that send the requests import :func:`answer_problems`; the test here is its own
check, on the sentences the issue is about.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from tests.casino.test_api_shows_time_and_money import _text_problems, problems_in

#: A figure given in cents to a person: "(100, 500, 2500 cents)", "short 1,000 cents".
CENTS_FIGURE = re.compile(r"-?\d[\d,]*\s*(?:cents?|¢)(?!\w)", re.IGNORECASE)
#: An amount a refusal names through a verb or a preposition, which the walker's
#: ``BARE_AMOUNT`` (a money word right before its figure) passes: "short by 1000", "the
#: minimum bet is 500", "over the cap of 300".
REFUSAL_AMOUNT = re.compile(
    r"\b(amount|total|minimum|maximum|min|max|limit|cap|balance|short|over|owed|expected|"
    r"counted|bet|wager|ante|pot|rake|stack|stakes|fee|charge|buy-in|drop|fill|credit|"
    r"sale|award|payout|prize|variance|opener|closer)s?"
    r"(?:\s+(?:is|was|were|are|of|by|at|than|from|to|be))+\s+-?\d[\d,]*(?![\d,])(?!\.\d)"
    r"(?!\s*(?:%|x\b|:|cards?|hands?|rounds?|seats?|players?|times?|positions?|minutes?|"
    r"hours?|days?|characters?|commands?|pieces?|items?|bytes?|chips?|decks?))",
    re.IGNORECASE)

#: problem members that are not a person's sentence or a figure of the product
PROBLEM_PLUMBING = frozenset({"type", "title", "status", "code", "field", "errors"})


def zone_abbreviations(time_zone: str, year: int | None = None) -> set[str]:
    """The property's zone as its clock is written in winter and in summer ("EST",
    "EDT")."""
    zone = ZoneInfo(time_zone)
    year = year or datetime.now(zone).year
    return {str(datetime(year, month, 15, 12, tzinfo=zone).tzname()) for month in (1, 7)}


def refusal_text_problems(text: str, time_zones: set[str]) -> list[str]:
    """The walker's text check, and the figures a refusal gives in cents or after a verb
    or a preposition."""
    return (_text_problems(text, time_zones)
            + [f"amount in cents: {m.group(0)!r}" for m in CENTS_FIGURE.finditer(text)]
            + [f"amount without its unit: {m.group(0)!r}"
               for m in REFUSAL_AMOUNT.finditer(text)])


def answer_problems(status: int, content_type: str, content: bytes | str,
                    zones: set[str]) -> list[str]:
    """What an API answer shows of time and money other than one way. Only JSON is read
    (a 2xx body or a problem); anything else, and 1xx/3xx/5xx, answers ``[]`` — a 500 is
    the fuzz's own failure."""
    if "json" not in (content_type or "") or not content:
        return []
    if not (200 <= status < 300 or 400 <= status < 500):
        return []
    try:
        body = json.loads(content)
    except ValueError:
        return []  # not JSON after all: the schema checks say so
    if 200 <= status < 300:
        return problems_in(body, zones)
    if not isinstance(body, dict):
        return []
    found = []
    if isinstance(body.get("detail"), str):
        found += [f"detail: {p}" for p in refusal_text_problems(body["detail"], zones)]
    rest = {k: v for k, v in body.items() if k not in PROBLEM_PLUMBING and k != "detail"}
    return found + problems_in(rest, zones)


def test_answer_problems_reads_commands_and_refusals() -> None:
    """A refusal in cents or on UTC's clock is found in its ``detail``; a command's answer
    by the walker's rules; a validation message echoing the caller's input is not the
    product's text (issue 22, Bad input)."""
    zones = zone_abbreviations("America/New_York", 2026)
    assert zones == {"EST", "EDT"}
    problem = "application/problem+json"
    refusal = {"type": "urn:casino:problem:x", "title": "X", "status": 409, "code": "x"}
    assert answer_problems(409, problem, json.dumps(
        {**refusal, "detail": "the box is short by 1000"}), zones)
    assert answer_problems(409, problem, json.dumps(
        {**refusal, "detail": "the fund holds $24"}), zones)
    assert answer_problems(409, problem, json.dumps(
        {**refusal, "detail": "the day ends at 06:00 UTC"}), zones)
    assert answer_problems(409, problem, json.dumps(
        {**refusal, "detail": "short", "variance": 1000}), zones)
    assert answer_problems(400, problem, json.dumps(
        {**refusal, "detail": "'7' is not a denomination (100, 500, 2500 cents)"}), zones)
    assert answer_problems(400, problem, json.dumps(
        {**refusal, "detail": "the minimum bet is 500"}), zones)
    assert not answer_problems(400, problem, json.dumps(
        {**refusal, "detail": "at most 64 commands in one batch; seats are numbered 1 to "
                              "10; a stack must be whole cents; the minimum bet is $5.00"}),
        zones)
    assert not answer_problems(409, problem, json.dumps(
        {**refusal, "detail": "the box is short by $10.00; the day ends Nov 25, 2026, "
                              "6:00 AM EST", "variance_cents": 1000}), zones)
    assert not answer_problems(400, problem, json.dumps(
        {**refusal, "detail": "the request has invalid fields",
         "errors": {"note": ["'pot 40' is not a valid choice."]}}), zones)
    assert answer_problems(201, "application/json", json.dumps({"pot": 4800}), zones)
    assert answer_problems(200, "application/json", json.dumps(
        {"contributions": [["bad_beat", 100]]}), zones)
    assert not answer_problems(201, "application/json", json.dumps({"pot_cents": 4800}),
                               zones)
    assert not answer_problems(200, "text/plain", "pot 4800", zones)
