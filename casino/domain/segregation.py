"""Segregation of duties: pairs of roles one person may not hold together.

Pure data and one check, so the staff services, the API and the tests share one list.
Each pair names why: the person holding both could check their own work.
"""

from __future__ import annotations

from collections.abc import Iterable

from casino.domain.errors import ConflictError

#: (role, role) → why one person may not hold both.
INCOMPATIBLE: dict[frozenset[str], str] = {
    frozenset({"admin", "compliance"}):
        "an administrator configures what a compliance officer audits and approves",
    frozenset({"count_team", "cashier"}):
        "the count team counts what the cashier's cage issues and accepts",
    frozenset({"count_team", "dealer"}):
        "the count team counts the drop of the tables a dealer works",
}


class SegregationOfDuties(ConflictError):
    code = "segregation_of_duties"


def conflicts(held: Iterable[str], role: str) -> list[str]:
    """The roles in ``held`` that may not be held together with ``role``."""
    return sorted(r for r in set(held) if frozenset({r, role}) in INCOMPATIBLE)


def check_role_compatible(held: Iterable[str], role: str) -> None:
    """409 ``segregation_of_duties`` when ``role`` may not join the roles ``held``."""
    clash = conflicts(held, role)
    if clash:
        other = clash[0]
        raise SegregationOfDuties(
            f"{role} may not be held with {other}: {INCOMPATIBLE[frozenset({role, other})]}")
