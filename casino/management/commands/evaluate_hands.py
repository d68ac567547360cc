"""``manage.py evaluate_hands [FILE]``: rank poker hands given as JSON lines.

Each input line is an object such as ``{"game": "omaha-hilo8", "hole": "AsKsQdJd",
"board": "2c3c4h9sTs"}`` or ``{"game": "badugi", "cards": "As2d3h4c"}``. Each output
line is ``{"line": n, "result": {...}}`` or, for a line that cannot be ranked,
``{"line": n, "error": {"code": ..., "message": ...}}``; processing continues and the
command exits non-zero at the end if any line failed. Blank lines are skipped.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.domain.errors import DomainError
from casino.domain.hands.games import RANKINGS, evaluate


class Command(BaseCommand):
    stealth_options = ("stdin",)  # tests pass a stream: call_command(..., stdin=io)
    help = "Rank poker hands read as JSON lines from FILE (or stdin); --list-games lists games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", default="-",
                            help="JSON-lines file; '-' or omitted reads stdin")
        parser.add_argument("--list-games", action="store_true",
                            help="print the game names, their input fields and card counts")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["list_games"]:
            for g in RANKINGS.values():
                fields = {f: list(n) for f, n in g.fields.items()}
                self.stdout.write(json.dumps({"game": g.name, "title": g.title,
                                              "regulation": g.regulation, "fields": fields}))
            return
        path = options["file"]
        if path == "-":
            failed, total = self._run(sys.stdin if options.get("stdin") is None
                                      else options["stdin"])
        else:
            try:
                with open(path, encoding="utf-8") as fh:
                    failed, total = self._run(fh)
            except OSError as exc:
                raise CommandError(f"file_unreadable: cannot read {path}: {exc.strerror}")
        if failed:
            shown = ", ".join(str(n) for n in failed[:20]) + (" ..." if len(failed) > 20 else "")
            raise CommandError(f"invalid_lines: {len(failed)} of {total} lines could not be "
                               f"evaluated (line {shown})")

    def _run(self, stream: TextIO) -> tuple[list[int], int]:
        failed: list[int] = []
        total = 0
        for n, raw in enumerate(stream, start=1):
            if not raw.strip():
                continue
            total += 1
            try:
                out = {"line": n, "result": _evaluate_line(raw)}
            except DomainError as exc:
                failed.append(n)
                out = {"line": n, "error": {"code": exc.code, "message": exc.message}}
            self.stdout.write(json.dumps(out))
        return failed, total


def _evaluate_line(raw: str) -> dict[str, Any]:
    try:
        request = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise DomainError(f"not valid JSON: {exc.msg} at column {exc.colno}",
                          code="invalid_json") from None
    if not isinstance(request, dict):
        raise DomainError("each line must be a JSON object like "
                          '{"game": "badugi", "cards": "As2d3h4c"}', code="invalid_json")
    fields = dict(request)
    game = fields.pop("game", None)
    if game is None:
        raise DomainError('missing "game"; run with --list-games for the names',
                          code="missing_field", field="game")
    return evaluate(game, **fields)
