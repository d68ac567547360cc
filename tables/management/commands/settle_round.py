"""``manage.py settle_round FILE``: the dispute calculator.

Reads one round script (the JSON format of ``tests/tables/banked/scripts/README.md``) from
FILE, or from stdin with ``-``, plays it through the pure domain
(:func:`tables.domain.banked.settle_script`, by way of :func:`tables.services.banked.settle`
as the API's dispute calculator does) and prints the settlement as JSON: one line per
position and wager with what went back and why (the subsection it comes from), the amounts
returned per position and wager, and the house win. Nothing is recorded: no database row,
no event.

A file that cannot be read, is not JSON, or describes a round the rules refuse stops with
exit status 1 and one line ``code: message`` (the code the domain gives, e.g.
``invalid_script``, ``duplicate_card``, ``decisions_pending``).

When the script carries ``expected`` (as the hand-worked fixtures do), the output says
whether the settlement agrees with it (``expected_agrees``).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.domain.errors import DomainError
from tables.services import banked


def read_script(path: str, stdin: Any = None) -> Any:
    """The parsed JSON of ``path`` (``-`` = stdin); CommandError with a code otherwise."""
    try:
        if path == "-":
            text = (stdin or sys.stdin).read()
            where = "stdin"
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            where = path
    except FileNotFoundError:
        raise CommandError(f"file_not_found: no file {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"unreadable_file: {path}: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(f"invalid_json: {where} line {exc.lineno} column {exc.colno}: "
                           f"{exc.msg}") from None


def settle(script: Any) -> dict[str, Any]:
    """The settlement of ``script`` (the same as the API's dispute calculator,
    :func:`tables.services.banked.settle`); CommandError naming the problem and its code
    for a script the domain refuses."""
    try:
        result = banked.settle(script)
    except DomainError as exc:
        where = f" ({exc.field})" if getattr(exc, "field", None) else ""
        raise CommandError(f"{exc.code}: {exc.message}{where}".replace("\n", " ")) from None
    agrees = banked.agrees_with_expected(script, result)
    if agrees is not None:
        result["expected_agrees"] = agrees
    return result


class Command(BaseCommand):
    help = ("Settle a round script (FILE, or - for stdin) and print the settlement as JSON; "
            "records nothing (the dispute calculator).")
    stealth_options = (*BaseCommand.stealth_options, "stdin")
    requires_system_checks = ()  # pure domain: no database is needed

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="round script (JSON), or - for stdin")
        parser.add_argument("--events", action="store_true",
                            help="also print the round's events (the domain's record)")
        parser.add_argument("--compact", action="store_true", help="one-line JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        script = read_script(options["file"], self.stdin if hasattr(self, "stdin") else None)
        out = settle(script)
        events = out.pop("events")
        if options["events"]:
            out["events"] = events
        self.stdout.write(json.dumps(out, indent=None if options["compact"] else 2,
                                     default=_jsonable))

    def execute(self, *args: Any, **options: Any) -> Any:
        # call_command(..., stdin=io.StringIO(...)) is how a test feeds "-"
        self.stdin = options.pop("stdin", None) or sys.stdin
        return super().execute(*args, **options)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (set, frozenset, tuple)):
        return sorted(value) if isinstance(value, (set, frozenset)) else list(value)
    return str(value)
