"""``manage.py simulate_banked --table T --rounds N [--seed S]``: play N rounds of a
house-banked game at table T through the real services, so every round is a real event
history (and a real load test of the write path).

Each round: ``rounds.round_open`` (the deck gate) → ``banked.round_place_wager`` for every
position → ``round_no_more_bets`` → ``round_deal_from_shuffle`` (the server's secure
shuffle) → ``round_decide`` per position with the documented simple strategy
(:class:`tables.domain.banked.simulate.SimpleStrategy`; Hi-Lo plays carry the setting) →
``round_lock_decisions`` (settles; a 589 dealer who does not qualify is not forced) →
``rounds.round_close``. The table's assigned dealer acts; a floorperson of the property
verifies deck counts and replaces decks.

Deck control is kept as the chapters want it: the two decks of a pair alternate (the gate
picks), a deck is counted (52, verified by the floorperson) before it deals once 5 rounds
have been played since its last count (589.11(g), 671a.11(h), 579.11(m)) unless a counting
shuffler counts it, and a deck past its time limit (589.3(c)) is removed and a fresh one is
received, inspected, shuffled and put in play (``tables.demo.keep_decks_in_play``).

``--seed`` seeds the wagers (the Ante is 1, 2 or 5 times the table minimum each round);
the cards come from the server's secure shuffle and do not repeat.

Prints JSON: rounds, seconds, rounds per second, events appended, deck steps, and per wager
type what was wagered and returned, the hold (house win / wagered) with its 95 % interval
(rounds as the sampling unit) and, where ``paytable_report`` has one, its figure.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from tqdm import tqdm

from casino.actors import Actor, actor_of
from casino.domain.errors import DomainError
from casino.models import Property
from tables import selectors
from tables.demo import keep_decks_in_play
from tables.domain.banked import Phase, RoundState
from tables.domain.banked.commands import Decide, PlaceWager
from tables.domain.banked.simulate import SimpleStrategy
from tables.domain.banked.state import LUNAR_GAMES
from tables.domain.catalogue import BANKED_GAMES
from tables.domain.banked.wagers import canonical_options
from tables.domain.catalogue import get_table_game
from tables.domain.decks import count_due
from tables.models import Deck, GameTable, TableStatus
from tables.services import banked, decks, rounds
from tables.services.common import setup_of
from tables.services.rules import rules_in_effect

MAX_ROUNDS = 10_000_000
Z95 = 1.959964


# --- the crew -------------------------------------------------------------------------------

def crew_for(table: GameTable, floor_username: str | None = None) -> tuple[Actor, Actor]:
    """(dealer, floorperson): the table's assigned dealer and a floorperson of the property
    who is someone else (``demo_floorperson`` when there is one)."""
    from django.contrib.auth import get_user_model

    if table.dealer_id is None:
        raise CommandError(f"no_dealer_assigned: table {table.name} has no dealer assigned")
    User = get_user_model()
    floors = (User.objects.filter(staff__property=table.property, groups__name="floorperson",
                                  is_active=True).exclude(pk=table.dealer_id))
    if floor_username:
        floors = floors.filter(username=floor_username)
    floor = (floors.filter(username="demo_floorperson").first()
             or floors.order_by("pk").first())
    if floor is None:
        raise CommandError("no_floorperson: the property has no floorperson (other than the "
                           "dealer) to verify counts" if not floor_username
                           else f"no_floorperson: {floor_username} is not a floorperson here")
    return actor_of(table.dealer), actor_of(floor)


# --- one table ------------------------------------------------------------------------------

@dataclass
class Tally:
    """Per wager type and per round: cents wagered and returned (for the interval)."""

    rounds: int = 0
    wagered: dict[str, list[int]] = field(default_factory=dict)
    returned: dict[str, list[int]] = field(default_factory=dict)

    def add(self, state: RoundState) -> None:
        totals = banked.by_wager(state)
        for kind in set(totals) | set(self.wagered):
            row = totals.get(kind, {"wagered": 0, "returned": 0})
            self.wagered.setdefault(kind, [0] * self.rounds).append(row["wagered"])
            self.returned.setdefault(kind, [0] * self.rounds).append(row["returned"])
        self.rounds += 1

    def combined(self, kinds: tuple[str, ...]) -> tuple[list[int], list[int]]:
        zero = [0] * self.rounds
        w = [sum(col) for col in zip(*(self.wagered.get(k, zero) for k in kinds), strict=True)]
        r = [sum(col) for col in zip(*(self.returned.get(k, zero) for k in kinds), strict=True)]
        return w, r


def hold_interval(wagered: list[int], returned: list[int]) -> dict[str, Any]:
    """Hold = Σ(wagered - returned) / Σwagered and its 95 % interval: a ratio estimator over
    rounds, delta-method standard error."""
    total_w, total_r = sum(wagered), sum(returned)
    n = len(wagered)
    out: dict[str, Any] = {"wagered_cents": total_w, "returned_cents": total_r,
                           "house_win_cents": total_w - total_r}
    if total_w == 0:
        return {**out, "hold": None, "ci95": None}
    h = (total_w - total_r) / total_w
    if n < 2:
        return {**out, "hold": h, "ci95": None}
    resid = sum(((w - r) - h * w) ** 2 for w, r in zip(wagered, returned, strict=True))
    se = math.sqrt(resid / (n * (n - 1))) / (total_w / n)
    return {**out, "hold": h, "ci95": [h - Z95 * se, h + Z95 * se]}


class TableRunner:
    """Plays rounds at one table through the services, keeping its decks in play."""

    def __init__(self, table: GameTable, dealer: Actor, floor: Actor, rng: random.Random,
                 positions: int | None = None):
        if table.game not in BANKED_GAMES:
            raise CommandError(f"not_a_banked_table: {table.name} plays {table.game}; "
                               f"simulate_banked plays {', '.join(BANKED_GAMES)}")
        if table.status != TableStatus.OPEN:
            raise CommandError(f"table_closed: table {table.name} is closed")
        rules = rules_in_effect(table.property, table.game)
        if rules is None:
            raise CommandError(f"no_rules_in_effect: no Rules Submission for {table.game} "
                               "is in effect")
        self.table, self.dealer, self.floor, self.rng = table, dealer, floor, rng
        self.options = canonical_options(table.game, rules.options)
        most = min(table.positions, get_table_game(table.game).max_positions)
        self.positions = positions or most
        if not 1 <= self.positions <= most:
            raise CommandError(f"invalid_positions: --positions must be 1 to {most} at "
                               f"{table.name}, not {self.positions}")
        self.strategy = SimpleStrategy()
        self.counted = self.replaced = self.put_in_play = 0

    # deck control --------------------------------------------------------------------
    def next_deck(self) -> Deck:
        """The deck that deals next (the other one of the pair, 589.3(b)(3)), counted first
        when its count is due (589.11(g)); overdue decks replaced first (589.3(c))."""
        tables = selectors.with_decks_in_play(GameTable.objects.filter(pk=self.table.pk))
        self.table = tables.get()  # the table and its decks in play: two queries
        removed, added = keep_decks_in_play(self.table, self.dealer, self.floor, batch="SIM")
        self.replaced += len(removed)
        self.put_in_play += added
        if removed or added:
            self.table = tables.get()
        want = selectors.next_deck(self.table)
        if want is None:
            raise CommandError(f"no_deck_in_play: table {self.table.name} has no deck in play")
        deck = next(d for d in selectors.decks_in_play(self.table) if str(d.pk) == want)
        if count_due(setup_of(self.table), deck.rounds_since_count):
            decks.deck_count(actor=self.dealer, deck_id=deck.pk, cards=52)
            decks.deck_count_verify(actor=self.floor, deck_id=deck.pk)
            self.counted += 1
        return deck

    # one round -------------------------------------------------------------------------
    def _wagers(self) -> list[tuple[int, str, int]]:
        o = self.options
        low, high = o["table_minimum_cents"], o["table_maximum_cents"]
        ante = low * self.rng.choice([k for k in (1, 2, 5) if 2 * k * low <= high] or [1])
        out: list[tuple[int, str, int]] = []
        game = self.table.game
        for n in range(1, self.positions + 1):
            out.append((n, "ante", ante))
            if game == "lunar-poker-671a" or (game == "lunar-poker-589"
                                              and o.get("super_wager_offered")):
                out.append((n, "super", ante))  # 671a.7(c)(2): at least the Ante
            if game == "lunar-poker-671a" and o.get("super_on_other_hands_offered"):
                out.append((n, "super_dealer", low))
            if game == "five-card-hi-lo":
                if o.get("tie_wager_offered"):
                    out.append((n, "tie", low))
                if o.get("poker_bonus_offered"):
                    out.append((n, "poker_bonus", low))
        return out

    def manual_shoe_stated(self) -> dict[str, str]:
        """At a manual shoe the deal records only what the dealer states (x.8(a),
        579.8(c)): the simulated dealer states that he placed the deck in the shoe and
        took each card with the hand closest to it."""
        if self.table.dealing_method != "manual-shoe":
            return {}
        return {"placed_by": "dealer", "card_hand": "closest_to_shoe"}

    def play(self, *, batched: bool = False) -> RoundState:
        """One round from open to close; the settled domain state. ``batched``: as a
        terminal holding several commands sends them, the wagers with "no more bets" as
        one command and every decision with "lock" as another."""
        deck = self.next_deck()
        rnd = rounds.round_open(actor=self.dealer, table_id=self.table.pk, deck_id=deck.pk)
        d, rid = self.dealer, rnd.pk
        if batched:
            banked.round_place_wagers(actor=d, round_id=rid, no_more_bets=True, wagers=[
                PlaceWager(n, wager, amount) for n, wager, amount in self._wagers()])
        else:
            for n, wager, amount in self._wagers():
                banked.round_place_wager(actor=d, round_id=rid, position=n, wager=wager,
                                         amount=amount)
            banked.round_no_more_bets(actor=d, round_id=rid)
        state = banked.round_deal_from_shuffle(actor=d, round_id=rid,
                                               **self.manual_shoe_stated()).state
        decisions: list[Decide] = []
        for p in state.clockwise():
            if state.lunar:
                decisions += [Decide(p.number, what) for what in self.strategy.lunar(state, p)]
            else:
                what, hi, lo = self.strategy.hilo(state, p)
                decisions.append(Decide(p.number, what, high=hi if what == "play" else None,
                                        low=lo if what == "play" else None))
        if batched:
            state = banked.round_lock_decisions(actor=d, round_id=rid,
                                                decisions=decisions).state
        else:
            for c in decisions:
                state = banked.round_command(actor=d, round_id=rid, command=c).state
            state = banked.round_lock_decisions(actor=d, round_id=rid).state
        if state.phase is Phase.FORCING:  # the simple strategy never forces (589.11(e)(2))
            for p in state.counterclockwise():
                if p.has_bet and p.force is None:
                    state = banked.round_decide(actor=d, round_id=rid, position=p.number,
                                                decision="no_force").state
        rounds.round_close(actor=d, round_id=rid)
        return state


def run_rounds(runner: TableRunner, n: int, *, progress: bool = True, desc: str = "",
               on_round: Callable[[RoundState], None] | None = None) -> float:
    """Play ``n`` rounds; the seconds it took."""
    started = time.perf_counter()
    with tqdm(total=n, unit="rounds", desc=desc or runner.table.name, file=sys.stderr,
              disable=not progress, leave=False) as bar:
        for _ in range(n):
            state = runner.play()
            if on_round is not None:
                on_round(state)
            bar.update(1)
    return time.perf_counter() - started


def event_count() -> int:
    from casino.eventstore.models import Event

    return Event.objects.count()


# --- theory ---------------------------------------------------------------------------------

def theory_for(game: str, options: dict[str, Any], kinds: list[str]
               ) -> dict[str, dict[str, Any]]:
    """paytable_report's figure per wager type (or combination), where it has one."""
    from tables.domain.paytable_math import exact_figures, simulate
    from tables.management.commands.paytable_report import DEFAULT_ROUNDS, DEFAULT_SEED

    exact_name: dict[str, str] = {}
    if game == "lunar-poker-589" and options.get("super_wager_offered"):
        exact_name["super"] = f"589-super-{options['super_paytable']}"
    if game == "lunar-poker-671a":
        for k in ("super", "super_dealer", "super_on"):
            exact_name[k] = "671a-super"
    if game == "five-card-hi-lo" and options.get("poker_bonus_offered"):
        exact_name["poker_bonus"] = f"579-poker-bonus-{options['poker_bonus_paytable']}"
    out: dict[str, dict[str, Any]] = {}
    for kind in kinds:
        if kind in exact_name:
            fig = exact_figures(exact_name[kind])
            out[kind] = {"paytable": fig.table, "section": fig.section, "kind": "exact",
                         "house_edge": float(fig.house_edge)}
    if game in LUNAR_GAMES:
        # Same strategy as paytable_math.lunar_strategy_doc: bet ace-king or better, instant
        # hands declared, never draw or force. Element of risk = house win / total staked.
        name = "589-ante-bet" if game == "lunar-poker-589" else "671a-ante-bet"
        sim = simulate(name, rounds=DEFAULT_ROUNDS, seed=DEFAULT_SEED)
        out["ante+bet"] = {"paytable": name, "section": sim.section, "kind": "simulated",
                           "house_edge": sim.element_of_risk, "rounds": sim.rounds,
                           "seed": sim.seed,
                           "note": "house win / total staked on Ante and Bet"}
    return out


def report(runner: TableRunner, tally: Tally, seconds: float, events: int | None,
           with_theory: bool) -> dict[str, Any]:
    game = runner.table.game
    kinds = sorted(tally.wagered, key=lambda k: (k not in ("ante", "super"), k))
    per: dict[str, Any] = {k: hold_interval(tally.wagered[k], tally.returned[k]) for k in kinds}
    combos: dict[str, Any] = {}
    if game in LUNAR_GAMES:
        combos["ante+bet"] = hold_interval(*tally.combined(("ante", "bet")))
    else:
        combos["ante+play"] = hold_interval(*tally.combined(("ante", "play")))
    total = hold_interval(*tally.combined(tuple(kinds)))
    if with_theory:
        theory = theory_for(game, runner.options, [*kinds, *combos])
        for k, row in [*per.items(), *combos.items()]:
            row["theory"] = theory.get(k)
    return {
        "table": runner.table.name, "game": game, "database": connection.vendor,
        "positions": runner.positions, "rounds": tally.rounds, "seconds": round(seconds, 3),
        "rounds_per_second": round(tally.rounds / seconds, 2) if seconds else None,
        "events_appended": events,
        "decks": {"counted": runner.counted, "replaced_time_limit": runner.replaced,
                  "put_in_play": runner.put_in_play},
        "wagers": per, "combined": combos, "total": total,
    }


def _int(raw: Any, name: str, lo: int, hi: int) -> int:
    try:
        v = int(str(raw).replace("_", ""), 10)
    except ValueError:
        raise CommandError(f"invalid_option: --{name} must be a whole number, not "
                           f"'{raw}'") from None
    if not lo <= v <= hi:
        raise CommandError(f"invalid_option: --{name} must be between {lo:,} and {hi:,}")
    return v


def find_table(name: str, licence: str | None = None) -> GameTable:
    props = Property.objects.all()
    if licence:
        props = props.filter(licence_number=licence)
    tables = list(GameTable.objects.filter(property__in=props, name=name)
                  .select_related("property", "dealer"))
    if not tables:
        raise CommandError(f"table_not_found: no table named {name!r}")
    if len(tables) > 1:
        raise CommandError(f"ambiguous_table: {len(tables)} properties have a table {name!r}; "
                           "name one with --property LICENCE")
    return tables[0]


class Command(BaseCommand):
    help = ("Play N rounds of a house-banked game at a table through the real services "
            "(events appended, decks counted and replaced); JSON with holds vs theory.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table", required=True, help="table name, e.g. LP589-1")
        parser.add_argument("--rounds", default="100", help="rounds to play (default 100)")
        parser.add_argument("--seed", default=None, help="seed for the wagers placed")
        parser.add_argument("--positions", default=None,
                            help="positions that play (default: every position)")
        parser.add_argument("--property", default=None, help="licence number")
        parser.add_argument("--floorperson", default=None,
                            help="username of the floorperson who verifies counts")
        parser.add_argument("--no-theory", action="store_true",
                            help="skip paytable_report's figures (saves a few seconds)")
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        n = _int(opts["rounds"], "rounds", 1, MAX_ROUNDS)
        seed = None if opts["seed"] is None else _int(opts["seed"], "seed", 0, 2**63 - 1)
        positions = None if opts["positions"] is None else _int(opts["positions"],
                                                                "positions", 1, 10)
        table = find_table(opts["table"], opts["property"])
        dealer, floor = crew_for(table, opts["floorperson"])
        if table.current_round_id:
            raise CommandError(f"round_in_progress: table {table.name} has a round open; "
                               "close it first")
        tally = Tally()
        try:
            runner = TableRunner(table, dealer, floor, random.Random(seed), positions)
            before = event_count()
            seconds = run_rounds(runner, n, progress=not opts["no_progress"],
                                 on_round=tally.add)
            events = event_count() - before
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from None
        except Exception as exc:  # e.g. RoleRequired (DRF): still one line with a code
            code = getattr(exc, "default_code", None) or type(exc).__name__
            if not hasattr(exc, "default_code"):
                raise
            raise CommandError(f"{code}: {exc}") from None
        self.stdout.write(json.dumps(report(runner, tally, seconds, events,
                                            not opts["no_theory"]), indent=2))
