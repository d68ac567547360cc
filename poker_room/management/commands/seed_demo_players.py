"""Seat demo players at the demo poker tables (run seed_demo and seed_demo_tables first)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino.management.commands.seed_demo import DEMO_LICENCE
from casino.models import Property
from poker_room.demo import describe, seed_players


class Command(BaseCommand):
    help = ("Seat four players (two named, two anonymous) at each open demo poker table "
            "that has nobody seated. Run seed_demo and seed_demo_tables first.")

    def handle(self, *args: Any, **opts: Any) -> None:
        prop = Property.objects.filter(licence_number=DEMO_LICENCE).first()
        if prop is None:
            raise CommandError("no demo property: run `manage.py seed_demo` first")
        for note in seed_players(prop):
            self.stdout.write(f"  {note}")
        self.stdout.write("Demo poker tables (seat: table stakes):")
        for row in describe(prop):
            seats = ", ".join(f"{n}: ${c / 100:,.2f}" for n, c in row["seats"]) or "empty"
            self.stdout.write(f"  {row['table']:10s} {row['game']:16s} {row['id']}  {seats}")
