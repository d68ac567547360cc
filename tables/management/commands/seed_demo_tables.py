"""Create the demo tables, their Rules Submissions in effect and their decks in play."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from casino.management.commands.seed_demo import DEMO_LICENCE
from casino.models import Property
from tables.demo import seed_tables, summary


class Command(BaseCommand):
    help = ("Demo tables (Lunar Poker 671a and 589, Five Card Hi-Lo, Hold'em, Omaha Hi-Lo, "
            "Stud, Triple Draw 2-7, Badugi) with Rules Submissions in effect and decks in "
            "play. Run seed_demo first.")

    def handle(self, *args: Any, **opts: Any) -> None:
        prop = Property.objects.filter(licence_number=DEMO_LICENCE).first()
        if prop is None:
            raise CommandError("no demo property: run `manage.py seed_demo` first")
        for note in seed_tables(prop):
            self.stdout.write(f"  {note}")
        self.stdout.write("Demo tables:")
        now = timezone.now()
        for row in summary(prop):
            decks = ", ".join(f"{colour} (change due in {int((due - now).total_seconds() // 60)}"
                              " min)" for colour, due in row["decks"])
            self.stdout.write(f"  {row['table']:10s} {row['game']:18s} {row['status']:6s} "
                              f"decks in play: {decks}")
