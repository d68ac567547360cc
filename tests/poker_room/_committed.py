"""A property with a poker table for tests whose data must be committed (a Celery worker,
a server thread): built through the real services, outside pytest-django's transaction."""

from __future__ import annotations

from typing import Any

from casino.actors import Actor, actor_of
from casino.roles import Role
from casino.services import property_register, staff_bootstrap
from tables.domain.rules_options import example_options
from tables.services import rules, tables

CREW = [("admin", Role.ADMIN), ("comp", Role.COMPLIANCE), ("appr", Role.COMPLIANCE),
        ("floor", Role.FLOORPERSON), ("dealer", Role.DEALER)]


def poker_room(licence: str, prefix: str, *, game: str = "holdem",
               table_name: str = "P-1", **option_changes: Any
               ) -> tuple[dict[str, Actor], Any]:
    """(the crew by role name, an open ``game`` table with its dealer assigned) of a new
    property ``licence``, under the example Rules Submission with ``option_changes``."""
    prop = property_register(name=f"{prefix} Casino", licence_number=licence, system="test")
    people = {}
    for n, (name, role) in enumerate(CREW):
        profile = staff_bootstrap(property=prop, username=f"{prefix}-{name}",
                                  password="x" * 12, credential_number=f"{prefix}-{n}",
                                  roles=[role], system="test")
        people[name] = actor_of(profile.user)
    rs = rules.rules_draft(actor=people["comp"], game=game,
                           options={**example_options(game), **option_changes})
    rules.rules_submit(actor=people["comp"], rules_id=rs.pk)
    rules.rules_approve(actor=people["appr"], rules_id=rs.pk)
    table = tables.table_configure(actor=people["admin"], name=table_name, game=game,
                                   positions=10 if game == "holdem" else 8,
                                   dealing_method="hand", shuffler="automated")
    tables.table_assign_dealer(actor=people["floor"], table_id=table.pk,
                               dealer=f"{prefix}-dealer")
    return people, tables.table_open(actor=people["floor"], table_id=table.pk)
