"""Seal the settled events after the newest seal now (DESIGN §3; the beat task
``casino.events_seal`` does it every SEAL_INTERVAL_SECONDS). Prints JSON: the seals made."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino.eventstore.models import EventSeal
from casino.eventstore.seals import BLOCK, seal_now


class Command(BaseCommand):
    help = "Seal the settled events after the newest seal (a Merkle root per block)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--block", type=int, default=BLOCK,
                            help=f"events in one seal at most (default {BLOCK:,})")

    def handle(self, *args: Any, **opts: Any) -> None:
        if not 1 <= opts["block"] <= 1_000_000:
            raise CommandError("invalid_block: --block must be between 1 and 1,000,000")
        made = seal_now(block=opts["block"])
        seals = EventSeal.objects.filter(seq__in=made).order_by("seq")
        self.stdout.write(json.dumps({"sealed": [
            {"seq": s.seq, "first_position": s.first_position,
             "last_position": s.last_position, "events": s.event_count,
             "merkle_root": s.merkle_root, "seal_hash": s.seal_hash} for s in seals]},
            indent=2))
