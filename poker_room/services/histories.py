"""Hand histories as PHH (the open format of ``uoftcprg/phh-std``): a completed hand, or
every completed hand of a table's gaming day as one ``.phhs`` file (a TOML section ``[1]``,
``[2]``... per hand).

PHH has no rake and no jackpot contribution: the export keeps ours in user-defined fields
(PHH reserves field names starting with ``_`` for them): ``_pa_gross_pot_cents`` (each pot
as the players made it), ``_pa_rake_by_pot`` (637a.17(b)), ``_pa_taken_by_pot`` (rake plus
the contributions, 637a.15(c), 637a.16(c)) and ``_pa_pot_cents`` (each Pot after them, what
was awarded: 637a.1's Pot). A replay that takes those off each pot reaches
the recorded ``finishing_stacks`` (pokerkit does, given them as its rake function).
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime, time, timedelta, timezone
from typing import Any

from casino.actors import Actor
from casino.domain.errors import ConflictError
from casino.eventstore.store import RecordedEvent, read_stream
from casino.roles import Role
from casino.scoping import property_row
from poker_room.domain import pot_figures
from poker_room.domain.errors import PHHCannotExpress
from poker_room.domain.hand import Hand
from poker_room.domain.phh import to_phh
from poker_room.services.hand_state import engine_events
from poker_room.services.hands import hand_load
from tables.domain.catalogue import POKER_GAMES
from tables.models import GameTable, Round, RoundState



#: who may read a hand's whole record once it is over (637a.18(a) disputes, audits)
HISTORY_READERS = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE,
                   Role.FINANCE, Role.SECURITY)


# --- PHH ----------------------------------------------------------------------------------

def day_of(recorded: list[RecordedEvent]) -> str | None:
    """A hand's gaming day: the one its first event was recorded in (``Actor.metadata``)."""
    return (recorded[0].metadata or {}).get("gaming_day") if recorded else None


def _toml_str(text: str) -> str:
    # a JSON string is a TOML basic string (the same escapes), whatever the table's name
    return json.dumps(text)


def _filename(*parts: str) -> str:
    """A download name with nothing a header or a file system would read otherwise."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", "-".join(parts))


def pot_deductions(hand: Hand) -> tuple[list[int], list[int], list[int]]:
    """Each pot as the players made it, the rake taken from it (637a.17(b)), and the rake
    plus the jackpot contributions taken from it (637a.15(c), 637a.16(c))."""
    done = hand.result or {}
    rake = list(done.get("rake_by_pot") or [])
    taken = list(rake)
    awarded = [0] * len(rake)
    for e in hand.events:
        d = e["data"]
        if e["type"] in ("JackpotContributionTaken", "PotAwarded"):
            k = d["pot"]
            for lst in (taken, awarded, rake):
                lst += [0] * (k + 1 - len(lst))
            (taken if e["type"] == "JackpotContributionTaken" else awarded)[k] += d["amount"]
    return [a + t for a, t in zip(awarded, taken)], rake, taken


def phh_of(hand: Hand, *, table: str, day: date | None, number: int | None = None) -> str:
    """One completed hand as PHH text: the engine's PHH, the table, the day, and our
    deductions in user-defined fields (module doc)."""
    pots, rake, taken = pot_deductions(hand)
    # taken holds the rake and the contributions: the Pot is what is left of each pot
    awarded = [pot_figures.pot_after(p, r, t - r) for p, r, t in zip(pots, rake, taken)]
    extra = [f"table = {_toml_str(table)}", f"_pa_gross_pot_cents = {pots}",
             f"_pa_rake_by_pot = {rake}", f"_pa_taken_by_pot = {taken}",
             f"_pa_pot_cents = {awarded}",
             "_pa_amounts = 'cents'"]
    if number is not None:
        extra.append(f"_pa_hand_number = {number}")
    if (hand.result or {}).get("voided"):
        extra.append("_pa_voided = true")
    if day is not None:
        extra += [f"day = {day.day}", f"month = {day.month}", f"year = {day.year}"]
    return to_phh(hand) + "\n".join(extra) + "\n"


def _parse_day(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def hand_phh(*, actor: Actor, round_id: Any) -> dict[str, Any]:
    """A completed hand's PHH file; 409 ``hand_in_progress`` before it is over (the
    history is the hand's whole record, written once there is one)."""
    actor.require(*HISTORY_READERS)
    ph = hand_load(actor=actor, round_id=round_id)
    if not ph.hand.is_complete:
        raise ConflictError("the hand is in progress: its history is written when it ends",
                            code="hand_in_progress")
    day = _parse_day(day_of(ph.events))
    name = _filename(ph.table.name, day.isoformat() if day else "undated",
                     f"hand-{ph.number}") + ".phh"
    return {"filename": name, "hands": 1, "gaming_day": day,
            "phh": phh_of(ph.hand, table=ph.table.name, day=day, number=ph.number)}


def _rounds_near(table: GameTable, day: date) -> Any:
    """The table's closed rounds opened around ``day``: a gaming day starts at the
    property's hour in its time zone, so a day either side covers it; the hand's own
    ``gaming_day`` then decides."""
    start = datetime.combine(day - timedelta(days=1), time.min, tzinfo=timezone.utc)
    return (Round.objects.filter(table=table, state=RoundState.CLOSED,
                                 opened_at__gte=start,
                                 opened_at__lt=start + timedelta(days=3))
            .order_by("number"))


def table_day_phhs(*, actor: Actor, table_id: Any, gaming_day: date) -> dict[str, Any]:
    """Every completed hand of a poker table's gaming day as one ``.phhs`` file, a section
    per hand in the order they were dealt. A void hand (a misdeal, 637a.18(g), (i)) was
    not played: it is listed in ``voided`` and left out of the file. A hand PHH cannot
    express (637a.18(k): ``phh_cannot_express``) is a comment in the file saying why."""
    actor.require(*HISTORY_READERS)
    table = property_row(GameTable.objects.all(), actor, table_id, what="table")
    if table.game not in POKER_GAMES:
        raise ConflictError(f"table {table.name} is not a poker table",
                            code="not_a_poker_table")
    sections: list[str] = []
    voided: list[int] = []
    written = 0
    for rnd in _rounds_near(table, gaming_day):
        recorded = read_stream(f"round-{rnd.pk}")
        events = engine_events(recorded)
        if day_of(recorded) != gaming_day.isoformat() or not events:
            continue
        hand = Hand.from_events(events)
        if not hand.is_complete:
            continue
        if (hand.result or {}).get("voided"):
            voided.append(rnd.number)
            continue
        try:
            text = phh_of(hand, table=table.name, day=gaming_day, number=rnd.number)
        except PHHCannotExpress as exc:  # 637a.18(k): said in the file, the day still read
            sections.append(f"# hand {rnd.number} is not written: {exc}")
            continue
        written += 1
        sections.append(f"[{written}]\n" + text)
    return {"filename": _filename(table.name, gaming_day.isoformat()) + ".phhs",
            "gaming_day": gaming_day, "hands": written, "voided": voided,
            "phh": "\n".join(sections)}


