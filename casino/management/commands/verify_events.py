"""Re-compute the event hash chain: exit 0 with the count and head hash, or exit 1
naming the first position whose hash or link is wrong. Then check the log against every
signed digest kept outside the database (DESIGN §3): exit 1 naming the first digest the
log no longer matches (a deleted tail or a rewritten history the chain alone misses)."""

import sys
from typing import Any

from django.core.management.base import BaseCommand
from tqdm import tqdm

from casino.eventstore.digests import DigestReport, DigestUnavailable, verify_digests
from casino.eventstore.models import Event
from casino.eventstore.verify import verify_chain


class Command(BaseCommand):
    help = "Verify the SHA-256 chain over every stored event, then every signed digest."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **opts: Any) -> None:
        total = Event.objects.count()
        with tqdm(total=total, unit="ev", file=sys.stderr, disable=opts["no_progress"],
                  desc="verifying") as bar:
            report = verify_chain(progress=bar.update)
        digests = self._digests()
        if report.ok and digests.ok:
            self.stdout.write(f"ok: {report.count} events, head hash {report.head_hash}, "
                              f"{digests.checked} digests checked")
            return
        if not report.ok:
            self.stderr.write(f"chain broken at position {report.first_bad_position}: "
                              f"{report.reason} ({report.count} events before it link "
                              f"correctly)")
        if not digests.ok and digests.first_bad is None:
            self.stderr.write(digests.reason)
        elif not digests.ok:
            self.stderr.write(f"digest {digests.first_bad} does not match the log: "
                              f"{digests.reason} ({digests.checked} of {digests.total} "
                              f"digests before it match)")
        sys.exit(1)

    def _digests(self) -> DigestReport:
        """The digest check; a key or store that cannot be used fails it."""
        try:
            return verify_digests()
        except DigestUnavailable as exc:
            return DigestReport(False, 0, 0, None, f"digests cannot be checked: {exc}")
