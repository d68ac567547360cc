"""An exception (a variance beyond the tolerance, or negative poker revenue, which always
needs a written investigation) is explained by finance and signed off by a second
person, finance or compliance, never the one who explained it."""

from __future__ import annotations

from typing import Any

from casino.actors import Actor
from casino.domain.errors import NotFoundError
from casino.scoping import parse_key, property_rows
from finance.domain import table_day as td
from finance.models import FinanceException
from finance.services.common import FINANCE, SIGNING_OFF, AtTableDay, run, text


def _exception(actor: Actor, exception_id: Any) -> FinanceException:
    key = parse_key(exception_id, what="exception")
    found = property_rows(FinanceException.objects.all(), actor).filter(
        exception_id=key).first()
    if found is None:
        raise NotFoundError(f"no exception {exception_id}", code="exception_not_found")
    return found


def variance_explain(*, actor: Actor, exception_id: Any, explanation: Any) -> FinanceException:
    """Finance explains the exception (for negative poker revenue: the investigation)."""
    role = actor.require(*FINANCE)
    words = text(explanation, "explanation", 2000, code="invalid_explanation")
    row = _exception(actor, exception_id)

    def decide(at: AtTableDay) -> None:
        at.record(td.variance_explain(at.state, exception_id=row.exception_id,
                                      explanation=words, who=actor.username), role)
    run(actor, row.table_id, row.gaming_day, decide)
    row.refresh_from_db()
    return row


def variance_sign_off(*, actor: Actor, exception_id: Any) -> FinanceException:
    """A second person of finance or compliance signs the explained exception off."""
    role = actor.require(*SIGNING_OFF)
    row = _exception(actor, exception_id)

    def decide(at: AtTableDay) -> None:
        at.record(td.variance_sign_off(at.state, exception_id=row.exception_id,
                                       who=actor.username), role)
    run(actor, row.table_id, row.gaming_day, decide)
    row.refresh_from_db()
    return row
