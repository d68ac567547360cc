"""The people who play the day: the demo staff of ``manage.py seed_demo`` as actors."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model

from casino.actors import Actor, actor_of
from casino.models import Property
from finance.simulation.plan import Refused


@dataclass(frozen=True)
class Crew:
    dealer: Actor
    floor: Actor
    cashier: Actor
    security: Actor
    counter: Actor
    counter2: Actor
    finance: Actor
    #: who files and approves a Rules Submission when a game has none in effect
    people: dict[str, Actor]


CREW = {"dealer": "demo_dealer", "floor": "demo_floorperson", "cashier": "demo_cashier",
        "security": "demo_security", "counter": "demo_count_team",
        "counter2": "demo_count_team_2", "finance": "demo_finance",
        "admin": "demo_admin", "compliance": "demo_compliance",
        "approver": "demo_compliance_2"}


def crew_of(prop: Property) -> Crew:
    """The demo staff of ``prop``; refused (``no_demo_staff``) when seed_demo has not run."""
    users = {u.username: u for u in get_user_model().objects.filter(
        username__in=CREW.values(), staff__property=prop, is_active=True)}
    missing = sorted(set(CREW.values()) - set(users))
    if missing:
        raise Refused("no_demo_staff", f"{', '.join(missing)} not found: run "
                      "`manage.py seed_demo` first")
    a = {role: actor_of(users[name]) for role, name in CREW.items()}
    return Crew(dealer=a["dealer"], floor=a["floor"], cashier=a["cashier"],
                security=a["security"], counter=a["counter"], counter2=a["counter2"],
                finance=a["finance"], people=a)
