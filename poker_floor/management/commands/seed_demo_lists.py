"""Open the demo's lists and list their players (run seed_demo_players first)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino.management.commands.seed_demo import DEMO_LICENCE
from casino.models import Property
from poker_floor.demo import seed_lists


class Command(BaseCommand):
    help = ("Open a Hold'em waitlist with three players and a Five-card Draw High interest list "
            "with one, unless they are open already. Run seed_demo_players first.")

    def handle(self, *args: Any, **opts: Any) -> None:
        prop = Property.objects.filter(licence_number=DEMO_LICENCE).first()
        if prop is None:
            raise CommandError("no demo property: run `manage.py seed_demo` first")
        for note in seed_lists(prop):
            self.stdout.write(f"  {note}")
