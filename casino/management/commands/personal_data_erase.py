"""Erase one person's details on their request (issue 24, casino.personal_data): a list
entry's, a High Hand slip's or a Bad Beat payout's, by a compliance officer, the erasure
an event. The retention beat task erases the rest as their periods pass."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from casino.actors import actor_of
from casino.domain.errors import DomainError
from casino.personal_data import personal_data_erase
from casino.refusals import refusal_sentence
from casino.roles import RoleRequired


class Command(BaseCommand):
    help = ("Erase the personal details of one subject (a list entry's, a High Hand slip's "
            "or a Bad Beat payout's id) at the request of the person, by a compliance "
            "officer: the key is destroyed, the events and their chain stay as they are.")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("subject", help="the subject's id (a UUID)")
        parser.add_argument("--by", required=True,
                            help="the login of the compliance officer who erases it")
        parser.add_argument("--reason", required=True, help="why (the person's request)")

    def handle(self, *args: Any, **opts: Any) -> None:
        user = get_user_model().objects.filter(username=opts["by"], is_active=True).first()
        if user is None:
            raise CommandError(f"no active login {opts['by']!r}")
        try:
            row = personal_data_erase(opts["subject"], actor=actor_of(user),
                                      reason=opts["reason"])
        except RoleRequired:
            raise CommandError(f"{opts['by']} is not a compliance officer") from None
        except DomainError as exc:
            raise CommandError(f"{refusal_sentence(exc.code)} ({exc.message})") from None
        self.stdout.write(f"erased: the personal details of {row.kind.replace('_', ' ')} "
                          f"{row.subject}")
