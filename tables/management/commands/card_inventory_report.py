"""The card inventory report of a gaming day, as JSON (the same as GET decks/inventory/)."""

import json
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino.actors import system_actor
from casino.models import Property
from tables import selectors
from tables.api.serializers import InventoryReportSerializer


class Command(BaseCommand):
    help = "Decks received, in play, removed and destroyed on a gaming day, with who signed."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--property", help="licence number (default: the only property)")
        parser.add_argument("--gaming-day", help="YYYY-MM-DD (default: the current one)")

    def handle(self, *args: Any, **opts: Any) -> None:
        props = Property.objects.all()
        if opts["property"]:
            props = props.filter(licence_number=opts["property"])
        if props.count() != 1:
            raise CommandError("name the property with --property LICENCE"
                               if props.count() > 1 else "no such property")
        prop = props.get()
        try:
            day = (date.fromisoformat(opts["gaming_day"]) if opts["gaming_day"]
                   else system_actor(prop, "report").gaming_day())
        except ValueError:
            raise CommandError(f"--gaming-day must be YYYY-MM-DD, not {opts['gaming_day']!r}")
        report = InventoryReportSerializer(selectors.card_inventory(prop, day)).data
        self.stdout.write(json.dumps(report, indent=2, default=str))
