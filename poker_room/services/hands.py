"""Poker hands through the dealer terminal (637a.7, 637a.10-637a.21), on the command runner.

A hand is a round of play at a poker table: :func:`hand_start` opens the round through
tables' gate (rules in effect, the table open, its two decks in play and alternating,
nothing due: ``deck_change_due``, ``second_deck_missing``...), deals the seated players in
and records the engine's first events in the round's stream, the deck's and the table's
in one command on the runner (one locked read of the table:
:mod:`poker_room.services.hand_opening`). Every later dealer action is
one command (:func:`hand_command`) or several in one batch (the forced bets; a whole
betting round from a terminal that buffers), each an event in the round's stream, run by
:mod:`casino.command_runner` on the round's row with its snapshot (the hand's events:
:meth:`Hand.from_events` rebuilds it). When a command completes the hand, the same
transaction records the jackpot contributions for the funds (``JackpotContributed``, one
per fund per pot, 637a.15(c), 637a.16(c)), settles the stacks at the table
(``HandSettled``: the button and the Kill carried to the next hand) and closes the round.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from casino import command_runner
from casino.actors import Actor
from casino.command_runner import Aggregate, Also, Decision, Loaded
from casino.domain.cards import shuffled_deck
from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import NewEvent, RecordedEvent, Stream, read_stream
from casino.roles import Role
from django.db import transaction
from poker_room.domain import bad_beat
from poker_room.domain.hand import Hand
from poker_room.domain.visibility import AUDIT, event_data
from poker_room.models import Seat
from poker_room.services import hand_opening
from poker_room.services.hand_state import _from_snapshot, _rebuild, _to_snapshot
from tables.domain.catalogue import POKER_GAMES
from tables.models import Round, RoundState
from tables.services import banked, round_start
from tables.services.common import act_at_table, record



#: who deals and records a hand: the dealer at the table, or a floorperson
DEALING = (Role.DEALER, Role.FLOORPERSON)
#: who rules on a hand (637a.18(a))
RULING = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
#: the most commands in one batch: a whole betting round of ten players with raises
BATCH_LIMIT = 60


class HandError(DomainError):
    code = "invalid_command"


_POKER_IN = ", ".join(f"'{g}'" for g in POKER_GAMES)
#: The hand aggregate: a poker round's row, scoped to the caller's property, keeps the
#: snapshot. Columns after the snapshot: id, table id, number, state, the table's dealer,
#: name and game, then the poker table's stream version and current hand: the command that
#: ends the hand settles it in the table's stream at that version, in its own transaction
#: (not locked: a seating command that moved the table's stream since makes the append
#: conflict, and the runner decides again on a fresh read).
HAND: Aggregate[Hand | None] = command_runner.register(Aggregate(
    name="poker_hand", stream_type="round", what="hand",
    select=("SELECT r.snapshot, r.snapshot_version, r.id, r.table_id, r.number, r.state, "
            "t.dealer_id, t.name, t.game, p.stream_version, p.current_hand_id "
            "FROM tables_round r JOIN tables_gametable t ON t.id = r.table_id "
            "LEFT JOIN poker_room_pokertable p ON p.table_id = t.id "
            "WHERE r.id = %%s AND t.property_id = %%s AND t.game IN (" + _POKER_IN + ")"
            "%(lock)s"),
    update=("UPDATE tables_round SET snapshot = %%s%(json)s, snapshot_version = %%s, "
            "stream_version = %%s WHERE id = %%s"),
    stream_id=lambda key: f"round-{key}",
    rebuild=_rebuild,
    to_snapshot=_to_snapshot,
    from_snapshot=_from_snapshot,
    all_keys=("SELECT r.id FROM tables_round r JOIN tables_gametable t ON t.id = r.table_id "
              "WHERE t.game IN (%s)" % ", ".join(f"'{g}'" for g in POKER_GAMES)),
))


@dataclass(frozen=True)
class TableSeen:
    pk: Any
    dealer_id: int | None
    name: str
    game: str


@dataclass
class PokerHand:
    """A hand as a command answers it: the round's id and number, the table, the state
    and the stream version the terminal sends with its next command, the events this
    command appended."""

    round_id: uuid.UUID
    number: int
    table: TableSeen
    hand: Hand
    version: int
    closed: bool
    events: list[RecordedEvent]
    #: 637a.2(e): the funds the hand pays nothing into for want of their box, with why
    #: (its ``HandDealtAtTable``'s); read from the table's stream when first asked
    withheld: list[dict[str, Any]] | None = None

    @property
    def jackpots_withheld(self) -> list[dict[str, Any]]:
        if self.withheld is None:
            self.withheld = hand_opening.withheld_at_deal(self.table.pk, self.round_id)
        return self.withheld


# --- starting a hand -------------------------------------------------------------------

def _deck_order(value: Any) -> list[int] | None:
    if value is None:
        return None
    from casino.domain.cards import parse_card

    if not isinstance(value, list):
        raise HandError("deck is the 52 cards in dealing order, top card first",
                        code="invalid_deck", field="deck")
    try:
        return [parse_card(c) if isinstance(c, str) else c for c in value]
    except (ValueError, DomainError):
        raise HandError("deck holds card codes such as 'As', 'Td'", code="invalid_deck",
                        field="deck") from None


def hand_start(*, actor: Actor, table_id: Any, deck_id: Any = None, straddle: Any = False,
               deck: Any = None, shuffle: Any = False) -> PokerHand:
    """Start a hand at the table: the players seated and playing are dealt in (637a.8(a));
    ``deck_id`` the deck of the pair that deals it, or None for the deck due (the decks
    alternate hand by hand, 637a.3(a));
    ``deck`` is the deck's recorded shuffle (top card first) when the engine deals,
    ``shuffle`` has the server shuffle it (the operating system's CSPRNG, as the banked
    games' ``deal-from-shuffle``), neither: the dealer records the cards as dealt (the
    order is kept in the hand's record, never shown to a terminal); ``straddle``: the
    player left of the blinds places the one Straddle Bet (637a.11(e))."""
    if not isinstance(straddle, bool) or not isinstance(shuffle, bool):
        raise HandError("straddle and shuffle are true or false", code="invalid_option",
                        field="straddle" if not isinstance(straddle, bool) else "shuffle")
    if shuffle and deck is not None:
        raise HandError("send a deck order or ask for a shuffle, not both",
                        code="invalid_deck", field="deck")
    order = shuffled_deck()[0] if shuffle else _deck_order(deck)
    seen: dict[str, Any] = {}

    def decide(loaded: Loaded[None]) -> Decision[None]:
        # the checks in the order the dealer is told: the table, the hand, the round's gate
        at = hand_opening.poker_table_at_start(loaded.row)
        table = at.table
        hand_opening.poker_table_required(table)
        role = act_at_table(actor, table, *DEALING)
        stacks = hand_opening.check_hand_may_start(at)
        opening, others = round_start.opening(actor, table, deck_id)
        rules, withheld = hand_opening.rules_for_hand(
            table.game, opening.rules, at.agreed_minimum_bet_cents, at.jackpot_boxes)
        button = hand_opening.button(at.button_seat, sorted(stacks), rules.spec.family)
        hand = Hand.start(rules, stacks, button=button,
                          deck=list(order) if order is not None else None,
                          straddle=straddle, kill_active=at.kill_active,
                          hand_id=opening.round_id)
        others, version = hand_opening.hand_dealt(at, opening, others, hand, list(stacks),
                                                  button, withheld)
        seen.update(opening=opening, hand=hand, version=version, withheld=withheld,
                    table=TableSeen(uuid.UUID(table.id), table.dealer_id, table.name,
                                    table.game))
        return Decision(None, [], role, {"table": table.id}, others=others,
                        snapshots=[(HAND, uuid.UUID(opening.round_id), hand, version)])

    out = command_runner.command_run(hand_opening.TABLE_HAND_START, key=table_id,
                                     actor=actor, decide=decide)
    opening = seen["opening"]
    recorded = round_start.round_events(out, opening)[1:]  # the hand's, after RoundOpened
    return PokerHand(uuid.UUID(opening.round_id), opening.number, seen["table"],
                     seen["hand"], seen["version"], False, recorded, seen["withheld"])


# --- commands ---------------------------------------------------------------------------

@dataclass(frozen=True)
class _HandRow:
    """The round's row as the hand aggregate reads it (:data:`HAND`)."""

    table: TableSeen
    round_id: uuid.UUID
    number: int
    state: str
    table_version: int            # the poker table's stream version (0 before its first)
    table_hand_id: str | None     # the hand the table has in progress


def _row_models(row: tuple[Any, ...]) -> _HandRow:
    round_id, table_id, number, state, dealer_id, name, game, table_version, hand_id = row
    table = TableSeen(uuid.UUID(str(table_id)), dealer_id, name, game)
    return _HandRow(table, uuid.UUID(str(round_id)), number, state, table_version or 0,
                    str(uuid.UUID(str(hand_id))) if hand_id else None)


def _commands(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not value:
        raise HandError("commands is a list of one or more commands", code="invalid_batch",
                        field="commands")
    if len(value) > BATCH_LIMIT:
        raise HandError(f"at most {BATCH_LIMIT} commands in one batch", code="batch_too_large",
                        field="commands")
    for i, c in enumerate(value):
        if not isinstance(c, dict) or not isinstance(c.get("type"), str):
            raise HandError(f"commands[{i}] is an object with a type", code="invalid_command",
                            field=f"commands[{i}]")
    return value


def hand_command(*, actor: Actor, round_id: Any, commands: Any,
                 expected_version: Any = None) -> PokerHand:
    """Run the dealer's commands on the hand, in order, all or nothing: each is the
    engine's command (``act``, ``deal``, ``draw``, ``discard``, ``card_discard``,
    ``hole_card_exposed``, ``cards_not_in_view``, ``hand_fouled``, ``misdeal``, ``void``;
    :meth:`Hand.execute`). 409
    ``stale_hand_version`` when the terminal decided on an older version, 409
    ``hand_closed`` once the hand is over, the engine's codes (``not_your_turn``,
    ``bet_below_minimum``, ``card_already_dealt``...) for what the rules refuse."""
    batch = _commands(commands)
    if expected_version is not None and (not isinstance(expected_version, int)
                                         or isinstance(expected_version, bool)):
        raise HandError("expected_version is the stream version the terminal last saw",
                        code="invalid_version", field="expected_version")
    seen: dict[str, Any] = {}

    def decide(loaded: Loaded[Hand | None]) -> Decision[Hand | None]:
        row = _row_models(loaded.row)
        table = row.table
        seen.update(table=table, number=row.number, closed=False)
        role = act_at_table(actor, table, *DEALING)
        if row.state != RoundState.OPEN:
            raise ConflictError("the hand is over", code="hand_closed")
        hand = loaded.state
        if hand is None:
            raise ConflictError("this round is not a poker hand", code="not_a_poker_hand")
        if expected_version is not None and expected_version != loaded.version:
            raise ConflictError(f"the hand is at version {loaded.version}, not "
                                f"{expected_version}: reload it and decide again",
                                code="stale_hand_version")
        events: list[dict[str, Any]] = []
        for i, command in enumerate(batch):
            try:
                events += hand.execute(command)
            except DomainError as exc:
                if len(batch) > 1 and exc.field is not None:
                    exc.field = f"commands[{i}].{exc.field}"
                raise
        others: list[Also] = []
        if hand.is_complete:
            events += _contributed(events, table, actor, hand.hand_id)
            events += _bad_beat(hand, table, actor)
            settled = _settlement(hand, row)
            if settled is not None:
                events.append({"type": "RoundClosed", "data": {}})
                others.append(settled)
                seen["closed"] = True
        return Decision(hand, [NewEvent(e["type"], e["data"]) for e in events], role,
                        {"table": str(table.pk)}, others=others)

    # DESIGN §3 "one command, one transaction": the command that ends the hand records its
    # settlement at the table and the round's close with it (:func:`_settlement`), so no
    # crash can leave a hand over but unsettled.
    out = command_runner.command_run(HAND, key=round_id, actor=actor, decide=decide)
    return PokerHand(uuid.UUID(str(round_id)), seen["number"], seen["table"], out.state,
                     out.version, seen["closed"] and bool(out.events), out.events)


def _settlement(hand: Hand, row: _HandRow) -> Also | None:
    """The hand is over: the stacks back to the seats, the Kill carried to the next hand
    (637a.12(n)), recorded in the table's stream at the version the command read (the
    round's ``RoundClosed`` goes with it in the round's stream). None when the table has
    another hand in progress (a hand dealt before the table's stream knew of hands):
    nothing to settle at the table then."""
    if row.table_hand_id != str(row.round_id):
        return None
    result = hand.result or {}
    return Also(Stream("poker_table", f"poker_table-{row.table.pk}"), row.table_version, [
        NewEvent("HandSettled", {
            "round_id": str(row.round_id),
            "stacks": {str(s): v for s, v in hand.stacks.items()},
            "kill_next": bool(result.get("kill_next")), "voided": bool(result.get("voided")),
            "rake_cents": result.get("rake", 0)})])


def _contributed(events: list[dict[str, Any]], table: TableSeen, actor: Actor,
                 hand_id: Any) -> list[dict[str, Any]]:
    """637a.15(c), 637a.16(c): one ``JackpotContributed`` per fund per pot, the public
    record the jackpots app follows (it reads these, never the engine's events). Each
    names its hand: the hand's own id (the hand started in an earlier command, so its
    ``HandStarted`` is not among the events of the command that ends it)."""
    day = actor.gaming_day().isoformat()
    return [{"type": "JackpotContributed", "data": {
        "fund": e["data"]["fund_name"], "kind": e["data"]["fund"], "pot": e["data"]["pot"],
        "amount_cents": e["data"]["amount"], "table_id": str(table.pk), "gaming_day": day,
        "hand_id": hand_id}}
        for e in events if e["type"] == "JackpotContributionTaken"]


def _bad_beat(hand: Hand, table: TableSeen, actor: Actor) -> list[dict[str, Any]]:
    """637a.15(f)(1): a hand that met the posted qualifying rules at the showdown is
    recorded as such, to be verified by the poker shift supervisor (the jackpots app)."""
    options = hand.rules.shared_dict().get("bad_beat")
    judged = bad_beat.judge(table.game, options, hand.events)
    if judged is None:
        return []
    # the posted payout shares go with it (637a.15(b)(3)): the jackpots pay by them
    # without reading the hand's rules
    return [{"type": "BadBeatQualified", "data": {
        **judged, "fund": options["fund"], "table_id": str(table.pk),
        "gaming_day": actor.gaming_day().isoformat(), "hand_id": hand.hand_id,
        "payout_shares_bp": dict(options["payout_shares_bp"])}}]


# --- reads ------------------------------------------------------------------------------

def hand_load(*, actor: Actor, round_id: Any) -> PokerHand:
    """The hand as it stands, read without a lock or an append."""
    from casino.scoping import property_row

    rnd = property_row(Round.objects.select_related("table"), actor, round_id, what="hand",
                       via="table__property")
    if rnd.table.game not in POKER_GAMES:
        raise ConflictError("this round is not a poker hand", code="not_a_poker_hand")
    recorded = read_stream(f"round-{rnd.pk}")
    hand = _rebuild(recorded)
    if hand is None:
        raise ConflictError("this round is not a poker hand", code="not_a_poker_hand")
    table = TableSeen(rnd.table.pk, rnd.table.dealer_id, rnd.table.name, rnd.table.game)
    return PokerHand(rnd.pk, rnd.number, table, hand, recorded[-1].version,
                     rnd.state != RoundState.OPEN, recorded)


def table_seats(table_id: Any) -> list[Seat]:
    return list(Seat.objects.filter(table_id=table_id).order_by("seat"))


def audit_event_view(stream_id: str, recorded: list[RecordedEvent]) -> list[dict[str, Any]]:
    """The event log's view of a round stream: a poker hand's events as the audit roles
    may see them (every card once the hand is over, face-down cards hidden before:
    :mod:`poker_room.domain.visibility`); any other round as tables shows it."""
    if not any(e.type == "HandStarted" for e in recorded):
        return banked.audit_event_view(stream_id, recorded)
    over = any(e.type in ("HandCompleted", "RoundClosed") for e in recorded)
    return [event_data(e.type, e.data, hand_over=over, audience=AUDIT) for e in recorded]


def floor_ruling(*, actor: Actor, round_id: Any, ruling: Any) -> PokerHand:
    """A floorperson's or the poker shift supervisor's ruling on the hand, recorded in
    its stream (637a.18(a): the supervisor's decision is final; 637a.18(s)). What the
    ruling changes is then done by the dealer's commands (a misdeal, a void, an exposed
    card replaced...)."""
    if not isinstance(ruling, str) or not ruling.strip() or len(ruling) > 2000:
        raise HandError("the ruling is text of 1 to 2000 characters", code="invalid_ruling",
                        field="ruling")
    with transaction.atomic():
        table, rnd, role = banked.lock_round(actor, round_id, RULING)
        if table.game not in POKER_GAMES:
            raise ConflictError("this round is not a poker hand", code="not_a_poker_hand")
        recorded = record(rnd, [NewEvent("FloorRuling", {"ruling": ruling.strip()})], actor,
                          role, table=str(table.pk))
        # the snapshot moves to the stream's version, so the next command starts from it
        hand = _rebuild(read_stream(f"round-{rnd.pk}"))
        if hand is not None:
            command_runner.snapshot_save(HAND, rnd.pk, hand, recorded[-1].version)
    return hand_load(actor=actor, round_id=round_id)
