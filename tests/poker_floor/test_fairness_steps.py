"""Every event type of a list's stream makes its step of the fairness record (issue 24,
item 9), the list's order moved as the projection moves it: a hand-made stream of one of
each (the catalogue in poker_floor's docstring), folded without a database. The
places are worked by hand in the comments."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from casino.eventstore.models import Event
from poker_floor import fairness
from tests.poker_floor.test_console_history import catalogue

A, B, C, D = "aaaaaaaa-1", "bbbbbbbb-2", "cccccccc-3", "dddddddd-4"
T1, T2 = "11111111-t", "22222222-t"
INITIALS = {A: "A.A.", B: "B.B.", C: "C.C.", D: "D.D."}
TABLES = {T1: "HE-1", T2: "HE-2"}
AT = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)

#: (type, data): the stream, in order
STREAM: list[tuple[str, dict[str, Any]]] = [
    ("WaitlistOpened", {"game": "holdem", "name": "$4.00/$8.00 fixed limit Hold'em",
                        "open_table_at": 0}),
    ("WaitlistConfigured", {"open_table_at": 6}),
    ("PlayerListed", {"entry": A, "kind": "player", "source": "floor"}),       # A
    ("PlayerListed", {"entry": B, "kind": "player", "source": "kiosk"}),       # A B
    ("PlayerListed", {"entry": C, "kind": "change", "source": "floor",         # C A B
                      "from_table": T2, "from_seat": 4}),
    ("SeatOffered", {"call": "k1", "entry": C, "table": T1, "seat": 9, "reason": "",
                      "passed": [], "by_lot": False}),
    ("PageSent", {"call": "k1", "entry": C, "channel": "sms"}),
    ("PlayerMoved", {"from_table": T2, "from_seat": 4, "to_table": T1, "to_seat": 9,
                     "why": "table_change", "order": [], "reason": "", "entry": C}),
    ("PlayerSeatedFromList", {"call": "k1", "entry": C, "table": T1, "seat": 9,
                              "stays_listed": False}),                          # A B
    ("SeatOffered", {"call": "k2", "entry": B, "table": T2, "seat": 4,
                      "reason": "B asked for HE-2", "passed": [A], "by_lot": False}),
    ("CallCancelled", {"call": "k2", "entry": B, "reason": "HE-2 closed"}),     # A B
    ("PlayerListed", {"entry": D, "kind": "player", "source": "floor"}),       # A B D
    ("TableOpenedByLot", {"table": T2, "draw": [{"entry": D, "seat": 2},
                                                {"entry": A, "seat": 5}]}),
    ("SeatOffered", {"call": "k3", "entry": A, "table": T2, "seat": 5, "reason": "",
                      "passed": [], "by_lot": True}),
    ("PageFailed", {"call": "k3", "entry": A, "channel": "email", "error": "refused"}),
    ("CallTimedOut", {"call": "k3", "entry": A, "missed": 2, "moved_to": None}),  # B D
    ("PlayerSeatedFromList", {"call": "k4", "entry": B, "table": T2, "seat": 2,
                              "stays_listed": True}),                           # B D
    ("MustMoveSet", {"main_table": T1, "feeders": [T2]}),
    ("PlayerMoved", {"from_table": T2, "from_seat": 3, "to_table": T1, "to_seat": 1,
                     "why": "must_move", "order": [], "reason": "", "entry": None}),
    ("MustMoveCleared", {"main_table": T1}),
    ("TableBrokenByLot", {"table": T2, "draw": [{"from_seat": 1, "to_table": T1,
                                                 "to_seat": 6}], "listed": [D]}),
    ("PlayerDelisted", {"entry": D, "reason": "went home"}),                    # B
]


def _events() -> list[Event]:
    return [Event(version=n, type=t, data=d, schema_version=1, recorded_at=AT,
                  metadata={"actor": "dana", "role": "floorperson",
                            "gaming_day": "2026-11-26"})
            for n, (t, d) in enumerate(STREAM, 1)]


def _fold() -> tuple[list[fairness.Step], list[str]]:
    order = fairness._Order()
    steps = []
    for e in _events():
        steps += fairness._step(
            e, order, lambda x, p: fairness.Who(str(x), INITIALS[str(x)], p),
            lambda t: TABLES.get(str(t), "") if t else "")
    return steps, order.ids


def test_the_stream_holds_every_type_of_the_catalogue() -> None:
    assert {t for t, _ in STREAM} == catalogue()


def test_every_event_makes_its_step_with_the_place_worked_by_hand() -> None:
    steps, order = _fold()
    assert [(s.kind, s.player.initials if s.player else None,
             s.player.position if s.player else None) for s in steps] == [
        ("list", None, None), ("list", None, None),
        ("added", "A.A.", 1), ("added", "B.B.", 2),
        ("added", "C.C.", 1),                       # a table change goes first
        ("called", "C.C.", 1), ("paged", "C.C.", 1), ("moved", "C.C.", 1),
        ("seated", "C.C.", None),
        ("called", "B.B.", 2), ("passed", "A.A.", 1),
        ("called off", "B.B.", 2),                  # keeps the place
        ("added", "D.D.", 3),
        ("opened by lot", None, None), ("called", "A.A.", 1), ("page failed", "A.A.", 1),
        ("timed out", "A.A.", None),                # the last allowed miss: off the list
        ("seated", "B.B.", 1),                      # stays listed: keeps the place
        ("must-move", None, None), ("moved", None, None), ("must-move", None, None),
        ("broken by lot", None, None),
        ("removed", "D.D.", 2),
    ]
    assert order == [B]


def test_the_steps_say_what_happened_in_words() -> None:
    steps, _ = _fold()
    said = [s.text for s in steps]
    assert said[1] == "A table is suggested at 6 waiting."
    assert said[3] == "B.B. added at the kiosk at position 2."
    assert said[4] == "C.C. added for a table change at position 1."
    assert said[7] == "C.C. seat 4 at HE-2 moved to seat 9 at HE-1 for a table change."
    assert said[11] == "B.B.'s call was called off (HE-2 closed): waiting at position 2."
    assert said[13] == ("HE-2 opened; seats drawn by lot: D.D. (position 3) to seat 2, "
                        "A.A. (position 1) to seat 5.")
    assert said[14] == "A.A. (position 1) called by lot to seat 5 at HE-2."
    assert said[15] == "The page to A.A. by email failed: refused."
    assert said[16] == ("A.A. did not come in time (call missed 2 times): removed from the "
                        "list.")
    assert said[17] == "B.B. seated at seat 2 at HE-2, staying on the list."
    assert said[18] == "HE-1 made a must-move main game, fed by HE-2."
    assert said[19] == ("The player at seat 3 at HE-2 moved to seat 1 at HE-1 from the "
                        "must-move table to the main game.")
    assert said[20] == "HE-1 is no longer a must-move main game."
    assert said[21] == ("HE-2 broken; players drawn by lot: seat 1 to seat 6 at HE-1; "
                        "listed first: D.D.")
    assert said[22] == "D.D. removed from the list from position 2 (went home)."
