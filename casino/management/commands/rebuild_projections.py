"""Drop and rebuild read models by replaying every event from position 1, then every
aggregate's snapshot (DESIGN §2: the command runner's snapshots are projections too)."""

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from casino import command_runner
from casino.db_timeouts import lifted
from casino.eventstore import projections
from casino.eventstore.models import Event


class Command(BaseCommand):
    help = "Rebuild projections from the event log (all, or those named with --name)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--name", action="append", default=[],
                            help="projection to rebuild (repeatable); default all")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **opts: Any) -> None:
        known = projections.registered()
        unknown = [n for n in opts["name"] if n not in known]
        if unknown:
            raise CommandError(f"unknown_projection: {', '.join(unknown)}; "
                               f"known: {', '.join(sorted(known))}")
        with lifted():  # one statement of a rebuild may take longer than a request's limit
            self._rebuild(opts)

    def _rebuild(self, opts: dict[str, Any]) -> None:
        total = Event.objects.count()
        for name in projections.names(opts["name"]):
            with tqdm(total=total, unit="ev", file=sys.stderr, desc=name,
                      disable=opts["no_progress"]) as bar:
                applied = projections.rebuild(name, progress=bar.update)
            self.stdout.write(f"{name}: replayed {applied} events")
        with tqdm(unit="snapshots", file=sys.stderr, desc="snapshots",
                  disable=opts["no_progress"]) as bar:
            rebuilt = command_runner.snapshots_rebuild(progress=bar.update)
        self.stdout.write(f"snapshots: rebuilt {rebuilt} from their streams")
