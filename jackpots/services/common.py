"""What every decision on a fund shares: the fund's row locked, its stream read and folded,
the follower caught up before and after, the roles, the refusals (637a.15, 637a.16).

Every decision is an event in the fund's own stream (``jackpot_fund-<property>-<name>``),
appended at the version the fund's stream was read at, in the transaction that locks the
fund's row, so two decisions on one fund never cross (a stale one is a 409). The fund's
state is folded from its stream (:mod:`jackpots.domain.fund`); what was paid in comes from
the contributions follower, caught up first, so the amounts decided on are current.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from casino.actors import Actor
from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.eventstore import projections
from casino.eventstore.store import NewEvent, Stream, append, read_stream
from casino.roles import Role
from casino.scoping import property_rows
from jackpots.domain.fund import FundState, fold
from jackpots.models import Fund
from jackpots.projections import FundsFollower

#: 637a.15(f): the poker shift supervisor verifies (or rejects) a Bad Beat hand
VERIFYING = (Role.POKER_SHIFT_SUPERVISOR,)
#: 637a.15(g): finance prepares the payout; it is paid at the table or the cage
PAYING = (Role.FINANCE, Role.CASHIER)
#: 637a.15(h)(1): a finance employee adjusts the display ...
ADJUSTING = (Role.FINANCE,)
#: ... in the presence of a floorperson or above, who witnesses it
WITNESSING = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
PLACES = ("table", "cage")


class FundError(DomainError):
    code = "invalid_fund_command"


class AtFund:
    """A fund of the actor's property, its row locked, its stream read and folded."""

    def __init__(self, actor: Actor, name: Any):
        if not isinstance(name, str):
            raise NotFoundError(f"no fund {name!r}", code="fund_not_found")
        self.actor = actor
        self.row = property_rows(Fund.objects.select_for_update(), actor).filter(
            name=name).first()
        if self.row is None:
            raise NotFoundError(f"no fund {name}", code="fund_not_found")
        self.events = read_stream(self.row.stream_id)
        self.state: FundState = _folded(self.events)

    @property
    def available_cents(self) -> int:
        return self.state.available_cents(self.row.held_in_cents)

    def active(self) -> None:
        """409 ``fund_discontinued`` once the fund is discontinued (637a.15(i)): its
        boxes are still counted, nothing else is decided on it."""
        if self.state.discontinued:
            raise ConflictError(f"the {self.row.name} fund is discontinued",
                                code="fund_discontinued")

    def record(self, type_: str, data: dict[str, Any], role: str) -> None:
        append(Stream("jackpot_fund", self.row.stream_id), len(self.events),
               [NewEvent(type_, data)], self.actor.metadata(role=role), savepoint=False)


def _caught_up() -> None:
    """The follower at the head: what was paid in, and the hits held, are current."""
    projections.catch_up(FundsFollower.name)


def _run(actor: Actor, fund: Any, decide: Any) -> Fund:
    _caught_up()
    with transaction.atomic():
        at = AtFund(actor, fund)
        decide(at)
    _caught_up()
    at.row.refresh_from_db()
    return at.row


def _text(value: Any, field: str, most: int, *, required: bool = True,
          code: str = "invalid_slip") -> str:
    """``value`` stripped, as text of (1 or 0) to ``most`` characters; ``code`` otherwise."""
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > most:
        raise FundError(f"{field} is text of {'1' if required else '0'} to {most} characters",
                        code=code, field=field)
    return value.strip()


def _folded(events: Any) -> FundState:
    return fold((e.type, e.data, e.metadata) for e in events)


def fund_state(row: Fund) -> FundState:
    """A fund's state read without a lock (a beat task's look before it decides)."""
    return _folded(read_stream(row.stream_id))


def system_decision(actor: Actor, fund: str, decide: Any) -> int:
    """One decision of a beat task on ``fund``, in its own transaction on the locked fund;
    0 when another run (or a person) got there first and ``decide`` refused it."""
    try:
        with transaction.atomic():
            decide(AtFund(actor, fund))
        return 1
    except ConflictError:
        return 0
