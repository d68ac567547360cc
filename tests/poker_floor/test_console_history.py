"""The poker floor's history sentences (console.history, DESIGN §7): every event type of
the list streams — the catalogue in poker_floor's docstring and every type the floor's
code names — has a sentence, and a sentence never names a player (the events hold the
details sealed)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.utils import timezone

import poker_floor
from console.history import registered_types, sentence
from tests.console.test_history import CAMEL

ROOT = Path(__file__).resolve().parents[2]
#: the catalogue's lines: "    PlayerListed        {entry, details: ...}"
_CATALOGUE = re.compile(r"^\s{4}([A-Z][A-Za-z]+)\s+\{", re.MULTILINE)
#: CamelCase strings of the floor's modules that are not event types of its streams
NOT_EVENT_TYPES = {"PersonalDataErased",  # casino's (personal_data-<subject>), its own sentence
                   "PlayerLeft", "PlayerRemoved", "PlayerSeated", "TableOpened",
                   "TableClosed"}  # the poker tables' and tables' events the floor reads


def catalogue() -> set[str]:
    return set(_CATALOGUE.findall(poker_floor.__doc__ or ""))


def named_in_code() -> set[str]:
    """Every CamelCase string in the floor's modules (services, projections, the console's
    own modules, tasks), as tests/console/test_history.py scans the other apps."""
    found: set[str] = set()
    classes: set[str] = set()
    for p in (ROOT / "poker_floor").rglob("*.py"):
        if "/migrations/" in p.as_posix() or "/management/" in p.as_posix():
            continue
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and CAMEL.match(node.value):
                found.add(node.value)
            if isinstance(node, ast.ClassDef):
                classes.add(node.name)
    return found - classes - NOT_EVENT_TYPES


def test_the_catalogue_is_read() -> None:
    assert {"WaitlistOpened", "PlayerListed", "SeatOffered", "CallTimedOut", "PageFailed",
            "TableBrokenByLot"} <= catalogue()


def test_every_event_type_of_the_floor_has_a_sentence() -> None:
    missing = sorted((catalogue() | named_in_code()) - registered_types())
    assert missing == [], f"event types with no sentence: {', '.join(missing)}"


def _event(type_: str, data: dict, **meta: str) -> dict:
    return {"type": type_, "data": data,
            "metadata": {"actor": "dana", "role": "floorperson", **meta}}


ENTRY = "5f3a9c01-0000-4000-8000-000000000001"
OTHER = "0b1c2d3e-0000-4000-8000-000000000002"


def test_a_seat_offered_is_said_as_a_call_and_a_hands_call_as_a_bet_called() -> None:
    # the list's call is SeatOffered; a poker hand's PlayerCalled stays a bet called
    passed = _event("SeatOffered", {"call": OTHER, "entry": ENTRY, "table": OTHER, "seat": 9,
                                     "deadline": "2026-11-26T12:09:00+00:00",
                                     "reason": "asked for this table", "passed": [OTHER],
                                     "by_lot": False})
    with timezone.override("America/New_York"):
        assert sentence(passed) == ("dana (floorperson) called entry 5f3a9c01 out of turn "
                                    "(asked for this table) to seat 9, to come by Nov 26, "
                                    "2026, 7:09 AM EST; 1 entry passed")
    bet = _event("PlayerCalled", {"seat": 3, "amount": 400}, actor="pat", role="dealer")
    assert "entry" not in sentence(bet)
    assert "Seat 3 calls $4.00" in sentence(bet)


def test_a_timeout_says_where_the_player_was_moved_or_that_they_were_removed() -> None:
    down = _event("CallTimedOut", {"call": OTHER, "entry": ENTRY, "missed": 1, "moved_to": 4},
                  actor="system:floor-sweep", role="")
    assert sentence(down) == ("the system (floor sweep) timed out the call of entry 5f3a9c01 "
                              "(call missed 1 time): moved down to position 4")
    off = _event("CallTimedOut", {"call": OTHER, "entry": ENTRY, "missed": 2, "moved_to": None})
    assert sentence(off) == ("dana (floorperson) timed out the call of entry 5f3a9c01 (call "
                             "missed 2 times): removed from the list")


def test_a_sentence_never_holds_the_sealed_details() -> None:
    sealed = {"sealed": "QUJD", "subject": ENTRY}
    listed = _event("PlayerListed", {"entry": ENTRY, "details": sealed, "source": "kiosk",
                                     "kind": "player", "from_table": None, "from_seat": None})
    assert sentence(listed) == "dana (floorperson) listed a player from the kiosk: entry 5f3a9c01"
    page = _event("PageSent", {"call": OTHER, "entry": ENTRY, "channel": "sms",
                               "message": {"sealed": "QUJD", "subject": ENTRY}})
    assert sentence(page) == "dana (floorperson) paged entry 5f3a9c01 by sms"
