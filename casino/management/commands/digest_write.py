"""Sign the event log's head now and store the digest outside the database
(DESIGN §3); print the digest as JSON."""

import json
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino.eventstore import digests


class Command(BaseCommand):
    help = "Write a signed digest of the event log's head to DIGEST_DIR and print it."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--reason", choices=digests.REASONS, default=digests.ON_DEMAND,
                            help="why the digest is written (default: on_demand)")
        parser.add_argument("--gaming-day",
                            help="YYYY-MM-DD: with --reason gaming_day_close, the day closed "
                                 "(written once per day; default: each day ended since the "
                                 "last close digest)")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            day = date.fromisoformat(opts["gaming_day"]) if opts["gaming_day"] else None
        except ValueError:
            raise CommandError(f"--gaming-day must be YYYY-MM-DD, not {opts['gaming_day']!r}")
        try:
            if opts["reason"] == digests.GAMING_DAY_CLOSE:
                # Through the same path as the beat task: never two close digests a day.
                written = digests.write_due(reason=digests.GAMING_DAY_CLOSE, gaming_day=day)
                if not written:
                    raise CommandError("that gaming day already has its close digest"
                                       if day else "no gaming day is due a close digest")
                out: Any = written[0] if len(written) == 1 else written
            else:
                out = digests.digest_write(opts["reason"], day)
        except (digests.DigestUnavailable, digests.DigestExists) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(json.dumps(out, indent=2, sort_keys=True))
