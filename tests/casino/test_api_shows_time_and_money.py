"""Every API answer of a seeded day shows time and money one way (issue 22, items 1 and 2).

The demo property is seeded and a short gaming day simulated through the services
(``simulate_gaming_day``: banked rounds, Hold'em hands with rake and jackpot
contributions, chip sales, fills, credits, the counts, the close). Then every GET
operation of the OpenAPI schema is read, by the first demo role the operation admits,
with its path parameters filled from real rows — an operation the walk cannot fill
fails, so a new one is in the walk the day it is added. Each answer fails on:

* a string that looks like a timestamp without its offset ("2026-11-25T20:00");
* an integer that is money (its name says so: amount, pot, rake, wagered, …) in a field
  not named ``…_cents``;
* a text a person reads with an amount not written "$x.xx" ("wagered 40", "$24"), or a
  time of day without the property's zone abbreviation ("01:13 UTC" at an EST property).

The events' own data are the record and keep their names (``data`` of an event), so the
money-name rule skips them; their timestamps are still checked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.casino._seeded_day import demo_day

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

#: "2026-11-25T20:00", "2026-11-25 20:00:00.123" — a wall clock that does not say where.
NAIVE_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$")
#: ISO 8601 with its offset (or Z) anywhere in a text: it says where it is.
AWARE_TIMESTAMP = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})")
#: Words that make an integer field money when they are part of its name.
MONEY_WORDS = frozenset({
    "amount", "pot", "rake", "raked", "wagered", "returned", "win", "won", "drop", "paid",
    "payout", "payouts", "fee", "fees", "ante", "bet", "wager", "stake", "stack", "chips",
    "balance", "fill", "fills", "credit", "credits", "sales", "counted", "expected",
    "variance", "cap", "contribution", "contributed", "charge", "charges", "fund", "held",
    "opener", "closer", "revenue", "owed", "committed", "displayed", "price", "cost",
    "buy", "buyin", "net", "gross", "dollars", "money", "tray", "prize", "award"})
#: Integers whose names hold a money word but that count things (each with why).
NOT_MONEY = frozenset({
    "contributions",  # Fund: how many pots paid in
    "hands_raked",  # a count of hands
})
#: Words that make an integer a count, whatever else its name says ("chip_sales_count").
COUNT_WORDS = frozenset({"count", "number", "hands", "rounds", "seats", "version"})
#: An amount in words a person reads without its unit: "wagered 40", "pot 4800".
BARE_AMOUNT = re.compile(
    r"\b(wagered|returned|paid|pays|won|lost|pot|rake|raked|bet|bets|ante|amount|"
    r"contributed|contribution|stack|chips|fee|owed|short|over|expected|counted)"
    r"\s*[:=]?\s+-?\d[\d,]*(?![\d,])(?!\.\d)(?!\s*(?:cents|%|x\b|:|to\b|for\b|st|nd|rd|th|"
    r"cards?|hands?|rounds?|seats?|players?|times?|positions?|minutes?|hours?|days?))",
    re.IGNORECASE)
#: "$24", "$1,860", "$5.5": dollars without both decimals.
SHORT_DOLLARS = re.compile(r"\$-?\d(?:[\d,]*\d)?(?![\d,])(?!\.\d\d)")
#: a time of day in a text; it must carry AM/PM and the zone's abbreviation.
TIME_OF_DAY = re.compile(r"(?<![\dT:-])(\d{1,2}:\d{2})(:\d{2})?(?![\d:])(\s?[AP]M)?(\s+[A-Z]{2,5})?")


@pytest.fixture(scope="module")
def seeded(django_db_setup: None, django_db_blocker: Any,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The demo property and one short simulated gaming day (committed), and a High Hand
    slip for a hand of that day (``tests/casino/_seeded_day.py``)."""
    with django_db_blocker.unblock(), demo_day(tmp_path_factory.mktemp("var"),
                                               commands=("seed_demo",), deals=2) as seeded:
        prop, day, _printed = seeded
        _record_a_high_hand(prop, day)
        _list_a_player(prop)
        yield {"day": day, "property": prop}


def _funds_followed(prop: Any) -> None:
    """The jackpots follower brought up to date by rebuilding it from the log under the
    append lock, as ``tests/finance/_live.py`` does (a catch-up reads only settled events,
    and a transaction open anywhere on the PostgreSQL server would hold it back); then
    the funds' rows are there."""
    from casino.eventstore import projections
    from jackpots.models import Fund

    projections.rebuild("jackpot_funds")
    assert Fund.objects.filter(property=prop, name="high-hand").exists(), (
        "the demo has no high-hand fund after the jackpots follower was rebuilt")


def _list_a_player(prop: Any) -> None:
    """A Hold'em list with a player on it (issue 24): its fairness record answers today's
    steps with their times."""
    from django.contrib.auth import get_user_model

    from casino.actors import actor_of
    from poker_floor.services.lists import player_list, waitlist_open

    floor = actor_of(get_user_model().objects.get(username="demo_floorperson"))
    waitlist = waitlist_open(actor=floor, game="holdem")
    player_list(actor=floor, waitlist_id=waitlist.pk, name="Pat Doe")


def _record_a_high_hand(prop: Any, day: Any) -> None:
    """A full house written on the High Hand tracking slip for a hand made in the simulated
    day (§ 637a.16(f)): the slips list then answers a period (§ 637a.16(b)(1))."""
    from datetime import datetime, time
    from zoneinfo import ZoneInfo

    from django.contrib.auth import get_user_model

    from casino.actors import actor_of
    from jackpots.services.counts import counts_due
    from jackpots.services.high_hand import high_hand_periods_close_due, high_hand_record
    from tables.models import GameTable

    _funds_followed(prop)
    users = get_user_model().objects
    floor = actor_of(users.get(username="demo_floorperson"))
    table = GameTable.objects.get(name="SIM-HOLDEM-1")
    made_at = datetime.combine(day, time(20, 10), tzinfo=ZoneInfo(prop.time_zone))
    slip = high_hand_record(actor=floor, fund="high-hand", table_id=str(table.pk), seat=1,
                            cards=["Ks", "Kd", "Kh", "5c", "5d"],
                            player={"name": "Pat Doe", "phone": "555-0101"},
                            dealer="demo_dealer", made_at=made_at)
    # the beat's work once the period is over: the period closed with its award
    # (§ 637a.16(g)) and its boxes' count opened (§ 637a.16(d)), keyed by the period
    after = datetime.fromisoformat(str(slip["period_end"])) + timedelta(seconds=1)
    high_hand_periods_close_due(now=after)
    counts_due(now=after)


# --- filling the path parameters from real rows ------------------------------------

def _rows(day: Any) -> dict[str, Callable[[], list[dict[str, str]]]]:
    """For each path (as the schema writes it), the parameters to read it with."""
    from django.contrib.auth import get_user_model

    from casino.eventstore.models import Event
    from finance.models import TableDay
    from jackpots.models import Fund
    from poker_floor.models import Waitlist
    from poker_room.models import PokerTable
    from tables.models import Deck, GameTable, Round, RulesSubmission

    def ids(qs: Any, key: str = "id") -> list[dict[str, str]]:
        return [{key: str(pk)} for pk in qs.values_list("pk", flat=True)[:3]]

    poker_tables = PokerTable.objects.filter(table__name__startswith="SIM-")
    banked_rounds = Round.objects.filter(table__poker__isnull=True)
    hands = Round.objects.filter(table__poker__isnull=False)
    funds = [{"name": n} for n in Fund.objects.values_list("name", flat=True)]
    table_days = [{"id": str(t), "day": day.isoformat()}
                  for t in TableDay.objects.filter(gaming_day=day)
                  .values_list("table_id", flat=True)]
    from finance import reports
    return {
        "/api/v1/decks/{id}/": lambda: ids(Deck.objects.all()),
        "/api/v1/waitlists/{id}/fairness/": lambda: ids(Waitlist.objects.all()),
        "/api/v1/decks/{id}/events/": lambda: ids(Deck.objects.all()),
        "/api/v1/finance/gaming-days/{day}/": lambda: [{"day": day.isoformat()}],
        "/api/v1/finance/reports/{name}/": lambda: [{"name": n} for n in reports.names()],
        "/api/v1/finance/tables/{id}/days/{day}/": lambda: table_days,
        "/api/v1/finance/tables/{id}/days/{day}/behind/": lambda: table_days,
        "/api/v1/hands/{id}/": lambda: ids(hands),
        "/api/v1/hands/{id}/history/": lambda: ids(hands),
        "/api/v1/hands/{id}/history/steps/": lambda: ids(hands),
        "/api/v1/hands/{id}/phh/": lambda: ids(hands),
        "/api/v1/jackpot-funds/{name}/bad-beats/": lambda: funds,
        "/api/v1/jackpot-funds/{name}/counts/": lambda: funds,
        "/api/v1/jackpot-funds/{name}/display-checks/": lambda: funds,
        "/api/v1/jackpot-funds/{name}/high-hands/": lambda: funds,
        "/api/v1/jackpot-funds/{name}/ledger/": lambda: funds,
        "/api/v1/jackpot-funds/{name}/report/": lambda: funds,
        "/api/v1/poker-tables/{id}/phh/": lambda: ids(poker_tables),
        "/api/v1/poker-tables/{id}/rake-ledger/": lambda: ids(poker_tables),
        "/api/v1/poker-tables/{id}/seats/": lambda: ids(poker_tables),
        "/api/v1/poker-tables/{id}/time-charges/": lambda: ids(poker_tables),
        "/api/v1/rounds/{id}/": lambda: ids(banked_rounds) + ids(hands),
        "/api/v1/rounds/{id}/play/": lambda: ids(banked_rounds),
        "/api/v1/rounds/{id}/reconstruction": lambda: ids(banked_rounds),
        "/api/v1/rules-submissions/{id}/": lambda: ids(RulesSubmission.objects.all()),
        "/api/v1/staff/{id}/": lambda: ids(get_user_model().objects.all()),
        "/api/v1/streams/{stream_id}/events/": lambda: [
            {"stream_id": s} for s in Event.objects.order_by().values_list(
                "stream_id", flat=True).distinct()[:5]],
        "/api/v1/tables/{id}/": lambda: ids(GameTable.objects.filter(name__startswith="SIM-")),
        "/api/v1/tables/{id}/events/": lambda: ids(
            GameTable.objects.filter(name__startswith="SIM-")),
        "/api/v1/tables/{id}/results/": lambda: ids(
            GameTable.objects.filter(name__startswith="SIM-")),
        "/api/v1/tables/{id}/signage": lambda: ids(
            GameTable.objects.filter(name__startswith="SIM-")),
    }


#: Query parameters that put the seeded day's rows in the answer.
def _query(day: Any) -> dict[str, str]:
    return {"gaming_day": day.isoformat(), "first": day.isoformat(), "last": day.isoformat()}


#: Operations whose answer has another shape with a query parameter: read each way.
VARIANTS: dict[str, list[dict[str, str]]] = {
    "/api/v1/jackpot-funds/{name}/report/": [{}, {"by": "period"}],
    "/api/v1/hands/{id}/phh/": [{}, {"format": "json"}],
    "/api/v1/poker-tables/{id}/phh/": [{}, {"format": "json"}],
}


# --- the checks ------------------------------------------------------------------

#: the key under which an event-shaped object carries the event's own data
RECORD_KEYS = ("data", "metadata", "details")


def _is_event(node: dict[str, Any]) -> bool:
    """An event as stored (``type`` and ``data``), or a step of a reconstruction that shows
    one (``event`` and its ``details``, the event's data with the cards as text)."""
    return {"type", "data"} <= node.keys() or {"event", "details"} <= node.keys()


def _text_problems(text: str, time_zone_abbreviations: set[str]) -> list[str]:
    found = []
    text = AWARE_TIMESTAMP.sub(" ", text)
    for m in BARE_AMOUNT.finditer(text):
        found.append(f"amount without its unit: {m.group(0)!r}")
    for m in SHORT_DOLLARS.finditer(text):
        found.append(f"dollars without cents: {m.group(0)!r}")
    for m in TIME_OF_DAY.finditer(text):
        zone = (m.group(4) or "").strip()
        if not m.group(3) or zone not in time_zone_abbreviations:
            found.append(f"time of day without AM/PM and the property's zone: {m.group(0)!r}")
    return found


def _walk(node: Any, where: str, zones: set[str], out: list[str], *,
          record: bool = False) -> None:
    if isinstance(node, dict):
        event = _is_event(node)
        for key, value in node.items():
            here = f"{where}.{key}"
            # the events' data are the record; a mapping named …_cents (wager -> cents)
            # already says its unit
            inside_record = record or (event and key in RECORD_KEYS)
            if str(key).endswith("_cents") and isinstance(value, dict):
                _walk(value, here, zones, out, record=True)
                continue
            if (not inside_record and isinstance(value, int) and not isinstance(value, bool)
                    and not str(key).endswith("_cents") and str(key) not in NOT_MONEY
                    and (str(key) == "cents"
                         or (MONEY_WORDS & set(str(key).lower().split("_"))
                             and not COUNT_WORDS & set(str(key).lower().split("_"))))):
                out.append(f"{here}: money {value} in a field not named …_cents")
            _walk(value, here, zones, out, record=inside_record)
    elif isinstance(node, list):
        for n, item in enumerate(node):
            _walk(item, f"{where}[{n}]", zones, out, record=record)
    elif isinstance(node, str):
        if NAIVE_TIMESTAMP.match(node):
            out.append(f"{where}: timestamp without offset {node!r}")
        elif not record:
            out.extend(f"{where}: {p}" for p in _text_problems(node, zones))


def problems_in(answer: Any, zones: set[str]) -> list[str]:
    out: list[str] = []
    _walk(answer, "$", zones, out)
    out.extend(contribution_problems(answer))  # defined at the end of this file
    return out


def test_the_checks_catch_what_the_issue_names() -> None:
    """The walker's own rules, on the strings the issue quotes (issue 22)."""
    zones = {"EST", "EDT"}
    assert problems_in({"start": "2026-11-25T20:00"}, zones) == [
        "$.start: timestamp without offset '2026-11-25T20:00'"]
    assert not problems_in({"start": "2026-11-26T02:00:00+00:00"}, zones)
    assert problems_in({"pot": 4800}, zones) == [
        "$.pot: money 4800 in a field not named …_cents"]
    assert not problems_in({"pot_cents": 4800, "hands": 12}, zones)
    assert problems_in({"text": "wagered 40, returned 110"}, zones) == [
        "$.text: amount without its unit: 'wagered 40,'",
        "$.text: amount without its unit: 'returned 110'"]
    assert not problems_in({"text": "wagered $0.40, returned $1.10"}, zones)
    assert problems_in({"detail": "change the deck by 01:13 UTC"}, zones) == [
        "$.detail: time of day without AM/PM and the property's zone: '01:13 UTC'"]
    assert not problems_in({"detail": "change the deck by Nov 25, 2026, 8:13 PM EST"}, zones)
    assert problems_in({"text": "the fund holds $24"}, zones) == [
        "$.text: dollars without cents: '$24'"]
    assert not problems_in({"type": "HandEnded", "event_id": "x", "data": {"pot": 4800}},
                           zones)


# --- the walk ----------------------------------------------------------------------

def _readers() -> list[Any]:
    from django.contrib.auth import get_user_model

    return list(get_user_model().objects.filter(username__startswith="demo_")
                .order_by("username"))


def _schema_gets() -> list[str]:
    client = APIClient()
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    import json
    paths = json.loads(schema.content)["paths"]
    return [p for p, ops in paths.items() if "get" in ops and p.startswith("/api/")]


def test_every_api_answer_of_a_seeded_day_shows_time_and_money_one_way(
        seeded: dict[str, Any]) -> None:
    """Issue 22 items 1 and 2: offsets on every timestamp, cents only in ``…_cents``,
    dollars and the property's zone in every text."""
    from zoneinfo import ZoneInfo

    day = seeded["day"]
    zone = ZoneInfo(seeded["property"].time_zone)
    from datetime import datetime
    zones = {datetime(day.year, m, 15, 12, tzinfo=zone).tzname() for m in (1, 7)}
    rows = _rows(day)
    readers = _readers()
    unfilled, unread, found = [], [], []
    for path in _schema_gets():
        if "{" in path:
            if path not in rows:
                unfilled.append(path)
                continue
            params = rows[path]()
            if not params:
                unfilled.append(path)
                continue
        else:
            params = [{}]
        for values in params:
            for variant in VARIANTS.get(path, [{}]):
                url = path.format(**values)
                answer = None
                for user in readers:
                    client = APIClient()
                    client.force_authenticate(user)
                    response = client.get(url, {**_query(day), **variant})
                    if response.status_code == 200:
                        answer = response
                        break
                if answer is None:
                    unread.append(url)
                    continue
                if "json" not in answer.get("Content-Type", ""):
                    found.extend(f"{url} {p}" for p in _text_problems(
                        answer.content.decode(), zones))
                    continue
                found.extend(f"{url} {p}" for p in problems_in(answer.json(), zones))
    assert unfilled == [], "operations the walk cannot fill from the seeded day"
    assert unread == [], "operations no demo role could read"
    # one line per kind of problem (ids and list places folded), the first example kept
    kinds: dict[str, str] = {}
    for line in found:
        key = re.sub(r"\[\d+\]", "[]", re.sub(r"[0-9a-f]{8}-[0-9a-f-]{27}", "{id}", line))
        key = re.sub(r"(money) -?\d+|('.*')", r"\1", key)
        kinds.setdefault(key, line)
    assert found == [], "\n".join(sorted(kinds.values()))


def _as(username: str) -> APIClient:
    from django.contrib.auth import get_user_model

    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(username=username))
    return client


def test_the_dispute_calculators_answer_money_one_way(seeded: dict[str, Any]) -> None:
    """The two calculators answer commands, not reads, so the walk above does not meet
    them: the house-banked one (589.12, a hand-worked round script) and the poker one
    (637a.18(a), the example $4/$8 Hold'em hand of the poker tests) answer cents in
    ``…_cents`` fields and their texts in dollars."""
    import json
    from pathlib import Path

    from tables.domain.rules_options import example_options

    supervisor = _as("demo_poker_shift_supervisor")
    script = json.loads((Path(__file__).parents[1] / "tables" / "banked" / "scripts" /
                         "lunar589_dealer_qualifies_pair_beats_ace_king.json").read_text())
    banked = supervisor.post("/api/v1/rounds/settle-script/", script, format="json")
    assert banked.status_code == 200, banked.json()
    act = lambda seat, action: {"type": "act", "seat": seat, "action": action}  # noqa: E731
    hand = [{"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"],
                                       "3": ["Qc", "Jc"], "4": ["7h", "2s"]}},
            act(3, "raise"), act(4, "fold"), act(1, "call"), act(2, "call"),
            {"type": "deal", "cards": ["Ah", "9c", "4d"]}, act(1, "bet"), act(2, "call"),
            act(3, "fold"), {"type": "deal", "cards": ["5s"]}, act(1, "check"),
            act(2, "check"), {"type": "deal", "cards": ["Tc"]}, act(1, "bet"),
            act(2, "call")]
    poker = supervisor.post("/api/v1/poker-settle-script/", {
        "game": "holdem", "options": example_options("holdem"), "button": 4,
        "stacks": {"1": 10_000, "2": 10_000, "3": 10_000, "4": 10_000},
        "commands": hand}, format="json")
    assert poker.status_code == 200, poker.json()
    zones = {"EST", "EDT"}
    assert problems_in(banked.json(), zones) + problems_in(poker.json(), zones) == []


# --- one shape of jackpot contributions (issue 22, item 2) --------------------------------
# Kept apart from the checks above: ``problems_in`` calls it.

#: the one spelling of a fund's kind; the fund's *name* may be "bad-beat", its kind may not
FUND_KINDS = frozenset({"bad_beat", "high_hand"})
#: the kinds spelled as the funds' default names are: a second spelling
MISSPELT_KINDS = frozenset({"bad-beat", "high-hand"})


def contribution_problems(node: Any, where: str = "$", *, record: bool = False) -> list[str]:
    """Jackpot contributions (637a.15(c), 637a.16(c)) in the one shape the API gives them:
    a key ``contributions`` holds a list of ``{"fund": <the fund's name>, "amount_cents":
    n}`` — not ``{"bad-beat": 100}``, not ``[["bad_beat", 100]]``, not a count — and a key
    ``kind`` never spells a fund kind ``bad-beat``/``high-hand``. An event's own data are
    the record and keep their shape (as in ``_walk``)."""
    out: list[str] = []
    if isinstance(node, dict):
        event = _is_event(node)
        for key, value in node.items():
            here = f"{where}.{key}"
            inside_record = record or (event and key in RECORD_KEYS)
            if not inside_record:
                if key == "contributions":
                    out.extend(_contributions_shape(value, here))
                elif "contributions" in str(key).split("_") and isinstance(value,
                                                                           (dict, list)):
                    out.append(f"{here}: contributions under another name "
                               f"(one key, 'contributions')")
                if (key == "kind" or str(key).endswith("_kind")) and value in MISSPELT_KINDS:
                    out.append(f"{here}: fund kind spelt {value!r}, not as "
                               f"{sorted(FUND_KINDS)}")
            out.extend(contribution_problems(value, here, record=inside_record))
    elif isinstance(node, list):
        for n, item in enumerate(node):
            out.extend(contribution_problems(item, f"{where}[{n}]", record=record))
    return out


def _contributions_shape(value: Any, where: str) -> list[str]:
    wrong = f"{where}: contributions not as [{{fund, amount_cents}}]: {value!r}"[:200]
    if not isinstance(value, list):
        return [wrong]
    for item in value:
        if not (isinstance(item, dict) and set(item) == {"fund", "amount_cents"}
                and isinstance(item["fund"], str) and isinstance(item["amount_cents"], int)
                and not isinstance(item["amount_cents"], bool)):
            return [wrong]
    return []


def test_the_contributions_check_catches_the_shapes_the_issue_names() -> None:
    """Issue 22 quotes three shapes of one thing; only ``[{fund, amount_cents}]`` passes,
    through ``problems_in`` as every walk calls it (637a.15(c), 637a.16(c))."""
    zones = {"EST", "EDT"}
    assert problems_in({"contributions": {"bad-beat": 100}}, zones)
    assert problems_in({"contributions": [["bad_beat", 100]]}, zones)
    assert problems_in({"contributions": [{"fund": "bad-beat", "amount": 100}]}, zones)
    assert problems_in({"contributions": 3}, zones)
    assert problems_in({"contributions_by_fund": {"bad-beat": 100}}, zones)
    assert problems_in({"fund": "bad-beat", "kind": "bad-beat"}, zones)
    assert problems_in({"fund_kind": "high-hand"}, zones)
    assert not problems_in({"contributions": [{"fund": "bad-beat", "amount_cents": 100},
                                              {"fund": "high-hand", "amount_cents": 100}]},
                           zones)
    assert not problems_in({"contributions": [], "contributions_cents": 200}, zones)
    assert not problems_in({"fund": "bad-beat", "kind": "bad_beat"}, zones)
    # an event's data are the record: the engine's own pair list stays as recorded
    assert not problems_in({"type": "HandCompleted", "event_id": "x",
                            "data": {"contributions": [["bad-beat", 100]]}}, zones)
