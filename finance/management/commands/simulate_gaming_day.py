"""``manage.py simulate_gaming_day``: play a short gaming day at the demo property through
the real services and close it (:mod:`finance.simulation`), so every finance report has
a day to show: two banked tables (Five Card Hi-Lo, Lunar Poker 671a) and two Hold'em
tables with rake and jackpot contributions, chip sales, a fill and a credit at each, the
drop boxes and jackpot boxes counted, one drop box short on purpose.

Options: ``--day YYYY-MM-DD`` (an ended day; default the previous one), ``--rounds N``
per banked table, ``--hands N`` per poker table, ``--short TABLE:AMOUNT`` or ``none``
(default ``SIM-HOLDEM-1:50.00``), ``--seed`` (the wagers), ``--if-empty`` (do nothing
when the property already has a finance gaming day: what ``bin/run`` uses),
``--base-url`` (printed before the report paths), ``--no-progress``.

A day not ended, already played or closed is refused: exit 1 with one line
``CommandError: <code>: <why>`` (with ``--if-empty`` the line is printed and the exit is 0,
so the product still starts).
"""

from __future__ import annotations

import sys
import time
from datetime import date, timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from casino.domain.errors import DomainError
from casino.domain.gaming_day import gaming_day_bounds
from casino.domain.money import format_money
from casino.domain.wall_clock import format_date, format_period, format_wall_clock
from casino.management.commands.seed_demo import DEMO_LICENCE
from casino.models import Property
from finance import reports
from finance.models import GamingDay
from finance.simulation import DayResult, Plan, Refused, current_day, parse_short, \
    simulate_day, steps
from poker_room.models import FundContributionDay
from tables.management.commands.simulate_banked import _int

FIGURES = {"drop": "drop", "tray": "tray (closer)"}


class Command(BaseCommand):
    help = ("Play a short simulated gaming day (banked rounds and poker hands through the "
            "services, with chip sales, fills, credits, rake, jackpot contributions and one "
            "drop box short) at the demo property, and close it.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", default=None,
                            help="the gaming day to play, YYYY-MM-DD (an ended one; default "
                                 "the previous gaming day)")
        parser.add_argument("--rounds", default="12", help="rounds per banked table (12)")
        parser.add_argument("--hands", default="12", help="hands per poker table (12)")
        parser.add_argument("--short", default=None,
                            help="TABLE:AMOUNT missing from one drop box, or none "
                                 "(default SIM-HOLDEM-1:50.00)")
        parser.add_argument("--seed", default=None, help="seed for the wagers placed")
        parser.add_argument("--if-empty", action="store_true",
                            help="do nothing if the property has a finance gaming day "
                                 "already (bin/run)")
        parser.add_argument("--base-url", default="",
                            help="printed before the report paths, e.g. http://127.0.0.1:8000")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **opts: Any) -> None:
        prop = Property.objects.filter(licence_number=DEMO_LICENCE).first()
        if prop is None:
            raise CommandError("no_demo_property: run `manage.py seed_demo` first")
        if opts["if_empty"] and GamingDay.objects.filter(property=prop).exists():
            return
        try:
            plan = self._plan(prop, opts)
            started = time.perf_counter()
            result = simulate_day(prop, plan, tick=self._progress(plan, opts["no_progress"]))
        except (Refused, DomainError) as exc:  # one line with its code
            line = str(exc) if isinstance(exc, Refused) else f"{exc.code}: {exc.message}"
            if opts["if_empty"]:  # bin/run: the product starts all the same
                self.stderr.write(f"simulate_gaming_day: {line}")
                return
            raise CommandError(line) from None
        self._report(result, time.perf_counter() - started, opts["base_url"].rstrip("/"))

    # --- the options ------------------------------------------------------------------------

    def _plan(self, prop: Property, opts: dict[str, Any]) -> Plan:
        if opts["day"] is None:
            day = current_day(prop) - timedelta(days=1)
        else:
            try:
                day = date.fromisoformat(opts["day"])
            except ValueError:
                raise Refused("invalid_day", f"--day is a date, YYYY-MM-DD, not "
                              f"{opts['day']!r}") from None
        short_table, short_cents = parse_short(opts["short"])
        seed = None if opts["seed"] is None else _int(opts["seed"], "seed", 0, 2**63 - 1)
        return Plan(day=day, rounds=_int(opts["rounds"], "rounds", 1, 1000),
                    hands=_int(opts["hands"], "hands", 1, 1000),
                    short_table=short_table, short_cents=short_cents, seed=seed)

    @staticmethod
    def _progress(plan: Plan, off: bool) -> Any:
        """One bar over the rounds and hands. It is made and closed inside the simulated
        day (on the first and last deal), where the clock it reads is the day's."""
        bar: tqdm | None = None

        def tick(table: str) -> None:
            nonlocal bar
            if bar is None:
                bar = tqdm(total=steps(plan), unit="deal", file=sys.stderr, disable=off,
                           leave=False, desc=table)
            bar.set_description(table, refresh=False)
            bar.update(1)
            if bar.n >= bar.total:
                bar.close()
        return tick

    # --- the summary ------------------------------------------------------------------------

    def _report(self, r: DayResult, seconds: float, base: str) -> None:
        out = self.stdout.write
        prop = r.property
        # times as a person reads them: the property's wall clock, its zone named
        zone = prop.time_zone
        start, end = gaming_day_bounds(r.day, time_zone=zone,
                                       start_hour=prop.gaming_day_start_hour)
        out(f"Simulated gaming day {format_date(r.day)} at {prop.name} "
            f"({format_period(start, end, time_zone=zone)}): {len(r.tables)} tables, "
            f"{r.rounds} banked rounds, {r.hands} poker hands")
        figures = r.gaming_day.figures
        out(f"  {'table':13s} {'game':17s} {'played':>10s} {'chip sales':>11s} "
            f"{'fills':>10s} {'credits':>9s} {'rake':>8s} {'drop (exp.)':>11s} "
            f"{'counted':>10s} {'win':>10s}")
        for p in r.tables:
            f = figures.get(str(p.table.pk), {})
            played = f"{p.hands} hands" if p.spec.poker else f"{p.rounds} rounds"
            out(f"  {p.spec.name:13s} {p.spec.game:17s} {played:>10s} "
                f"{_m(f.get('chip_sales_cents')):>11s} {_m(f.get('fills_cents')):>10s} "
                f"{_m(f.get('credits_cents')):>9s} "
                f"{_m(f.get('rake_cents')) if p.spec.poker else '':>8s} "
                f"{_m(f.get('expected_drop_cents')):>11s} "
                f"{_m(f.get('drop_counted_cents')):>10s} {_m(f.get('win_cents')):>10s}")
        for p in r.tables:
            if p.low_tray_fills:
                out(f"  {p.spec.name}: {p.low_tray_fills} more fill(s) when the tray ran low")
            if p.rebuys:
                out(f"  {p.spec.name}: players bought more chips {p.rebuys} time(s)")
        funds: dict[str, int] = {}
        for row in FundContributionDay.objects.filter(
                property=prop, gaming_day=r.day, table_id__in=[p.table.pk for p in r.tables]):
            funds[row.fund] = funds.get(row.fund, 0) + row.cents
        out("  jackpot contributions: " + (", ".join(
            f"{name} {format_money(c)}" for name, c in sorted(funds.items())) or "none")
            + f"; jackpot box counts: {r.jackpot_counts}")
        for note in r.notes:
            out(f"  note: {note}")
        out(f"Events appended: {r.events:,} in {seconds:.1f} s")
        g = r.gaming_day
        closed_at = format_wall_clock(g.closed_at, time_zone=zone) if g.closed_at else "?"
        out(f"Gaming day {format_date(r.day)} {g.state} by {g.closed_by or '?'} at {closed_at}"
            + (f", with {len(r.open_items)} open item(s) listed" if r.open_items else "")
            + f": {len(r.exceptions)} exception(s)")
        for item in r.open_items:
            out(f"  open item: {item['item']}" + (f" at {item['table']}" if "table" in item
                                                  else ""))
        names = {str(p.table.pk): p.spec.name for p in r.tables}
        for e in r.exceptions:
            table = names.get(str(e.table_id), e.table_id)
            if e.figure == "poker_revenue":  # 637a.17: always an exception when below zero
                out(f"  exception: {table} negative poker revenue "
                    f"{format_money(e.counted_cents)} (the hands' rake and time charges "
                    f"{format_money(e.expected_cents)})")
                continue
            sense = "short" if e.variance_cents < 0 else "over"
            out(f"  exception: {table} {FIGURES.get(e.figure, e.figure)} {sense} "
                f"{format_money(e.variance_cents)} (expected {format_money(e.expected_cents)}"
                f", counted {format_money(e.counted_cents)})")
        out("Reports:")
        for name in reports.names():
            out(f"  {base}/finance/reports/{name}/?first={r.day}")


def _m(cents: Any) -> str:
    return format_money(cents) if isinstance(cents, int) else "-"
