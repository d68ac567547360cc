"""Hand histories and disputes (637a.18(a): in every dispute the poker shift supervisor's
decision is final, and it is made on the record).

* :func:`hand_steps`: a hand rebuilt from its events, each in plain words with who
  recorded it (login, role, Board-issued credential number, 637a.16(f)(4)) and the cards.
* :func:`hand_phh` / :func:`table_day_phhs`: a completed hand, or every completed hand of
  a table's gaming day, as a PHH hand history (the open format of ``uoftcprg/phh-std``;
  several hands are one ``.phhs`` file, a TOML section ``[1]``, ``[2]``... per hand).
* :func:`hand_settle_script`: the dispute calculator, a hand worked out from its script
  by the same engine, with nothing recorded.

PHH has no rake and no jackpot contribution: the export keeps ours in user-defined fields
(PHH reserves field names starting with ``_`` for them): ``_pa_pot_cents`` (each pot as
the players made it), ``_pa_rake_by_pot`` (637a.17(b)) and ``_pa_taken_by_pot`` (rake plus
the contributions, 637a.15(c), 637a.16(c)). A replay that takes those off each pot reaches
the recorded ``finishing_stacks`` (pokerkit does, given them as its rake function).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from datetime import date, datetime, time, timedelta, timezone
from typing import Any

from casino.actors import Actor
from casino.domain.cards import format_card
from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import RecordedEvent, read_stream
from casino.roles import Role
from casino.scoping import property_row
from poker_room.domain.hand import Hand
from poker_room.domain.phh import to_phh
from poker_room.domain.rules import TableRules
from poker_room.domain.visibility import AUDIT, event_data
from poker_room.services.hands import ROUND_EVENTS, engine_events, hand_load
from tables.domain.catalogue import POKER_GAMES
from tables.domain.options_reader import MAX_CENTS
from tables.models import GameTable, Round, RoundState, RulesSubmission

#: who may read a hand's whole record once it is over (637a.18(a) disputes, audits)
HISTORY_READERS = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE,
                   Role.FINANCE, Role.SECURITY)
#: 637a.18(a): the supervisor rules on disputes; the floor and compliance may work one out
DISPUTE_ROLES = (Role.POKER_SHIFT_SUPERVISOR, Role.FLOORPERSON, Role.COMPLIANCE)
#: the most commands a script may hold: ten players, every street, every raise
SCRIPT_LIMIT = 500


# --- the hand in plain words ------------------------------------------------------------

def _usd(cents: Any) -> str:
    return f"${cents / 100:,.2f}" if isinstance(cents, int) else "?"


def _codes(cards: Any) -> str:
    """Cards as codes; a card the audience may not see yet is ``??``."""
    if not isinstance(cards, list):
        return "??" if cards is None else format_card(cards)
    return " ".join("??" if c is None else format_card(c) for c in cards)


def _seats_of(pairs: list) -> str:
    return "; ".join(f"seat {s} {_codes(cs)}" for s, cs in pairs)


def _stacks(pairs: list) -> str:
    return ", ".join(f"seat {s} {_usd(v)}" for s, v in pairs)


def _round(d: Mapping[str, Any]) -> int:
    return d.get("round", 0) + 1  # the engine counts betting rounds from 0


def _completed(d: Mapping[str, Any]) -> str:
    if d.get("voided"):
        return f"Hand void: every bet returned; stacks {_stacks(d['stacks'])}"
    winners = ", ".join(str(s) for s in d.get("winners") or [])
    return (f"Hand over: pot {_usd(d['pot'])}, rake {_usd(d['rake'])}, won by seat "
            f"{winners}; stacks {_stacks(d['stacks'])}")


#: each event in words (``d``: its data as the audit audience may see it)
_WORDS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "RoundOpened": lambda d: f"Hand {d.get('number')} opened under Rules Submission "
                             f"version {d.get('rules_version_number')}",
    "HandStarted": lambda d: f"Dealt in: {_stacks(d['seats'])}"
                             + (f"; button at seat {d['button']}" if d.get("button") else ""),
    "AntesPosted": lambda d: f"Antes: {_stacks(d['amounts'])}",
    "BlindPosted": lambda d: f"Seat {d['seat']} posts the {d.get('kind', 'blind')} "
                             f"{_usd(d['amount'])}",
    "CardsDealt": lambda d: f"Dealt: {_seats_of(d['cards'])}",
    "BoardDealt": lambda d: f"Board: {_codes(d['cards'])}",
    "CommonCardDealt": lambda d: f"Common card (637a.10(h)): {_codes(d['card'])}",
    "CardBurned": lambda d: f"Card burned: {_codes(d['card'])}",
    "BettingRoundStarted": lambda d: f"Betting round {_round(d)}: seat {d['first']} first",
    "BringInDue": lambda d: f"Seat {d['seat']} is to make the Forced Bet",
    "BringInPosted": lambda d: f"Seat {d['seat']} brings in {_usd(d['amount'])}",
    "PlayerBet": lambda d: f"Seat {d['seat']} bets {_usd(d['to'])}",
    "PlayerRaised": lambda d: f"Seat {d['seat']} raises to {_usd(d['to'])}",
    "PlayerCalled": lambda d: f"Seat {d['seat']} calls {_usd(d['amount'])}",
    "PlayerChecked": lambda d: f"Seat {d['seat']} checks",
    "PlayerFolded": lambda d: f"Seat {d['seat']} folds",
    "PlayerDrew": lambda d: f"Seat {d['seat']} discards {_codes(d['discarded']) or 'none'}"
                            f" and draws {_codes(d['cards']) or 'none'}",
    "PlayerDiscarded": lambda d: f"Seat {d['seat']} discards {_codes(d['cards'])}",
    "UncalledBetReturned": lambda d: f"Uncalled {_usd(d['amount'])} returned to seat "
                                     f"{d['seat']} (637a.17(d))",
    "BettingRoundClosed": lambda d: f"Betting round {_round(d)} over: pot {_usd(d['pot'])}",
    "RakeTaken": lambda d: f"Rake {_usd(d['amount'])} ({d.get('kind')}; "
                           f"{_usd(d.get('total'))} in all)",
    "JackpotContributionTaken": lambda d: f"{_usd(d['amount'])} from pot {d['pot'] + 1} to "
                                          f"the {d.get('fund_name', d.get('fund'))} fund",
    "ShowdownStarted": lambda d: "Showdown, shown in the order seat "
                                 + ", ".join(str(s) for s in d["order"]),
    "HandShown": lambda d: f"Seat {d['seat']} shows {_codes(d['cards'])}",
    "HandMucked": lambda d: f"Seat {d['seat']} mucks",
    "PotAwarded": lambda d: f"Pot {d['pot'] + 1}: {_usd(d['amount'])} to seat {d['seat']}"
                            + ("" if d.get("share") in (None, "whole")
                               else f" ({d['share']} share)"),
    "HandCompleted": _completed,
    "CardDiscarded": lambda d: f"Card {_codes(d['card'])} taken out of play: "
                               f"{d.get('reason')}",
    "ExposedCardReplaced": lambda d: f"Seat {d['seat']}'s exposed {_codes(d['card'])} "
                                     f"replaced by {_codes(d['replacement'])} (637a.18(p))",
    "PlayerHandVoided": lambda d: f"Seat {d['seat']}'s hand void, {_usd(d['returned'])} "
                                  f"returned ({d.get('rule')})",
    "MisdealDeclared": lambda d: f"Misdeal (637a.18(g)): {d.get('reason')}",
    "HandVoided": lambda d: f"Hand void (637a.18(i)): {d.get('reason')}",
    "BurnCardsReshuffled": lambda d: "The burn cards reshuffled to finish the deal",
    "DiscardsReshuffled": lambda d: "The discards reshuffled to finish the draw",
    "FloorRuling": lambda d: f"Floor ruling: {d.get('ruling')}",
    "JackpotContributed": lambda d: f"{_usd(d['amount_cents'])} recorded for the "
                                    f"{d.get('fund')} fund",
    "BadBeatQualified": lambda d: "The hand met the posted Bad Beat rules, for the poker "
                                  "shift supervisor to verify (637a.15(f))",
    "RoundClosed": lambda d: "Hand closed",
}


def _words(type_: str, data: Mapping[str, Any]) -> str:
    """The event in plain words; an event this list does not know by its type's words
    (a record is never left out of the history for want of a sentence)."""
    say = _WORDS.get(type_)
    try:
        if say is not None:
            return say(data)
    except (KeyError, TypeError, ValueError, IndexError):
        pass  # an older event's shape: its type still says what happened
    return re.sub(r"(?<!^)(?=[A-Z])", " ", type_).capitalize()


def _step(e: RecordedEvent, over: bool) -> dict[str, Any]:
    """One recorded event: when, who recorded it under which role, in words, its data."""
    data = e.data if e.type in ROUND_EVENTS else event_data(e.type, e.data, hand_over=over,
                                                             audience=AUDIT)
    meta = e.metadata or {}
    return {"version": e.version, "at": e.recorded_at.isoformat(), "type": e.type,
            "actor": meta.get("actor"), "role": meta.get("role"),
            "credential_number": meta.get("credential_number"),
            "text": _words(e.type, data), "data": data}


def hand_steps(*, actor: Actor, round_id: Any) -> dict[str, Any]:
    """637a.18(a): the hand as it happened, step by step, for whoever settles a dispute:
    every card once the hand is over; face-down cards hidden (``??``) while it is in
    progress (:mod:`poker_room.domain.visibility`)."""
    actor.require(*HISTORY_READERS)
    ph = hand_load(actor=actor, round_id=round_id)
    over = ph.closed or ph.hand.is_complete
    return {"round_id": str(ph.round_id), "number": ph.number,
            "table": {"id": str(ph.table.pk), "name": ph.table.name, "game": ph.table.game},
            "gaming_day": _day_of(ph.events), "over": over,
            "steps": [_step(e, over) for e in ph.events]}


# --- PHH ----------------------------------------------------------------------------------

def _day_of(recorded: list[RecordedEvent]) -> str | None:
    """A hand's gaming day: the one its first event was recorded in (``Actor.metadata``)."""
    return (recorded[0].metadata or {}).get("gaming_day") if recorded else None


def _toml_str(text: str) -> str:
    # a JSON string is a TOML basic string (the same escapes), whatever the table's name
    return json.dumps(text)


def _filename(*parts: str) -> str:
    """A download name with nothing a header or a file system would read otherwise."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", "-".join(parts))


def _deductions(hand: Hand) -> tuple[list[int], list[int], list[int]]:
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
    pots, rake, taken = _deductions(hand)
    extra = [f"table = {_toml_str(table)}", f"_pa_pot_cents = {pots}",
             f"_pa_rake_by_pot = {rake}", f"_pa_taken_by_pot = {taken}",
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
    day = _parse_day(_day_of(ph.events))
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
    not played: it is listed in ``voided`` and left out of the file."""
    actor.require(*HISTORY_READERS)
    table = property_row(GameTable.objects.all(), actor, table_id, what="table")
    if table.game not in POKER_GAMES:
        raise ConflictError(f"table {table.name} is not a poker table",
                            code="not_a_poker_table")
    sections: list[str] = []
    voided: list[int] = []
    for rnd in _rounds_near(table, gaming_day):
        recorded = read_stream(f"round-{rnd.pk}")
        events = engine_events(recorded)
        if _day_of(recorded) != gaming_day.isoformat() or not events:
            continue
        hand = Hand.from_events(events)
        if not hand.is_complete:
            continue
        if (hand.result or {}).get("voided"):
            voided.append(rnd.number)
            continue
        sections.append(f"[{len(sections) + 1}]\n"
                        + phh_of(hand, table=table.name, day=gaming_day, number=rnd.number))
    return {"filename": _filename(table.name, gaming_day.isoformat()) + ".phhs",
            "gaming_day": gaming_day, "hands": len(sections), "voided": voided,
            "phh": "\n".join(sections)}


# --- the dispute calculator ---------------------------------------------------------------

class ScriptError(DomainError):
    """The script is refused: 400, the code and the field saying what and where."""

    code = "invalid_script"


def refused(exc: DomainError, field: str) -> ScriptError:
    """An engine's refusal as a script error: the same code, the field within the
    script. In a script an impossible action is bad input, not a conflict with a hand."""
    where = field + (f".{exc.field}" if exc.field and exc.field != field else "")
    return ScriptError(exc.message, code=exc.code, field=where)


def _script_rules(actor: Actor, script: Mapping[str, Any]) -> TableRules:
    """The rules the hand is worked under: a Rules Submission of the caller's property
    (any version: a dispute may be about a hand dealt under an older one), or the game
    and its options as a Rules Submission states them."""
    game = script.get("game")
    if script.get("rules_submission_id") is not None:
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
                              code="game_mismatch", field="game")
        return TableRules.from_options(rs.game, rs.options)
    options = script.get("options")
    if not isinstance(options, dict):
        raise ScriptError("give the Rules Submission's id, or the game and its options "
                          "(an object)", field="options")
    try:
        return TableRules.from_dict({**options, "game": game})
    except DomainError as exc:
        raise ScriptError(exc.message, code=exc.code, field=_options_field(exc.field)
                          ) from None


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


def _pots(hand: Hand) -> list[dict[str, Any]]:
    """Each pot: what the players put in, the rake and contributions taken from it, what
    each winner was awarded."""
    gross, rake, _ = _deductions(hand)
    pots = [{"pot": k + 1, "amount_cents": amount, "rake_cents": rake[k],
             "contributions": [], "awards": []} for k, amount in enumerate(gross)]
    for e in hand.events:
        d = e["data"]
        if e["type"] == "JackpotContributionTaken":
            pots[d["pot"]]["contributions"].append(
                {"fund": d.get("fund_name", d["fund"]), "amount_cents": d["amount"]})
        elif e["type"] == "PotAwarded":
            pots[d["pot"]]["awards"].append({"seat": d["seat"], "amount_cents": d["amount"],
                                             "share": d.get("share"),
                                             "odd_chips": d.get("odd_chips", 0)})
    return pots


def _contributions(hand: Hand) -> list[dict[str, Any]]:
    """What each fund took from the hand's pots, by the fund's posted name, in order."""
    funds: dict[str, int] = {}
    for e in hand.events:
        if e["type"] == "JackpotContributionTaken":
            name = e["data"].get("fund_name", e["data"]["fund"])
            funds[name] = funds.get(name, 0) + e["data"]["amount"]
    return [{"fund": f, "amount_cents": a} for f, a in funds.items()]


def settlement(hand: Hand) -> dict[str, Any]:
    """What the script comes to: pots, awards, rake, contributions, the stacks."""
    result = hand.result or {}
    start = {s: v for s, v in hand.events[0]["data"]["seats"]}
    return {"game": hand.rules.game, "complete": hand.is_complete,
            "voided": bool(result.get("voided")), "phase": hand.phase,
            "to_act": hand.to_act, "board": hand.board,
            "pot_cents": result.get("pot"), "rake_cents": result.get("rake"),
            "rake_by_pot": result.get("rake_by_pot"),
            "contributions": _contributions(hand),
            "pots": _pots(hand) if hand.is_complete else [],
            "awards": [e["data"] for e in hand.events if e["type"] == "PotAwarded"],
            "starting_stacks": {str(s): v for s, v in start.items()},
            "stacks": {str(s): v for s, v in hand.stacks.items()},
            "net": {str(s): v - start[s] for s, v in hand.stacks.items()},
            "events": hand.events}


def hand_settle_script(*, actor: Actor, script: Any) -> dict[str, Any]:
    """637a.18(a): the poker shift supervisor works a disputed hand out from its script:
    the table's rules (``rules_submission_id`` of the property's, or ``game`` and
    ``options``), ``stacks``, ``button``, ``straddle``, ``deck`` (the engine deals) or the
    cards in the ``deal`` commands, and the dealer's ``commands`` in order. Returns the
    pots, the awards, the rake, the contributions and the stacks. Nothing is recorded.
    Bad input is a 400 whose code says what and whose field says where."""
    actor.require(*DISPUTE_ROLES)
    if not isinstance(script, dict):
        raise ScriptError("the script is an object", field="script")
    hand = _start(_script_rules(actor, script), script)
    _play(hand, script.get("commands"))
    return settlement(hand)
