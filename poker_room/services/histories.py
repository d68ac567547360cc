"""Hand histories (637a.18(a): the record a dispute is settled on): every completed hand as
a PHH hand history (the open format of ``uoftcprg/phh-std``), one hand or a table's gaming
day (a ``.phhs`` file, one section per hand), and the dispute calculator.

PHH has no rake or jackpot contribution; the export keeps ours in user-defined fields
(PHH allows fields starting with ``_``): ``_pa_pot_cents`` (each pot as the players made
it), ``_pa_rake_by_pot`` and ``_pa_taken_by_pot`` (rake plus contributions), so a replay
that takes them off each pot reaches the ``finishing_stacks`` recorded (pokerkit does,
given them as its rake function).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from casino.actors import Actor
from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import read_stream
from casino.scoping import property_row
from poker_room.domain.hand import Hand
from poker_room.domain.phh import to_phh
from poker_room.domain.rules import TableRules
from poker_room.services.hands import engine_events, hand_load
from tables.domain.catalogue import POKER_GAMES
from tables.models import GameTable, Round, RoundState


def _deductions(hand: Hand) -> tuple[list[int], list[int], list[int]]:
    """Each pot as the players made it, the rake taken from it, and the rake plus the
    contributions taken from it."""
    done = hand.result or {}
    rake = list(done.get("rake_by_pot") or [])
    taken = list(rake)
    pots = [0] * len(rake)
    for e in hand.events:
        d = e["data"]
        if e["type"] in ("JackpotContributionTaken", "PotAwarded"):
            k = d["pot"]
            for lst in (taken, pots):
                lst += [0] * (k + 1 - len(lst))
            if e["type"] == "JackpotContributionTaken":
                taken[k] += d["amount"]
            else:
                pots[k] += d["amount"]
    return [p + t for p, t in zip(pots, taken)], rake, taken


def phh_of(hand: Hand, *, table: str, day: date | None) -> str:
    """One completed hand as PHH text, with the table, the day and our deductions."""
    pots, rake, taken = _deductions(hand)
    extra = [f'table = "{table}"', f"_pa_pot_cents = {pots}", f"_pa_rake_by_pot = {rake}",
             f"_pa_taken_by_pot = {taken}"]
    if day is not None:
        extra += [f"day = {day.day}", f"month = {day.month}", f"year = {day.year}"]
    return to_phh(hand) + "\n".join(extra) + "\n"


def hand_phh(*, actor: Actor, round_id: Any) -> dict[str, str]:
    """A completed hand's PHH file: 409 ``hand_in_progress`` before it is over."""
    ph = hand_load(actor=actor, round_id=round_id)
    if not ph.hand.is_complete:
        raise ConflictError("the hand is in progress: its history is written when it ends",
                            code="hand_in_progress")
    day = date.fromisoformat(ph.events[0].metadata["gaming_day"])
    return {"filename": f"{ph.table.name}-{day.isoformat()}-hand-{ph.number}.phh",
            "phh": phh_of(ph.hand, table=ph.table.name, day=day)}


def table_day_phhs(*, actor: Actor, table_id: Any, gaming_day: date) -> dict[str, Any]:
    """Every completed hand of a poker table's gaming day, one ``.phhs`` section each, in
    the order they were dealt."""
    table = property_row(GameTable.objects.all(), actor, table_id, what="table")
    if table.game not in POKER_GAMES:
        raise ConflictError(f"table {table.name} is not a poker table",
                            code="not_a_poker_table")
    sections = []
    for rnd in Round.objects.filter(table=table, state=RoundState.CLOSED).order_by("number"):
        recorded = read_stream(f"round-{rnd.pk}")
        if not recorded or recorded[0].metadata.get("gaming_day") != gaming_day.isoformat():
            continue
        events = engine_events(recorded)
        if not events:
            continue
        hand = Hand.from_events(events)
        if hand.is_complete:
            sections.append(f"[{len(sections) + 1}]\n"
                            + phh_of(hand, table=table.name, day=gaming_day))
    return {"filename": f"{table.name}-{gaming_day.isoformat()}.phhs", "hands": len(sections),
            "phh": "\n".join(sections)}


# --- the dispute calculator ---------------------------------------------------------------

class ScriptError(DomainError):
    code = "invalid_script"


def hand_settle_script(*, actor: Actor, script: Any) -> dict[str, Any]:
    """637a.18(a): the poker shift supervisor works a disputed hand out: the table's rules
    (``options`` of a Rules Submission, or the id of one of the property's), the seats and
    stacks, the button, the commands in order. Returns the pots awarded, the rake, the
    contributions and the stacks; nothing is recorded."""
    from tables.models import RulesSubmission

    if not isinstance(script, dict):
        raise ScriptError("the script is an object", field="script")
    game = script.get("game")
    if "rules_submission_id" in script:
        rs = property_row(RulesSubmission.objects.all(), actor,
                          script["rules_submission_id"], what="rules_submission")
        game, options = rs.game, rs.options
        rules = TableRules.from_options(game, options)
    else:
        options = script.get("options")
        if not isinstance(options, dict):
            raise ScriptError("give the Rules Submission's id, or the game and its options "
                              "(an object)", field="options")
        rules = TableRules.from_dict({**options, "game": game})
    stacks = script.get("stacks")
    if not isinstance(stacks, dict):
        raise ScriptError("stacks maps each seat to its table stakes", field="stacks")
    try:
        seats = {int(k): v for k, v in stacks.items()}
    except (TypeError, ValueError):
        raise ScriptError("stacks maps seat numbers to cents", field="stacks") from None
    hand = Hand.start(rules, seats, button=script.get("button"),
                      straddle=bool(script.get("straddle", False)), check_stakes=False)
    commands = script.get("commands")
    if not isinstance(commands, list):
        raise ScriptError("commands is a list of the dealer's commands", field="commands")
    for i, command in enumerate(commands):
        try:
            hand.execute(command)
        except DomainError as exc:
            exc.field = f"commands[{i}]" + (f".{exc.field}" if exc.field else "")
            raise
    result = hand.result or {}
    return {"game": rules.game, "complete": hand.is_complete,
            "pot_cents": result.get("pot"), "rake_cents": result.get("rake"),
            "rake_by_pot": result.get("rake_by_pot"),
            "contributions": result.get("contributions"),
            "awards": [e["data"] for e in hand.events if e["type"] == "PotAwarded"],
            "stacks": {str(s): v for s, v in hand.stacks.items()},
            "events": hand.events}
