"""The first administrator and compliance officer of a new installation.

Every later role goes through the staff API with a second person's approval; this
command exists because the first two people have nobody to approve them. It is refused
once the property has an active administrator and an active compliance officer, and what
it does is recorded as events by ``system:staff_bootstrap`` (PropertyRegistered,
StaffEnrolled, RoleGranted with basis "bootstrap").
"""

from __future__ import annotations

import getpass
import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.domain.errors import DomainError
from casino.models import Property, StaffProfile
from casino.roles import Role
from casino.services import property_register, staff_bootstrap

PASSWORD_VARIABLE = "STAFF_BOOTSTRAP_PASSWORD"


class Command(BaseCommand):
    help = ("Enrol the first administrator or compliance officer of a property (and "
            "register the property). Refused once the property has both. The password "
            f"is read from ${PASSWORD_VARIABLE} or asked for.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--licence", required=True, help="the property's licence number")
        parser.add_argument("--property-name", help="needed when the property is new")
        parser.add_argument("--username", required=True)
        parser.add_argument("--credential-number", required=True)
        parser.add_argument("--role", required=True, choices=[Role.ADMIN.value,
                                                              Role.COMPLIANCE.value])
        parser.add_argument("--display-name", default="")
        parser.add_argument("--admin-site", action="store_true",
                            help="also let this login into the (read-only) admin site")

    def handle(self, *args: Any, **opts: Any) -> None:
        prop = Property.objects.filter(licence_number=opts["licence"]).first()
        if prop is None:
            if not opts["property_name"]:
                raise CommandError(f"no property {opts['licence']}: give --property-name "
                                   "to register it")
            prop = property_register(licence_number=opts["licence"],
                                     name=opts["property_name"], system="staff_bootstrap")
        if _has_both(prop):
            raise CommandError("this property already has an administrator and a compliance "
                               "officer: enrol and grant roles through the staff API")
        password = os.environ.get(PASSWORD_VARIABLE) or getpass.getpass("Password: ")
        try:
            profile = staff_bootstrap(
                property=prop, username=opts["username"], password=password,
                credential_number=opts["credential_number"], roles=[opts["role"]],
                display_name=opts["display_name"], system="staff_bootstrap",
                admin_site=opts["admin_site"])
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from None
        self.stdout.write(f"enrolled {profile.user.username} ({opts['role']}) at {prop}")


def _has_both(prop: Property) -> bool:
    active = StaffProfile.objects.filter(property=prop, user__is_active=True)
    return all(active.filter(user__groups__name=r.value).exists()
               for r in (Role.ADMIN, Role.COMPLIANCE))
