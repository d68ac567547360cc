"""Commands of a house-banked round (Lunar Poker 589 / 671a, Five Card Hi-Lo 579).

Every command runs through the one command runner (:mod:`casino.command_runner`,
:data:`ROUND`): the Round row is read under lock with its snapshot (the domain state at
the stream's version), the domain decides the typed command
(:mod:`tables.domain.banked.commands`), and the events are appended at that version with
the new snapshot, in one transaction of two round trips on PostgreSQL. A refusal appends
nothing. A batch (:class:`PlaceWagers`, :class:`LockDecisions`) is one command: one
commit, one event per fact.

The domain closes a round itself once everything is settled (its ``RoundClosed``). Here the
closing event is held back: the round gate (:func:`tables.services.rounds.round_close`)
appends it when the dealer closes the round, with the domain's totals, so the lifecycle is
"lock (settles) → close" at every table.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from casino import command_runner
from casino.actors import Actor
from casino.command_runner import Aggregate, Decision, Loaded
from casino.domain.cards import shuffled_deck
from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import NewEvent, RecordedEvent, read_stream
from casino.roles import Role
from casino.scoping import property_row
from tables.domain.banked import Phase, evolve, execute, rebuild, settle_script
from tables.domain.banked.commands import (
    Deal,
    Decide,
    Draw,
    DrawDealer,
    LockDecisions,
    NoMoreBets,
    PlaceWager,
    PlaceWagers,
    ReportIrregularity,
    RoundCommand,
    SetHands,
    WithdrawWager,
    steps,
)
from tables.domain.banked.events import Event, Recorder
from tables.domain.banked.payouts import close as domain_close
from tables.domain.banked.snapshot import state_from_snapshot, state_to_snapshot
from tables.domain.banked.state import RoundState
from tables.domain.catalogue import BANKED_GAMES
from tables.domain.banked.visibility import Audience, dealer_cards, event_data, settled
from tables.models import GameTable, Round
from tables.models import RoundState as RoundRowState
from tables.services.banked_stub import deck_events, deck_of
from tables.services.banked_stub import round_stub  # noqa: F401  (the stub command, kept here)
from tables.services.common import act_at_table

AT_TABLE = (Role.DEALER, Role.FLOORPERSON)
FLOOR_ONLY = (Role.FLOORPERSON,)
DISPUTE_ROLES = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE)


@dataclass(frozen=True)
class BankedRound:
    """What a command leaves: the round row, the domain state, the stream version and the
    events it appended."""

    round: Round | RoundSeen
    state: RoundState
    version: int
    events: list[RecordedEvent]

    @property
    def settled(self) -> bool:
        return awaiting_close(self.state)

    def dealer_shown(self, audience: Audience = Audience.TERMINAL) -> tuple[int, ...]:
        """The dealer's cards as ``audience`` may see them
        (:mod:`tables.domain.banked.visibility`): empty while face down."""
        return dealer_cards(self.state, audience)

    def events_shown(self, audience: Audience = Audience.TERMINAL
                     ) -> list[tuple[RecordedEvent, dict[str, Any]]]:
        """The events this command appended, each with its data as ``audience`` may see
        it (the dealer's face-down cards and a dealt deck left out)."""
        return visible_events(self.events, self.state, audience)


def is_banked(game: str) -> bool:
    return game in BANKED_GAMES


def domain_events(recorded: list[RecordedEvent]) -> list[Event]:
    return [{"type": e.type, "data": e.data} for e in recorded]


def awaiting_close(state: RoundState) -> bool:
    """Settled or void, with the closing event not yet appended."""
    return settled(state)


def visible_events(recorded: list[RecordedEvent], state: RoundState, audience: Audience
                   ) -> list[tuple[RecordedEvent, dict[str, Any]]]:
    """Each recorded event of a round with its data as ``audience`` may see it, ``state``
    being the round as it stands (DESIGN §2: what a person may see is a domain rule;
    :mod:`tables.domain.banked.visibility`): what the command answers,
    ``GET rounds/{id}/play/``, the admin's event history and the event log show (the
    reconstruction applies the same domain rule step by step)."""
    return [(e, event_data(e.type, e.data, state, audience)) for e in recorded]


def audit_event_view(stream_id: str, recorded: list[RecordedEvent]) -> list[dict[str, Any]]:
    """The event log's view of a round stream (``events/``, ``streams/{id}/events/``,
    registered in :mod:`tables.apps`): its events' data as audit roles may see them —
    compliance and finance see everything once the dealer's cards are turned up or the
    round is over, never before."""
    return [data for _, data in round_events_view(stream_id, recorded, Audience.AUDIT)]


def round_events_view(stream_id: str, recorded: list[RecordedEvent], audience: Audience
                      ) -> list[tuple[RecordedEvent, dict[str, Any]]]:
    """:func:`visible_events` for any stream: a house-banked round's events as
    ``audience`` may see them (its state rebuilt from ``recorded``, the whole stream);
    any other stream's as recorded."""
    if not stream_id.startswith("round-") or not recorded_by_domain(recorded):
        return [(e, e.data) for e in recorded]
    return visible_events(recorded, rebuild(domain_events(recorded)), audience)


def by_wager(state: RoundState) -> dict[str, dict[str, int]]:
    """Cents wagered and returned per wager type (every Super on another hand is one
    type, ``super_on``), sorted by type: what the table results and the simulation add up."""
    out: dict[str, dict[str, int]] = {}
    for p in state.positions.values():
        for w, amount in p.wagered.items():
            row = out.setdefault("super_on" if w.startswith("super_on_") else w,
                                 {"wagered": 0, "returned": 0})
            row["wagered"] += amount
            row["returned"] += p.returned.get(w, 0)
    return dict(sorted(out.items()))


def closing_event(state: RoundState) -> Event:
    """The domain's ``RoundClosed`` for a settled round, with the totals of each wager type
    (what the table results read model adds up)."""
    rec = Recorder(state)
    domain_close(rec)
    ev = rec.events[-1]
    ev["data"]["by_wager"] = by_wager(state)
    return ev


def recorded_by_domain(recorded: list[RecordedEvent]) -> bool:
    """Whether the stream is a house-banked round the domain opened (a round opened before
    banked play was recorded has no ``options`` on its RoundOpened)."""
    return bool(recorded) and "options" in recorded[0].data and is_banked(
        recorded[0].data.get("game", ""))


def load(rnd: Round, recorded: list[RecordedEvent] | None = None
         ) -> tuple[RoundState, list[RecordedEvent]]:
    """The round's state rebuilt from its stream (``recorded`` when the caller has read it
    already); refused for a round of another game or one opened before banked play was
    recorded."""
    if recorded is None:
        recorded = read_stream(rnd.stream_id)
    if not recorded_by_domain(recorded):
        raise ConflictError("this round is not a house-banked round recorded by the domain",
                            code="not_a_banked_round")
    return rebuild(domain_events(recorded)), recorded


def current_state(rnd: Round) -> tuple[RoundState, int]:
    """The round's state and version: its snapshot when it is at the stream's version,
    else rebuilt from the stream (a read: nothing is written)."""
    if rnd.snapshot is not None and rnd.snapshot_version == rnd.stream_version:
        state = state_from_snapshot(rnd.snapshot)
        if state is not None:
            return state, rnd.snapshot_version
    state, recorded = load(rnd)
    return state, recorded[-1].version


def find_round(actor: Actor, round_id: Any) -> Round:
    """The round ``round_id`` at a table of the actor's property, with its table (the
    :func:`tables.services.common.found` of a row that has no property of its own)."""
    return property_row(Round.objects.select_related("table"), actor, round_id,
                        what="round", via="table__property")


def lock_round(actor: Actor, round_id: Any, roles: tuple[Role, ...]
               ) -> tuple[GameTable, Round, str]:
    """The round and its table, locked in that order, and the role the actor acts under
    at the table; 404 for a round of another property.

    The round first: a command on a round (the runner's locked read of the round's row)
    then writes its table's row (``RoundClosed`` clears the table's round in progress),
    so every path takes the round before the table; the other order deadlocked with a
    hand's last action (a floor ruling made as the dealer ends the hand). A new round's
    start locks the table alone (no round row exists yet)."""
    rnd = property_row(Round.objects.select_for_update(of=("self",)), actor, round_id,
                       what="round", via="table__property")
    table = GameTable.objects.select_for_update().get(pk=rnd.table_id)
    rnd.table = table
    return table, rnd, act_at_table(actor, table, *roles)


def _rebuild_round(recorded: list[RecordedEvent]) -> RoundState:
    if not recorded_by_domain(recorded):
        raise ConflictError("this round is not a house-banked round recorded by the domain",
                            code="not_a_banked_round")
    return rebuild(domain_events(recorded))


#: The round aggregate: its row (read with its table, scoped to the caller's property)
#: keeps the snapshot. Columns after the snapshot: id, table id, number, state,
#: dealing method, the table's dealer, name and game, and the round's deck, its stream
#: version and its state (a stub count is the deck's count too,
#: :mod:`tables.services.banked_stub`).
ROUND: Aggregate[RoundState] = command_runner.register(Aggregate(
    name="banked_round", stream_type="round", what="round",
    select=("SELECT r.snapshot, r.snapshot_version, r.id, r.table_id, r.number, r.state, "
            "r.dealing_method, t.dealer_id, t.name, t.game, r.deck_id, d.stream_version, "
            "d.state "
            "FROM tables_round r JOIN tables_gametable t ON t.id = r.table_id "
            "LEFT JOIN tables_deck d ON d.id = r.deck_id "
            "WHERE r.id = %%s AND t.property_id = %%s%(lock)s"),
    update=("UPDATE tables_round SET snapshot = %%s%(json)s, snapshot_version = %%s, "
            "stream_version = %%s WHERE id = %%s"),
    stream_id=lambda key: f"round-{key}",
    rebuild=_rebuild_round,
    to_snapshot=state_to_snapshot,
    from_snapshot=state_from_snapshot,
    all_keys=("SELECT r.id FROM tables_round r JOIN tables_gametable t ON t.id = r.table_id "
              "WHERE t.game IN (%s)" % ", ".join(f"'{g}'" for g in BANKED_GAMES)),
))


@dataclass(frozen=True)
class TableSeen:
    """The table as a round command sees it (read by the runner's one query): enough for
    :func:`act_at_table` — the dealer assigned and the name."""

    pk: Any
    dealer_id: int | None
    name: str
    game: str


@dataclass
class RoundSeen:
    """The round row as a command sees it: what the answer shows (the Round model's field
    names), without loading the row through the ORM."""

    pk: Any
    table_id: Any
    number: int
    state: str
    dealing_method: str
    stream_version: int
    table: TableSeen

    @property
    def id(self) -> Any:
        return self.pk


def _row_models(row: tuple[Any, ...], version: int) -> tuple[TableSeen, RoundSeen]:
    round_id, table_id, number, state, dealing, dealer_id, name, game = row[:8]
    # SQLite returns a UUID column as 32 hex characters; the API and the metadata show
    # the one form, so both backends give the same answer
    round_id, table_id = uuid.UUID(str(round_id)), uuid.UUID(str(table_id))
    table = TableSeen(table_id, dealer_id, name, game)
    return table, RoundSeen(round_id, table_id, number, state, dealing, version, table)


def _run(actor: Actor, round_id: Any, expected_version: int | None,
         command: RoundCommand | Callable[[RoundSeen], RoundCommand],
         roles: tuple[Role, ...]) -> BankedRound:
    """``command`` is the typed command, or a function of the round (and its state)
    giving it."""
    holder: dict[str, RoundSeen] = {}

    def decide(loaded: Loaded[RoundState]) -> Decision[RoundState]:
        table, rnd = _row_models(loaded.row, loaded.version)
        holder["round"] = rnd
        role = act_at_table(actor, table, *roles)
        if rnd.state != RoundRowState.OPEN:
            raise ConflictError("the round is closed", code="round_closed")
        if not loaded.state.game or loaded.version == 0:
            raise ConflictError("this round is not a house-banked round recorded by the "
                                "domain", code="not_a_banked_round")
        if expected_version is not None and expected_version != loaded.version:
            raise ConflictError(f"the round is at version {loaded.version}, not "
                                f"{expected_version}: reload it and decide again",
                                code="stale_round_version")
        if awaiting_close(loaded.state):
            raise ConflictError("every wager is settled: close the round",
                                code="round_settled")
        cmd = command(rnd, loaded.state) if callable(command) and not isinstance(
            command, RoundCommand) else command
        state, events = loaded.state, []
        for step in steps(cmd):
            state, more = execute(state, step)
            events += more
        if events and events[-1]["type"] == "RoundClosed":
            # appended by round_close (module docstring): the state is the one before it
            events = events[:-1]
            state = rebuild_from(loaded.state, events)
        return Decision(state, [NewEvent(e["type"], e["data"]) for e in events], role,
                        {"table": str(table.pk)},
                        others=deck_events(deck_of(loaded.row), state, events))

    out = command_runner.command_run(ROUND, key=round_id, actor=actor, decide=decide)
    rnd = holder["round"]
    rnd.stream_version = out.version
    return BankedRound(rnd, out.state, out.version, out.events)


def rebuild_from(state: RoundState | None, events: list[Event]) -> RoundState:
    """``state`` with ``events`` applied (the domain's evolve, one by one)."""
    for e in events:
        state = evolve(state, e)
    return state  # type: ignore[return-value]


def round_state(*, actor: Actor, round_id: Any) -> BankedRound:
    """The round as it stands (no lock, nothing appended): what a table terminal reloads
    to learn the phase and the version to send with its next command. Shown like a
    command's answer (:meth:`BankedRound.dealer_shown`, terminal audience)."""
    rnd = find_round(actor, round_id)
    act_at_table(actor, rnd.table, *AT_TABLE)
    state, version = current_state(rnd)
    return BankedRound(rnd, state, version, [])


def round_reconstruction(*, actor: Actor, round_id: Any) -> dict[str, Any]:
    """The replay of a round for audit roles (:func:`tables.reconstruction.reconstruct`),
    shown as the audit audience may see it: the dealer's face-down cards only once turned
    up or the round is over."""
    from tables.reconstruction import reconstruct

    rnd = find_round(actor, round_id)
    state, recorded = load(rnd)
    return {"round": rnd.pk, "table": rnd.table_id, "number": rnd.number,
            "version": recorded[-1].version,
            **reconstruct(state, recorded, audience=Audience.AUDIT)}


# --- the commands --------------------------------------------------------------------------

def round_command(*, actor: Actor, round_id: Any, command: RoundCommand,
                  expected_version: int | None = None) -> BankedRound:
    """Any typed round command (:mod:`tables.domain.banked.commands`) at the table: a
    dealer or a floorperson; an irregularity, a floorperson only."""
    roles = FLOOR_ONLY if isinstance(command, ReportIrregularity) else AT_TABLE
    return _run(actor, round_id, expected_version, command, roles)


def round_place_wager(*, actor: Actor, round_id: Any, position: int, wager: str, amount: int,
                      player: str | None = None, instrument: str | None = None,
                      expected_version: int | None = None) -> BankedRound:
    """589.7, 671a.7, 579.7: a wager before "no more bets", within the table limits, in
    value chips or plaques (a verbal wager with cash is refused, x.7(a))."""
    return _run(actor, round_id, expected_version,
                PlaceWager(position, wager, amount, player, instrument), AT_TABLE)


def round_place_wagers(*, actor: Actor, round_id: Any, wagers: list[PlaceWager],
                       no_more_bets: bool = False, expected_version: int | None = None
                       ) -> BankedRound:
    """Every wager a terminal holds, and then "no more bets" (589.7(d), 579.7(c)), as one
    command: one commit, one event per wager. Refused whole if any wager is."""
    return _run(actor, round_id, expected_version,
                PlaceWagers(tuple(wagers), no_more_bets), AT_TABLE)


def round_withdraw_wager(*, actor: Actor, round_id: Any, position: int, wager: str,
                         expected_version: int | None = None) -> BankedRound:
    return _run(actor, round_id, expected_version, WithdrawWager(position, wager), AT_TABLE)


def round_no_more_bets(*, actor: Actor, round_id: Any,
                       expected_version: int | None = None) -> BankedRound:
    """589.7(d), 579.7(c): no wager is made, changed or withdrawn after this."""
    return _run(actor, round_id, expected_version, NoMoreBets(), AT_TABLE)


def round_deal(*, actor: Actor, round_id: Any, hands: dict[str, list[Any]], dealer: list[Any],
               dealer_face_up: Any = None, method: str | None = None,
               placed_by: str | None = None, card_hand: str | None = None,
               expected_version: int | None = None) -> BankedRound:
    """Recorded mode: the cards read by a card-reading shoe or keyed at the console; the
    domain checks they are real cards, five a hand, none twice and none already out, and
    the method against the table's (x.8-x.10; ``placed_by`` and ``card_hand`` for a manual
    shoe, x.8(a), 579.8(c))."""
    return _run(actor, round_id, expected_version,
                Deal(method=method, hands=hands, dealer=dealer, dealer_face_up=dealer_face_up,
                     placed_by=placed_by, card_hand=card_hand), AT_TABLE)


def round_deal_from_shuffle(*, actor: Actor, round_id: Any, placed_by: str | None = None,
                            card_hand: str | None = None,
                            expected_version: int | None = None) -> BankedRound:
    """Dealt mode: the server shuffles with the OS CSPRNG and the domain deals in the
    chapter's order — stacks of five from an automated dealing shoe (589.10(b),
    579.10(b)), otherwise one card at a time (589.8(c), 579.8(d)). From a manual shoe the
    dealer states ``placed_by`` and ``card_hand`` (x.8(a), 579.8(c)), as in recorded
    mode."""
    deck, _ = shuffled_deck()

    def deal(rnd: RoundSeen, state: RoundState) -> RoundCommand:
        method = "stacks" if rnd.dealing_method == "automated-shoe" else "by_card"
        # x.13(b): a card drawn in error is the next card, so it is the top of the deck
        drawn = list(state.drawn_in_error)
        return Deal(method=method, deck=drawn + [c for c in deck if c not in drawn],
                    placed_by=placed_by, card_hand=card_hand)
    return _run(actor, round_id, expected_version, deal, AT_TABLE)


def round_decide(*, actor: Actor, round_id: Any, position: int, decision: str,
                 expected_version: int | None = None, **fields: Any) -> BankedRound:
    """A player's decision: Lunar fold / bet / buy / exchange / declare_instant /
    declare_super / force_dealer / no_force; Hi-Lo play (optionally with high and low) /
    forfeit. ``amount`` when given is checked (a Bet is 2 x Ante)."""
    return _run(actor, round_id, expected_version,
                Decide(position, decision, fields.get("amount"), fields.get("high"),
                       fields.get("low")), AT_TABLE)


def round_set_hands(*, actor: Actor, round_id: Any, position: int, high: list[Any],
                    low: list[Any], expected_version: int | None = None) -> BankedRound:
    """579.11(d): three cards high, two low, at most one ace low."""
    return _run(actor, round_id, expected_version, SetHands(position, high, low), AT_TABLE)


def round_draw(*, actor: Actor, round_id: Any, position: int, discard: list[Any] | None = None,
               cards: list[Any] | None = None, expected_version: int | None = None
               ) -> BankedRound:
    """589.11(d)(2), 671a.11(d): a sixth card, or an exchange of two to five cards."""
    return _run(actor, round_id, expected_version,
                Draw(position, discard or [], cards or []), AT_TABLE)


def round_draw_dealer(*, actor: Actor, round_id: Any, card: Any = None, discard: Any = None,
                      expected_version: int | None = None) -> BankedRound:
    """589.11(e)(2)(ii): the forced dealer replaces its highest card."""
    return _run(actor, round_id, expected_version, DrawDealer(card, discard), AT_TABLE)


def round_lock_decisions(*, actor: Actor, round_id: Any,
                         decisions: list[Decide | SetHands] | None = None,
                         expected_version: int | None = None) -> BankedRound:
    """"All decisions are locked in": the dealer reveals and the wagers are settled. With
    ``decisions``, every position's decision (or Hi-Lo setting) is recorded first, in the
    same command: one commit, one event per decision."""
    return _run(actor, round_id, expected_version,
                LockDecisions(tuple(decisions or ())), AT_TABLE)


def round_close_banked(*, actor: Actor, round_id: Any) -> BankedRound:
    """Close a house-banked round on the command runner (589.11(f), 671a.11(f),
    579.11(l)): every wager settled (or none placed) and the ``RoundClosed`` with each wager
    type's totals for the table results; the snapshot saved with it. Raises ConflictError
    ``not_a_banked_round`` for a round the domain did not record (a poker round, or one
    opened before banked play was recorded): :func:`tables.services.rounds.round_close`
    closes those."""

    def decide(loaded: Loaded[RoundState]) -> Decision[RoundState]:
        table, rnd = _row_models(loaded.row, loaded.version)
        role = act_at_table(actor, table, *AT_TABLE)
        if rnd.state != RoundRowState.OPEN:
            raise ConflictError("the round is already closed", code="round_closed")
        state = loaded.state
        empty = state.phase is Phase.BETTING and not state.positions
        if not (empty or awaiting_close(state)):
            raise ConflictError("a wager is not settled yet: lock the decisions (or void "
                                "the round) first (589.11(f), 579.11(l))",
                                code="round_not_settled")
        closing = closing_event(state)
        return Decision(rebuild_from(state, [closing]), [NewEvent(closing["type"],
                                                                  closing["data"])],
                        role, {"table": str(table.pk)})

    out = command_runner.command_run(ROUND, key=round_id, actor=actor, decide=decide)
    _, rnd = _row_models(out.loaded.row, out.version)
    return BankedRound(rnd, out.state, out.version, out.events)


def round_report_irregularity(*, actor: Actor, round_id: Any, kind: str,
                              expected_version: int | None = None, **fields: Any
                              ) -> BankedRound:
    """x.13 irregularities and x.7(b) abandoned wagers; a void returns every wager."""
    return _run(actor, round_id, expected_version,
                ReportIrregularity(kind, fields.get("card"), fields.get("position"),
                                   fields.get("misdealt"), fields.get("face_exposed")),
                FLOOR_ONLY)


def settle(script: Any) -> dict[str, Any]:
    """:func:`settle_script` on untrusted input: a shape the script reader did not foresee
    is bad input (400 ``invalid_script``), never a server error. Records nothing."""
    try:
        return settle_script(script)
    except DomainError:
        raise
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        raise DomainError(f"the script is malformed: {exc!r}", code="invalid_script") from None


def agrees_with_expected(script: Any, result: dict[str, Any]) -> bool | None:
    """Whether the settlement has the amounts the script's ``expected`` gives (the
    hand-worked fixtures do); None when it gives none."""
    expected = script.get("expected") if isinstance(script, dict) else None
    if not (isinstance(expected, dict) and "returned" in expected):
        return None
    return (result["returned_by_position_cents"] == expected.get("returned")
            and result["house_win_cents"] == expected.get("house_win_cents"))


def round_settle_script(*, actor: Actor, script: dict[str, Any]) -> dict[str, Any]:
    """The dispute calculator: a whole round from a script, settled by the same domain,
    with nothing recorded."""
    actor.require(*DISPUTE_ROLES)
    result = settle(script)
    agrees = agrees_with_expected(script, result)
    if agrees is not None:
        result["matches_expected"] = agrees
    return result
