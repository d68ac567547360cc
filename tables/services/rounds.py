"""Opening and closing a round: the gate where deck control is enforced.

A round records the Rules Submission version in force when it opened (as of now,
:func:`tables.selectors.rules_in_force`: opening a round never puts a version in effect),
the deck that deals it and the dealing method. It is refused at a closed table, without rules in
effect, with a deck that is due for change or a count, or with the wrong deck of the pair.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from casino.actors import Actor
from casino.command_runner import Decision, Loaded, command_run
from casino.domain.errors import ConflictError
from casino.eventstore.store import NewEvent
from casino.roles import Role
from tables.domain.round_gate import RoundOpening
from tables.models import Round, RoundState
from tables.services import banked, round_start
from tables.services.common import act_at_table, record


def round_open(*, actor: Actor, table_id: Any, deck_id: Any = None) -> Round:
    """Open the table's next round with ``deck_id``, or without one with the deck due (the
    decks alternate, 589.3(b)(3), 637a.3(a)): one command on the runner
    (:mod:`tables.services.round_start`), the table read once under lock with its rules
    and decks, ``RoundOpened`` and the deck's ``DeckDealtRound`` appended in one
    transaction. The round comes back with its Rules Submission version attached
    (``rnd.rules``), as read with the table."""
    seen: dict[str, RoundOpening] = {}

    def decide(loaded: Loaded[None]) -> Decision[None]:
        table = round_start.table_at_start(loaded.row)
        role = act_at_table(actor, table, Role.DEALER, Role.FLOORPERSON)
        seen["opening"], others = round_start.opening(actor, table, deck_id)
        return Decision(None, [], role, {"table": table.id}, others=others)

    out = command_run(round_start.TABLE_START, key=table_id, actor=actor, decide=decide)
    o = seen["opening"]
    # (a banked round's row starts with its snapshot: tables.projections.round_row)
    return round_start.round_answer(round_start.round_events(out, o)[0], o.rules, actor)


def round_close(*, actor: Actor, round_id: Any) -> Round:
    """Close the round. A house-banked round closes on the command runner
    (:func:`tables.services.banked.round_close_banked`); any other round (poker, or a
    banked round opened before banked play was recorded) records an empty ``RoundClosed``.
    """
    try:
        closed = banked.round_close_banked(actor=actor, round_id=round_id)
        return Round.objects.get(pk=closed.round.pk)
    except ConflictError as exc:
        if exc.code != "not_a_banked_round":
            raise
    with transaction.atomic():
        table, rnd, role = banked.lock_round(actor, round_id, (Role.DEALER, Role.FLOORPERSON))
        if rnd.state != RoundState.OPEN:
            raise ConflictError("the round is already closed", code="round_closed")
        record(rnd, [NewEvent("RoundClosed", {})], actor, role, table=table.pk)
    return Round.objects.get(pk=rnd.pk)
