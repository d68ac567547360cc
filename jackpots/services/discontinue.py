"""Discontinuing a fund (637a.15(i)): finance proposes it, naming the fund the balance is
transferred to (another of the same kind, 637a.15(i): "transferred to other Bad Beat
payouts"), and compliance approves it, a second person; with nothing owed out of it, the
whole balance moves in the same event, so no amount is left unaccounted. The boxes are
still counted afterwards; any contribution still arriving is recorded on the fund, to be
transferred the same way."""

from __future__ import annotations

from typing import Any

from casino.actors import Actor
from casino.domain.errors import ConflictError
from casino.domain.money import format_money
from casino.roles import Role
from jackpots.models import Fund
from jackpots.services.common import AtFund, FundError, _run

PROPOSING = (Role.FINANCE,)
APPROVING = (Role.COMPLIANCE,)


def fund_discontinue(*, actor: Actor, fund: Any, transfer_to: Any) -> Fund:
    """Finance proposes discontinuing the fund and transferring its balance."""
    role = actor.require(*PROPOSING)
    if not isinstance(transfer_to, str) or not transfer_to:
        raise FundError("transfer_to names the fund the balance goes to",
                        code="invalid_transfer", field="transfer_to")

    def decide(at: AtFund) -> None:
        at.active()
        if at.state.discontinuing is not None:
            raise ConflictError("a discontinuance is proposed already",
                                code="discontinuance_proposed")
        target = Fund.objects.filter(property_id=at.row.property_id, name=transfer_to).first()
        if target is None or target.pk == at.row.pk or target.kind != at.row.kind \
                or target.discontinued:
            raise ConflictError(f"{transfer_to} is not another open fund of the same kind",
                                code="invalid_transfer")
        at.record("FundDiscontinuanceProposed", {"transfer_to": transfer_to,
                                                 "rule": "637a.15(i)"}, role)

    return _run(actor, fund, decide)


def fund_discontinue_approve(*, actor: Actor, fund: Any) -> Fund:
    """Compliance approves the proposed discontinuance: the balance is transferred now.
    Not while a Bad Beat or a High Hand award is owed out of the fund."""
    role = actor.require(*APPROVING)

    def decide(at: AtFund) -> None:
        at.active()
        proposal = at.state.discontinuing
        if proposal is None:
            raise ConflictError("no discontinuance is proposed", code="no_discontinuance")
        if proposal["by"] == actor.username:
            raise ConflictError("the person who proposed it does not approve it",
                                code="same_person")
        if at.state.committed_cents:
            raise ConflictError(f"{format_money(at.state.committed_cents)} is owed out of the "
                                "fund: pay it first", code="payouts_owed")
        at.record("FundDiscontinued", {"transfer_to": proposal["transfer_to"],
                                       "amount_cents": at.available_cents,
                                       "rule": "637a.15(i)"}, role)

    return _run(actor, fund, decide)
