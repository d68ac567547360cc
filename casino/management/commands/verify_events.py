"""Re-compute the log's tamper evidence (:mod:`casino.eventstore.verify`): each stream's
hash chain and every seal. Exit 0 with the counts and the newest seal's hash, or exit 1
naming the first position whose hash or link is wrong and the first seal that no longer
matches. Then check the log against every signed digest kept outside the database
(DESIGN §3): exit 1 naming the first digest the log no longer matches (seals rewritten
along with the events, by someone who could lift the triggers), or, when the log no
longer reaches a digest's position (a database restored to an earlier point in time),
"restored to before digest N at position P"."""

import sys
from typing import Any

from django.core.management.base import BaseCommand
from tqdm import tqdm

from casino.eventstore.digests import DigestReport, DigestUnavailable, verify_digests
from casino.eventstore.models import Event
from casino.eventstore.verify import verify_chain


class Command(BaseCommand):
    help = ("Verify every stream's SHA-256 chain and every seal over the log, then every "
            "signed digest.")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **opts: Any) -> None:
        total = Event.objects.count()
        with tqdm(total=total, unit="ev", file=sys.stderr, disable=opts["no_progress"],
                  desc="verifying") as bar:
            report = verify_chain(progress=bar.update)
        digests = self._digests()
        if report.ok and digests.ok:
            self.stdout.write(
                f"ok: {report.count} events in {report.streams} streams, every chain "
                f"intact; {report.seals} seals (newest {report.head_hash}), "
                f"{report.unsealed} events not sealed yet; "
                f"{digests.checked} digests checked")
            return
        if report.first_bad_position is not None:
            self.stderr.write(f"chain broken at position {report.first_bad_position}: "
                              f"{report.reason}")
        elif report.first_bad_seal is not None:
            self.stderr.write(f"seal {report.first_bad_seal} broken: {report.reason}")
        if not digests.ok and digests.first_bad is None:
            self.stderr.write(digests.reason)
        elif digests.restored_before:
            # A restore to an earlier point: what the log lost is everything that digest
            # (and every later one) vouched for past the seals' end; those before it hold.
            self.stderr.write(f"{digests.reason} ({digests.checked} of {digests.total} "
                              f"digests before it match)")
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
