"""History in sentences (issue 23 item 4; DESIGN §7): every event type the code appends has
a sentence in the one registry (console.history), and a sentence says money in dollars,
times on the property's wall clock and people by username and role."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.utils import timezone

from console.history import registered_types, sentence

ROOT = Path(__file__).resolve().parents[2]
APPS = ("casino", "tables", "poker_room", "jackpots", "finance")
CAMEL = re.compile(r"^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$")
#: benchmarks' own streams (management commands are not scanned: nothing else appends there)
SKIPPED_FILES = ("pokerkit_bridge.py", "settings.py")
#: CamelCase strings in those modules that are not event types: a prefix matched with
#: ``startswith`` (finance.projections) and class names quoted in annotations
NOT_EVENT_TYPES = {"InventorySlip", "GameTable", "RulesSubmission", "AtFund"}


def _sources() -> list[Path]:
    """The modules that decide and append events: services, domain, projections, readers."""
    out = []
    for app in APPS:
        for p in (ROOT / app).rglob("*.py"):
            rel = p.relative_to(ROOT).as_posix()
            if any(part in rel for part in ("/migrations/", "/management/", "/api/",
                                            "casino/domain/")) or p.name in SKIPPED_FILES:
                continue
            out.append(p)
    return out


def _class_names() -> set[str]:
    names = set()
    for app in APPS:
        for p in (ROOT / app).rglob("*.py"):
            for node in ast.walk(ast.parse(p.read_text())):
                if isinstance(node, ast.ClassDef):
                    names.add(node.name)
    return names


def appended_event_types() -> set[str]:
    """Every event type the code names: a CamelCase string in the modules that append or
    apply events (``NewEvent("X")``, ``at.record("X")``, ``{"type": "X"}``, ``emit("X")``,
    the projections' handler tables) and every ``_on_X`` handler of the poker engine; class
    names and Django model names are not event types."""
    found: set[str] = set()
    for p in _sources():
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and CAMEL.match(node.value):
                found.add(node.value)
            if isinstance(node, ast.FunctionDef) and node.name.startswith("_on_"):
                found.add(node.name[4:])
    return found - _class_names() - NOT_EVENT_TYPES


def test_the_scan_finds_the_event_types_of_every_app() -> None:
    # the scan is itself checked: one type each app is known to append
    types = appended_event_types()
    assert {"RoleGranted", "DeckInspectionVerified", "PlayerSeated", "BadBeatPaid",
            "DropCounted", "PlayerRaised", "LoginLockedOut", "TwoFactorEnrolled"} <= types


def test_every_event_type_the_code_appends_has_a_sentence() -> None:
    missing = sorted(appended_event_types() - registered_types())
    assert missing == [], f"event types with no sentence: {', '.join(missing)}"


def _event(type_: str, data: dict, **meta: str) -> dict:
    return {"type": type_, "data": data,
            "metadata": {"actor": "dana", "role": "floorperson", **meta}}


def test_a_sentence_names_the_person_by_username_and_role() -> None:
    e = _event("DeckInspectionVerified", {"accepted": True, "note": ""})
    assert sentence(e) == "dana (floorperson) verified the inspection of the deck and " \
                          "accepted it"


def test_a_sentence_says_money_in_dollars_and_time_on_the_wall_clock() -> None:
    # 10000 cents is $100.00; 2026-11-26 12:09 UTC is 7:09 AM in New York (EST, UTC-5)
    seated = _event("PlayerSeated", {"seat": 3, "player": {"name": "Avery"},
                                     "buy_in_cents": 10000, "paid_with": "cash"},
                    actor="pat", role="dealer")
    assert sentence(seated) == ("pat (dealer) seated a player at seat 3 with a buy-in of "
                                "$100.00 (cash at the table)")
    approved = _event("RulesSubmissionApproved",
                      {"effective_at": "2026-11-26T12:09:00+00:00"}, actor="cora",
                      role="compliance")
    with timezone.override("America/New_York"):
        assert sentence(approved) == ("cora (compliance) approved the Rules Submission, in "
                                      "effect from Nov 26, 2026, 7:09 AM EST")


def test_a_sentence_never_names_a_player() -> None:
    # every role that sees the event log reads the sentences: a seat's or a High Hand
    # slip's player is "a player" (their pages, gated by role, show the name)
    seated = _event("PlayerSeated", {"seat": 2, "player": {"name": "Avery Stone"},
                                     "buy_in_cents": 5000, "paid_with": "chips",
                                     "carried_from": {"seat": 7}})
    slip = _event("HighHandRecorded", {"slip": 4, "player": {"name": "Avery Stone"},
                                       "table": "HE-1", "seat": 2, "hand": "four of a kind",
                                       "cards": ["9s", "9h", "9d", "9c", "As"]})
    paid = _event("HighHandPaid", {"slip": 4, "period": 12, "amount_cents": 25000,
                                   "name": "Avery Stone"})
    assert sentence(seated) == ("dana (floorperson) moved a player to seat 2 from seat 7 at "
                                "another table, with the table stakes of $50.00")
    assert sentence(slip) == ("dana (floorperson) recorded High Hand slip 4: a player at HE-1 "
                              "seat 2, four of a kind 9s 9h 9d 9c As")
    assert sentence(paid) == ("dana (floorperson) paid High Hand award 4 of period 12: "
                              "$250.00 to a player")


def test_a_large_amount_has_separators_and_a_negative_one_its_sign() -> None:
    e = _event("VarianceRecorded", {"figure": "drop", "counted_cents": 176500,
                                    "expected_cents": 181500, "variance_cents": -5000},
               actor="cass", role="cashier")
    assert sentence(e) == ("cass (cashier) recorded a variance in the drop: $1,765.00 "
                           "counted, $1,815.00 expected (-$50.00)")


def test_a_scheduled_task_is_named_as_the_system() -> None:
    e = {"type": "DeckChangeDue", "data": {"deadline_at": "2026-11-26T12:00:00+00:00"},
         "metadata": {"actor": "system:deck-timer"}}
    with timezone.override("America/New_York"):
        assert sentence(e) == ("the system (deck timer) marked the deck due for a change (it "
                               "was due at Nov 26, 2026, 7:00 AM EST)")


def test_a_type_without_a_sentence_is_said_so_and_never_breaks_the_page() -> None:
    e = _event("SomethingNew", {})
    assert sentence(e) == "dana (floorperson): SomethingNew (no sentence for this event type yet)"
