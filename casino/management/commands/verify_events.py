"""Re-compute the event hash chain: exit 0 with the count and head hash, or exit 1
naming the first position whose hash or link is wrong."""

import sys
from typing import Any

from django.core.management.base import BaseCommand
from tqdm import tqdm

from casino.eventstore.models import Event
from casino.eventstore.verify import verify_chain


class Command(BaseCommand):
    help = "Verify the SHA-256 chain over every stored event."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **opts: Any) -> None:
        total = Event.objects.count()
        with tqdm(total=total, unit="ev", file=sys.stderr, disable=opts["no_progress"],
                  desc="verifying") as bar:
            report = verify_chain(progress=bar.update)
        if report.ok:
            self.stdout.write(f"ok: {report.count} events, head hash {report.head_hash}")
            return
        self.stderr.write(f"chain broken at position {report.first_bad_position}: "
                          f"{report.reason} ({report.count} events before it link correctly)")
        sys.exit(1)
