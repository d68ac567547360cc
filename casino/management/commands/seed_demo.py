"""Create the demo property and one staff login per role (idempotent).

Passwords are generated on first run and kept in ``var/demo_logins.txt`` (never in the
repository); the command prints them.
"""

import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from casino.roles import Role
from casino.services import property_register, staff_bootstrap

DEMO_LICENCE = "PA-DEMO-0001"


class Command(BaseCommand):
    help = "Create the demo property and one staff login per role; print the logins."

    def handle(self, *args: Any, **opts: Any) -> None:
        logins_file = Path(settings.VAR_DIR) / "demo_logins.txt"
        saved: dict[str, str] = {}
        if logins_file.exists():
            for line in logins_file.read_text().splitlines():
                name, _, password = line.partition(" ")
                saved[name] = password
        # The property, each login, its role and the admin's superuser flag are events
        # (PropertyRegistered, StaffEnrolled, RoleGranted, AdminSiteAccessSet) by
        # system:seed_demo.
        prop = property_register(licence_number=DEMO_LICENCE, name="Demo Riverfront Casino",
                                 system="seed_demo")
        User = get_user_model()
        # A second compliance officer, so that a demo Rules Submission can be approved by
        # someone other than its submitter (four eyes); a second count team member and a
        # second finance employee, because a drop count is signed by a second counter and
        # an exception explained by one finance employee is signed off by another.
        logins = [(f"demo_{r.value}", r) for r in Role] + [
            ("demo_compliance_2", Role.COMPLIANCE), ("demo_count_team_2", Role.COUNT_TEAM),
            ("demo_finance_2", Role.FINANCE)]
        for n, (username, role) in enumerate(logins, start=1):
            if not User.objects.filter(username=username).exists():
                saved[username] = secrets.token_urlsafe(9)
                staff_bootstrap(property=prop, username=username, password=saved[username],
                                credential_number=f"DEMO-{n:04d}", roles=[role],
                                display_name=f"Demo {role.value.replace('_', ' ')}",
                                system="seed_demo", admin_site=role is Role.ADMIN)
        logins_file.parent.mkdir(parents=True, exist_ok=True)
        logins_file.write_text("".join(f"{u} {p}\n" for u, p in sorted(saved.items())))
        logins_file.chmod(0o600)
        self.stdout.write(f"Demo property: {prop}")
        self.stdout.write("Logins (username / password / role):")
        for username, role in logins:
            self.stdout.write(f"  {username:30s} {saved.get(username, '(set before)'):14s}"
                              f" {role.value}")
