"""``manage.py faults_seed --poker 4 --banked 4``: the tables the fault harness's terminals
play at (issue 26 item 2), ready, and their logins, as ONE JSON line::

    {"poker_tables": [ids], "banked_tables": [ids],
     "logins": [{"username", "password", "table", "kind": "poker"|"banked",
                 "ante_cents" (banked)}, ...]}

Run after ``migrate``, ``seed_demo`` and ``seed_demo_tables`` on the database in
DATABASE_URL, with the same ``CASINO_VAR_DIR`` as ``seed_demo`` (its passwords are kept
there). The tables are the benches' own, made the benches' way (imported, not copied):
Hold'em tables ``BENCH-POKER-<i>`` with six players seated (``_bench_room.bench_tables``)
and Lunar Poker (589) tables ``BENCH-CMD-<i>`` (``bench_commands.bench_tables``), each
with its decks put in play here (two at poker, 637a.3(a); the pair at a banked table,
counted when due, 589.11(g)), so that no terminal needs the floor during a run. Every
terminal logs in as the demo dealer, assigned to every bench table (a dealer acts only
at the tables assigned to them), with the password ``seed_demo`` kept
(``_bench_http.dealer_tokens``' way); each login is a token of its own. Running it again
on the same database finds the tables and decks made and changes nothing more.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from poker_room.management.commands._bench_http import DEALER, _saved_password
from poker_room.management.commands._bench_room import bench_tables as poker_tables
from poker_room.management.commands._bench_room import new_decks
from tables.management.commands.bench_commands import _runner
from tables.management.commands.bench_commands import bench_tables as banked_tables

#: tables of each kind at most (the harness runs 8 terminals; more is a typo)
MAX_TABLES = 32


class Command(BaseCommand):
    help = ("Make the fault harness's poker and banked tables ready and print their ids and "
            "the terminals' logins as one JSON line.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--poker", type=int, default=4, help="Hold'em tables (default 4)")
        parser.add_argument("--banked", type=int, default=4,
                            help="Lunar Poker (589) tables (default 4)")

    def handle(self, *args: Any, **opts: Any) -> None:
        poker, banked = opts["poker"], opts["banked"]
        for name, n in (("poker", poker), ("banked", banked)):
            if not 0 <= n <= MAX_TABLES:
                raise CommandError(f"invalid_option: --{name} must be 0 to {MAX_TABLES}")
        if poker + banked == 0:
            raise CommandError("invalid_option: --poker and --banked are both 0: no tables")
        password = self._password()
        poker_ids = [str(t) for t in poker_tables(poker)] if poker else []
        for table_id in poker_ids:
            new_decks(table_id)  # the pair in play (a no-op when it already is)
        banked_ids = [str(t) for t in banked_tables(banked)] if banked else []
        antes = {}
        for i, table_id in enumerate(banked_ids):
            runner = _runner(table_id, i)
            runner.next_deck()  # the pair in play, the next one counted if due
            antes[table_id] = int(runner.options["table_minimum_cents"])
        logins = [{"username": DEALER, "password": password, "table": t, "kind": "poker"}
                  for t in poker_ids]
        logins += [{"username": DEALER, "password": password, "table": t, "kind": "banked",
                    "ante_cents": antes[t]} for t in banked_ids]
        self.stdout.write(json.dumps({"poker_tables": poker_ids, "banked_tables": banked_ids,
                                      "logins": logins}))

    @staticmethod
    def _password() -> str:
        user = get_user_model().objects.filter(username=DEALER).first()
        if user is None:
            raise CommandError(f"no_demo_staff: {DEALER} does not exist: run `manage.py "
                               "seed_demo` first")
        password = _saved_password(user)
        if password is None:
            raise CommandError(f"no_demo_password: the password of {DEALER} kept in "
                               "CASINO_VAR_DIR/demo_logins.txt is not this database's: run "
                               "`manage.py seed_demo` with the same CASINO_VAR_DIR")
        return password
