"""Commands of a house-banked round (Lunar Poker 589 / 671a, Five Card Hi-Lo 579).

Every command runs the same way (:func:`_run`), in one transaction: lock the table, then
the Round row (the order round_open locks in), load the round stream, ``rebuild`` the
domain state, ask the domain to ``decide`` the command, and append what it decided at the
version the stream was read at, with the actor's metadata. A refusal appends nothing.

The domain closes a round itself once everything is settled (its ``RoundClosed``). Here the
closing event is held back: the round gate (:func:`tables.services.rounds.round_close`)
appends it when the dealer closes the round, with the domain's totals, so the lifecycle is
"lock (settles) → close" at every table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from casino.actors import Actor
from casino.domain.cards import shuffled_deck
from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import NewEvent, RecordedEvent, read_stream
from casino.roles import Role
from casino.scoping import property_row
from tables.domain.banked import execute, rebuild, settle_script
from tables.domain.banked.events import Event, Recorder
from tables.domain.banked.payouts import close as domain_close
from tables.domain.banked.state import GAMES, RoundState
from tables.domain.banked.visibility import Audience, dealer_cards, event_data, settled
from tables.models import GameTable, Round
from tables.models import RoundState as RoundRowState
from tables.services.common import act_at_table, record

AT_TABLE = (Role.DEALER, Role.FLOORPERSON)
FLOOR_ONLY = (Role.FLOORPERSON,)
DISPUTE_ROLES = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE)


@dataclass(frozen=True)
class BankedRound:
    """What a command leaves: the round row, the domain state, the stream version and the
    events it appended."""

    round: Round
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
    return game in GAMES


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


def find_round(actor: Actor, round_id: Any) -> Round:
    """The round ``round_id`` at a table of the actor's property, with its table (the
    :func:`tables.services.common.found` of a row that has no property of its own)."""
    return property_row(Round.objects.select_related("table"), actor, round_id,
                        what="round", via="table__property")


def lock_round(actor: Actor, round_id: Any, roles: tuple[Role, ...]
               ) -> tuple[GameTable, Round, str]:
    """The round's table and the round, locked in that order (the order round_open locks
    in), and the role the actor acts under at the table; 404 for a round of another
    property. Every command on a round, and round_close, starts here."""
    # Lock the table row only ("self"), found through its round in the same query.
    table = property_row(GameTable.objects.select_for_update(of=("self",)), actor, round_id,
                         what="round", field="rounds__pk")
    rnd = Round.objects.select_for_update().get(pk=round_id)
    rnd.table = table
    return table, rnd, act_at_table(actor, table, *roles)


def _run(actor: Actor, round_id: Any, expected_version: int | None,
         command: dict[str, Any] | Callable[[Round], dict[str, Any]],
         roles: tuple[Role, ...]) -> BankedRound:
    """``command`` is the domain command, or a function of the locked round giving it."""
    with transaction.atomic():
        table, rnd, role = lock_round(actor, round_id, roles)
        if rnd.state != RoundRowState.OPEN:
            raise ConflictError("the round is closed", code="round_closed")
        state, recorded = load(rnd)
        version = recorded[-1].version
        if expected_version is not None and expected_version != version:
            raise ConflictError(f"the round is at version {version}, not {expected_version}: "
                                "reload it and decide again", code="stale_round_version")
        if awaiting_close(state):
            raise ConflictError("every wager is settled: close the round",
                                code="round_settled")
        state, events = execute(state, command(rnd) if callable(command) else command)
        if events and events[-1]["type"] == "RoundClosed":
            events = events[:-1]  # appended by round_close (module docstring)
            state = rebuild(domain_events(recorded) + events)
        appended = record(rnd, [NewEvent(e["type"], e["data"]) for e in events], actor, role,
                          table=table.pk) if events else []
    if appended:
        # What the inline projection wrote to the row; no need to read it back.
        rnd.stream_version = version = appended[-1].version
    return BankedRound(rnd, state, version, appended)


def round_state(*, actor: Actor, round_id: Any) -> BankedRound:
    """The round as it stands (no lock, nothing appended): what a table terminal reloads
    to learn the phase and the version to send with its next command. Shown like a
    command's answer (:meth:`BankedRound.dealer_shown`, terminal audience)."""
    rnd = find_round(actor, round_id)
    act_at_table(actor, rnd.table, *AT_TABLE)
    state, recorded = load(rnd)
    return BankedRound(rnd, state, recorded[-1].version, [])


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

def round_place_wager(*, actor: Actor, round_id: Any, position: int, wager: str, amount: int,
                      player: str | None = None, expected_version: int | None = None
                      ) -> BankedRound:
    """589.7, 671a.7, 579.7: a wager before "no more bets", within the table limits."""
    return _run(actor, round_id, expected_version,
                {"type": "place_wager", "position": position, "wager": wager,
                 "amount": amount, "player": player}, AT_TABLE)


def round_withdraw_wager(*, actor: Actor, round_id: Any, position: int, wager: str,
                         expected_version: int | None = None) -> BankedRound:
    return _run(actor, round_id, expected_version,
                {"type": "withdraw_wager", "position": position, "wager": wager}, AT_TABLE)


def round_no_more_bets(*, actor: Actor, round_id: Any,
                       expected_version: int | None = None) -> BankedRound:
    """589.7(d), 579.7(c): no wager is made, changed or withdrawn after this."""
    return _run(actor, round_id, expected_version, {"type": "no_more_bets"}, AT_TABLE)


def round_deal(*, actor: Actor, round_id: Any, hands: dict[str, list[Any]], dealer: list[Any],
               dealer_face_up: Any = None, method: str = "by_card",
               expected_version: int | None = None) -> BankedRound:
    """Recorded mode: the cards read by a card-reading shoe or keyed at the console; the
    domain checks they are real cards, five a hand, none twice and none already out."""
    return _run(actor, round_id, expected_version,
                {"type": "deal", "hands": hands, "dealer": dealer,
                 "dealer_face_up": dealer_face_up, "method": method}, AT_TABLE)


def round_deal_from_shuffle(*, actor: Actor, round_id: Any,
                            expected_version: int | None = None) -> BankedRound:
    """Dealt mode: the server shuffles with the OS CSPRNG and the domain deals in the
    chapter's order — stacks of five from an automated dealing shoe (589.10(b),
    579.10(b)), otherwise one card at a time (589.8(c), 579.8(d))."""
    deck, _ = shuffled_deck()

    def deal(rnd: Round) -> dict[str, Any]:
        method = "stacks" if rnd.dealing_method == "automated-shoe" else "by_card"
        return {"type": "deal", "deck": deck, "method": method}
    return _run(actor, round_id, expected_version, deal, AT_TABLE)


def round_decide(*, actor: Actor, round_id: Any, position: int, decision: str,
                 expected_version: int | None = None, **fields: Any) -> BankedRound:
    """A player's decision: Lunar fold / bet / buy / exchange / declare_instant /
    declare_super / force_dealer / no_force; Hi-Lo play (optionally with high and low) /
    forfeit. ``amount`` when given is checked (a Bet is 2 x Ante)."""
    extra = {k: v for k, v in fields.items() if k in ("amount", "high", "low")
             and v is not None}
    return _run(actor, round_id, expected_version,
                {"type": "decision", "position": position, "decision": decision, **extra},
                AT_TABLE)


def round_set_hands(*, actor: Actor, round_id: Any, position: int, high: list[Any],
                    low: list[Any], expected_version: int | None = None) -> BankedRound:
    """579.11(d): three cards high, two low, at most one ace low."""
    return _run(actor, round_id, expected_version,
                {"type": "set_hands", "position": position, "high": high, "low": low},
                AT_TABLE)


def round_draw(*, actor: Actor, round_id: Any, position: int, discard: list[Any] | None = None,
               cards: list[Any] | None = None, expected_version: int | None = None
               ) -> BankedRound:
    """589.11(d)(2), 671a.11(d): a sixth card, or an exchange of two to five cards."""
    return _run(actor, round_id, expected_version,
                {"type": "draw", "position": position, "discard": discard or [],
                 "cards": cards or []}, AT_TABLE)


def round_draw_dealer(*, actor: Actor, round_id: Any, card: Any = None, discard: Any = None,
                      expected_version: int | None = None) -> BankedRound:
    """589.11(e)(2)(ii): the forced dealer replaces its highest card."""
    return _run(actor, round_id, expected_version,
                {"type": "draw_dealer", "card": card, "discard": discard}, AT_TABLE)


def round_lock_decisions(*, actor: Actor, round_id: Any,
                         expected_version: int | None = None) -> BankedRound:
    """"All decisions are locked in": the dealer reveals and the wagers are settled."""
    return _run(actor, round_id, expected_version, {"type": "lock_decisions"}, AT_TABLE)


def round_report_irregularity(*, actor: Actor, round_id: Any, kind: str,
                              expected_version: int | None = None, **fields: Any
                              ) -> BankedRound:
    """x.13 irregularities and x.7(b) abandoned wagers; a void returns every wager."""
    extra = {k: v for k, v in fields.items() if k in ("card", "position", "misdealt")
             and v is not None}
    return _run(actor, round_id, expected_version,
                {"type": "report_irregularity", "kind": kind, **extra}, FLOOR_ONLY)


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
    return (result["returned"] == expected.get("returned")
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
