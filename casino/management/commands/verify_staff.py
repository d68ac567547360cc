"""Check every login's roles and flags against the staff events (casino.staff_audit)."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from casino.staff_audit import staff_drift


class Command(BaseCommand):
    help = ("Replay the staff events and compare them with every login's roles, active, "
            "superuser and staff flags, whole-group scope and second-factor devices; exit 1 naming each "
            "difference (a change made behind the staff services' back).")

    def handle(self, *args: Any, **opts: Any) -> None:
        drift = staff_drift()
        if drift:
            for line in drift:
                self.stderr.write(line)
            raise CommandError(f"{len(drift)} difference(s) between the logins and the "
                               "staff events")
        count = get_user_model().objects.count()
        self.stdout.write(f"ok: {count} logins agree with their staff events")
