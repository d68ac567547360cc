"""Sentences for the poker floor's event types (:mod:`console.history`): every event of a
list stream (``waitlist-<id>``, the catalogue in :mod:`poker_floor`) in words.

A sentence never names a player: the events hold the name, phone and e-mail sealed
(:mod:`casino.personal_data`) and a history page is read by roles that may not see them.
An entry is named by the first characters of its id ("entry 5f3a9c01"), a seat by its
number, a moment on the property's wall clock; a page's content is never repeated (it
is sealed too)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.templatetags.casino_display import NOTHING, wall_clock
from console.history import say, sentences, who, words

D = Mapping[str, Any]

#: how a list entry came onto the list (PlayerListed.kind)
_KINDS = {"player": "a player", "change": "a table change for a seated player",
          "broken": "a player from a broken table"}
#: why a player moved (PlayerMoved.why)
_WHY = {"must_move": "from a must-move table to the main game",
        "table_change": "for a table change", "table_broken": "from a broken table"}


def short(value: Any) -> str:
    """An entry's, a call's or a table's id as the history names it: its first 8
    characters ("5f3a9c01"); nothing recorded: a dash."""
    return str(value)[:8] if value else NOTHING


def _entry(data: D) -> str:
    return f"entry {short(data.get('entry'))}"


def _plural(n: int, word: str, words_: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words_ or word + 's')}"


def _opened(data: D, metadata: D) -> str:
    at = data.get("open_table_at")
    when = f"; a table is suggested at {at} waiting" if at else ""
    game = data.get("name") or words(data.get("game"))
    return f"{who(metadata)} opened the list for {game}{when}"


def _configured(data: D, metadata: D) -> str:
    at = data.get("open_table_at")
    if not at:
        return f"{who(metadata)} set the list to suggest no table opening"
    return f"{who(metadata)} set the list to suggest opening a table at {at} waiting"


def _listed(data: D, metadata: D) -> str:
    kind = _KINDS.get(str(data.get("kind") or "player"), "a player")
    source = " from the kiosk" if data.get("source") == "kiosk" else ""
    seat = f" (seat {data['from_seat']})" if data.get("from_seat") else ""
    return f"{who(metadata)} listed {kind}{seat}{source}: {_entry(data)}"


def _called(data: D, metadata: D) -> str:
    how = "by lot" if data.get("by_lot") else "out of turn" if data.get("reason") else "in turn"
    passed = data.get("passed") or []
    why = f" ({data['reason']})" if data.get("reason") else ""
    skipped = f"; {_plural(len(passed), 'entry', 'entries')} passed" if passed else ""
    return (f"{who(metadata)} called {_entry(data)} {how}{why} to seat {data.get('seat', NOTHING)}"
            f", to come by {wall_clock(data.get('deadline'))}{skipped}")


def _timed_out(data: D, metadata: D) -> str:
    missed = data.get("missed")
    count = f" (call missed {missed} time{'' if missed == 1 else 's'})" if missed else ""
    if data.get("moved_to") is None:
        return (f"{who(metadata)} timed out the call of {_entry(data)}{count}: removed from "
                "the list")
    return (f"{who(metadata)} timed out the call of {_entry(data)}{count}: moved down to "
            f"position {data.get('moved_to')}")


def _cancelled(data: D, metadata: D) -> str:
    why = f": {data['reason']}" if data.get("reason") else ""
    return f"{who(metadata)} cancelled the call of {_entry(data)}{why}"


def _seated(data: D, metadata: D) -> str:
    stays = "; stays on the list" if data.get("stays_listed") else ""
    return (f"{who(metadata)} seated {_entry(data)} at seat {data.get('seat', NOTHING)} from "
            f"the call{stays}")


def _delisted(data: D, metadata: D) -> str:
    why = f": {data['reason']}" if data.get("reason") else ""
    return f"{who(metadata)} removed {_entry(data)} from the list{why}"


def _must_move_set(data: D, metadata: D) -> str:
    feeders = data.get("feeders") or []
    named = ", ".join(short(f) for f in feeders) or "none"
    return (f"{who(metadata)} made table {short(data.get('main_table'))} a must-move main game "
            f"fed by {_plural(len(feeders), 'table')} ({named})")


def _moved(data: D, metadata: D) -> str:
    why = _WHY.get(str(data.get("why")), words(data.get("why")))
    reason = f" ({data['reason']})" if data.get("reason") else ""
    return (f"{who(metadata)} moved the player at seat {data.get('from_seat', NOTHING)} of table "
            f"{short(data.get('from_table'))} to seat {data.get('to_seat', NOTHING)} of table "
            f"{short(data.get('to_table'))} {why}{reason}")


def _opened_by_lot(data: D, metadata: D) -> str:
    draw = data.get("draw") or []
    seats = ", ".join(f"{short(d.get('entry'))} to seat {d.get('seat')}" for d in draw
                      if isinstance(d, Mapping))
    return (f"{who(metadata)} opened table {short(data.get('table'))} by lot: "
            f"{_plural(len(draw), 'seat')} drawn ({seats or 'none'})")


def _broken_by_lot(data: D, metadata: D) -> str:
    draw = data.get("draw") or []
    listed = data.get("listed") or []
    return (f"{who(metadata)} broke table {short(data.get('table'))} by lot: "
            f"{_plural(len(draw), 'player')} drawn to seats at the other tables, "
            f"{_plural(len(listed), 'player')} listed first")


def _page_sent(data: D, metadata: D) -> str:
    return f"{who(metadata)} paged {_entry(data)} by {words(data.get('channel'))}"


def _page_failed(data: D, metadata: D) -> str:
    error = f": {data['error']}" if data.get("error") else ""
    return f"{who(metadata)} could not page {_entry(data)} by {words(data.get('channel'))}{error}"


#: the sentence of every event type of the catalogue
#: (tests/poker_floor/test_console_history.py)
SENTENCES = {
    "WaitlistOpened": _opened,
    "WaitlistConfigured": _configured,
    "PlayerListed": _listed,
    "SeatOffered": _called,
    "CallTimedOut": _timed_out,
    "CallCancelled": _cancelled,
    "PlayerSeatedFromList": _seated,
    "PlayerDelisted": _delisted,
    "MustMoveSet": _must_move_set,
    "MustMoveCleared": say("{who} ended the must-move game of table {main_table}",
                           main_table=lambda d: short(d.get("main_table"))),
    "PlayerMoved": _moved,
    "TableOpenedByLot": _opened_by_lot,
    "TableBrokenByLot": _broken_by_lot,
    "PageSent": _page_sent,
    "PageFailed": _page_failed,
}

sentences(SENTENCES)
