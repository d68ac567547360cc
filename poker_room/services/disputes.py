"""The poker dispute calculator (637a.18(a): in every dispute the poker shift supervisor's
decision is final): a hand worked out from its script by the same engine, with nothing
recorded."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from casino.actors import Actor
from casino.domain.errors import DomainError
from casino.roles import Role
from casino.scoping import property_row
from poker_room.domain import contributions as jp
from poker_room.domain import pot_figures
from poker_room.domain.hand import Hand
from poker_room.domain.rules import TableRules
from poker_room.models import PokerTable
from tables.domain.catalogue import POKER_GAMES
from tables.domain.options_reader import MAX_CENTS
from tables.models import GameTable, RulesSubmission
from tables.selectors import rules_in_force

#: 637a.18(a): the supervisor rules on disputes; the floor and compliance may work one out
DISPUTE_ROLES = (Role.POKER_SHIFT_SUPERVISOR, Role.FLOORPERSON, Role.COMPLIANCE)
#: the most commands a script may hold: ten players, every street, every raise
SCRIPT_LIMIT = 500


# --- the dispute calculator ---------------------------------------------------------------

class ScriptError(DomainError):
    """The script is refused: 400, the code and the field saying what and where."""

    code = "invalid_script"


def refused(exc: DomainError, field: str) -> ScriptError:
    """An engine's refusal as a script error: the same code, the field within the
    script. In a script an impossible action is bad input, not a conflict with a hand."""
    where = field + (f".{exc.field}" if exc.field and exc.field != field else "")
    return ScriptError(exc.message, code=exc.code, field=where)


#: the rules a script is worked under, and the jackpot funds withheld at its table
ScriptRules = tuple[TableRules, list[dict[str, Any]]]


def _script_rules(actor: Actor, script: Mapping[str, Any]) -> ScriptRules:
    """The rules the hand is worked under: a Rules Submission of the caller's property
    (any version: a dispute may be about a hand dealt under an older one), or the game
    and its options as a Rules Submission states them. With ``table_id`` (a poker table
    of the property) the table's own: the Rules Submission named (for the table's game)
    or else the one in force there, without the funds whose jackpot box is not registered
    at the table (637a.2(e)), as a hand dealt there is played; those funds, with why, are
    returned beside the rules."""
    table = _script_table(actor, script)
    if script.get("rules_submission_id") is not None:
        rs = _rules_submission(actor, script, table)
    elif table is not None:
        rs = rules_in_force(table.property, table.game)
        if rs is None:
            raise ScriptError(f"no Rules Submission for {table.game} is in force at table "
                              f"{table.name}", code="no_rules_in_effect", field="table_id")
    else:
        return _options_rules(script), []
    if table is None:
        return TableRules.from_options(rs.game, rs.options), []
    boxes = PokerTable.objects.filter(table_id=table.pk).values_list(
        "jackpot_boxes", flat=True).first() or {}
    options, withheld = jp.collected_at_table(rs.options, boxes)
    return TableRules.from_options(rs.game, options), withheld


def _script_table(actor: Actor, script: Mapping[str, Any]) -> GameTable | None:
    """The poker table the script names (``table_id``), of the caller's property."""
    if script.get("table_id") is None:
        return None
    try:
        table = property_row(GameTable.objects.all(), actor, script["table_id"],
                             what="table")
    except DomainError:
        raise ScriptError("no table of this property has this id", code="table_not_found",
                          field="table_id") from None
    if table.game not in POKER_GAMES:
        raise ScriptError(f"table {table.name} is not a poker table",
                          code="not_a_poker_table", field="table_id")
    if script.get("options") is not None:
        # a table's rules are a Rules Submission's: its boxes apply to that one's funds
        raise ScriptError("with table_id the rules are the table's Rules Submission's: "
                          "give rules_submission_id or nothing, not options",
                          code="options_with_table", field="options")
    return table


def _rules_submission(actor: Actor, script: Mapping[str, Any],
                      table: GameTable | None) -> RulesSubmission:
    """The Rules Submission the script names, of the caller's property, for a poker game
    (the table's, when the script names a table)."""
    game = table.game if table is not None else script.get("game")
    try:
        rs = property_row(RulesSubmission.objects.all(), actor,
                          script["rules_submission_id"], what="rules_submission")
    except DomainError:
        raise ScriptError("no Rules Submission of this property has this id",
                          code="rules_submission_not_found",
                          field="rules_submission_id") from None
    if rs.game not in POKER_GAMES:
        raise ScriptError(f"Rules Submission {rs.pk} is for {rs.game}, not a poker game",
                          code="not_a_poker_game", field="rules_submission_id")
    if game is not None and game != rs.game:
        raise ScriptError(f"the Rules Submission is for {rs.game}, not {game}",
                          code="game_mismatch",
                          field="game" if table is None else "rules_submission_id")
    return rs


def _options_rules(script: Mapping[str, Any]) -> TableRules:
    """The game and its options as a Rules Submission states them; without a rake, none
    (:func:`without_rake`)."""
    game = script.get("game")
    options = script.get("options")
    if not isinstance(options, dict):
        raise ScriptError("give the Rules Submission's id, or the game and its options "
                          "(an object)", field="options")
    unraked = options.get("rake") is None
    try:
        rules = TableRules.from_dict({**options, "game": game,
                                      "rake": _placeholder(options) if unraked
                                      else options["rake"]})
    except DomainError as exc:
        raise ScriptError(exc.message, code=exc.code, field=_options_field(exc.field)
                          ) from None
    return without_rake(rules) if unraked else rules


def _placeholder(options: Mapping[str, Any]) -> dict[str, Any]:
    """A rake the schema accepts whatever the chip (637a.17(b)(3): a time charge of one
    chip a period), to check options that name none; :func:`without_rake` drops it."""
    unit = options.get("chip_unit_cents")
    unit = unit if isinstance(unit, int) and not isinstance(unit, bool) and unit > 0 else 100
    return {"types": ["time-charge"], "time_charge": {
        "basis": "per-table", "hourly_cents": 2 * unit, "assessed_every_minutes": 30}}


def without_rake(rules: TableRules) -> TableRules:
    """The rules of a hand whose options name no rake: no pot rake and no time charge
    (637a.17(a)-(b)). A Rules Submission names at least one kind of rake, so the options
    are checked with a placeholder time charge, then dropped: a hand worked out without
    a rake is never charged one the script did not give."""
    bare = replace(rules, rake=None, time_charge=None)
    object.__setattr__(bare, "_as_dict", {**rules.shared_dict(), "rake": None})
    return bare


def _options_field(field: str | None) -> str:
    """Where in the script a refused option is: the game, or a field of ``options``."""
    if field == "game":
        return "game"
    return "options" if field in (None, "", "rules") else f"options.{field}"


def _script_stacks(value: Any, rules: TableRules) -> dict[int, int]:
    """Each dealt-in seat's table stakes (637a.8(b)(1)): a seat of the table, whole
    cents above nothing (a player with no stakes is not dealt in)."""
    if not isinstance(value, dict) or not value:
        raise ScriptError("stacks maps each seat dealt in to its table stakes in cents",
                          code="invalid_stacks", field="stacks")
    seats = int(rules.shared_dict().get("seats") or 10)  # the table's positions
    out: dict[int, int] = {}
    for key, cents in value.items():
        seat = int(key) if isinstance(key, str) and key.isdigit() else None
        if seat is None or not 1 <= seat <= seats:
            raise ScriptError(f"{key!r} is not a seat number", code="invalid_stacks",
                              field=f"stacks.{key}")
        if not isinstance(cents, int) or isinstance(cents, bool) or not 0 < cents <= MAX_CENTS:
            raise ScriptError(f"seat {seat}'s stakes are whole cents above 0",
                              code="invalid_stacks", field=f"stacks.{key}")
        out[seat] = cents
    return out


def _start(rules: TableRules, script: Mapping[str, Any]) -> Hand:
    stacks = _script_stacks(script.get("stacks"), rules)
    try:
        return Hand.start(rules, stacks, button=script.get("button"),
                          deck=script.get("deck"), straddle=bool(script.get("straddle")),
                          kill_active=bool(script.get("kill_active")), check_stakes=False)
    except DomainError as exc:
        raise refused(exc, exc.field or "script") from None


def _play(hand: Hand, commands: Any) -> None:
    """The dealer's commands in order; the first the rules refuse names its step."""
    if not isinstance(commands, list):
        raise ScriptError("commands is a list of the dealer's commands", field="commands")
    if len(commands) > SCRIPT_LIMIT:
        raise ScriptError(f"at most {SCRIPT_LIMIT} commands", code="script_too_long",
                          field="commands")
    for i, command in enumerate(commands):
        try:
            hand.execute(command)
        except DomainError as exc:
            raise refused(exc, f"commands[{i}]") from None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            # the engine checks its commands; a shape it did not foresee is still the
            # script's fault, never a server error
            raise ScriptError(f"commands[{i}] is not a command the engine can run",
                              code="invalid_command", field=f"commands[{i}]") from None


def _award(d: Mapping[str, Any]) -> dict[str, Any]:
    return {"pot_number": d["pot"] + 1, "seat": d["seat"], "amount_cents": d["amount"],
            "share": d.get("share"), "odd_chips_cents": d.get("odd_chips", 0)}


def settlement(hand: Hand, withheld: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """What the script comes to: pots, awards, rake, contributions, the stacks. The gross
    pot and the Pot after the rake and the contributions (637a.1) are two figures
    (poker_room.domain.pot_figures); each pot names the seats that may win it; the first
    player to act in each betting round, the Forced Bet's seat and the Kill in force for
    the next hand are read off the hand (pot_figures.dispute_figures); a time charge is
    the one the rules gave (637a.17(b)(3)), never one the calculator made up; the funds
    its table pays nothing into for want of their box (``withheld``, 637a.2(e)) are
    named with why. Every amount in cents, in a field named so."""
    done = pot_figures.hand_result(hand.result, hand.events) or {}
    start = {s: v for s, v in hand.events[0]["data"]["seats"]}
    return {"game": hand.rules.game, "complete": hand.is_complete,
            "voided": bool(done.get("voided")), "phase": hand.phase,
            "to_act": hand.to_act, "board": hand.board,
            "gross_pot_cents": done.get("gross_pot_cents"),
            "pot_cents": done.get("pot_cents"), "rake_cents": done.get("rake_cents"),
            "rake_by_pot_cents": done.get("rake_by_pot_cents"),
            "contributions": pot_figures.contributions(hand.events),
            **pot_figures.dispute_figures(hand, withheld),
            "time_charge": (hand.base_rules.time_charge.to_dict()
                            if hand.base_rules.time_charge else None),
            "awards": [_award(e["data"]) for e in hand.events if e["type"] == "PotAwarded"],
            "starting_stacks_cents": {str(s): v for s, v in start.items()},
            "stacks_cents": {str(s): v for s, v in hand.stacks.items()},
            "net_cents": {str(s): v - start[s] for s, v in hand.stacks.items()},
            "events": hand.events}


def hand_settle_script(*, actor: Actor, script: Any) -> dict[str, Any]:
    """637a.18(a): the poker shift supervisor works a disputed hand out from its script:
    the table's rules (``rules_submission_id`` of the property's, or ``game`` and
    ``options``; with ``table_id`` the table's Rules Submission and its jackpot boxes,
    637a.2(e)), ``stacks``, ``button``, ``straddle``, ``deck`` (the engine deals) or the
    cards in the ``deal`` commands, and the dealer's ``commands`` in order. Returns the
    pots, the awards, the rake, the contributions and the stacks. Nothing is recorded.
    Bad input is a 400 whose code says what and whose field says where."""
    actor.require(*DISPUTE_ROLES)
    if not isinstance(script, dict):
        raise ScriptError("the script is an object", field="script")
    rules, withheld = _script_rules(actor, script)
    hand = _start(rules, script)
    _play(hand, script.get("commands"))
    return settlement(hand, withheld)
