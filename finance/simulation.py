"""A simulated gaming day for the demo (issue 15, "Demo"): tables opened, banked rounds and
poker hands played through the real services, every finance step a person takes on the
way (the tray's slips, chips sold for cash, a fill and a credit through all their
signatures, the drop removed, counted, signed and accepted, the jackpot payout boxes
counted and the displayed amounts adjusted), and the day closed by finance, so that a new
user finds every report filled. ``manage.py simulate_gaming_day`` runs it.

A gaming day closes only once it has ended (:func:`finance.services.gaming_day_close`),
and every service stamps its events with the clock. So the day played is one that has
ended (the previous one by default), with this process's clock set to it
(``time_machine``, ticking): the tables open ten minutes after the day's start and play,
close half an hour before its end (closing slips, players gone, decks out, jackpot boxes
counted), and after the end security removes the drop boxes, the count team counts them,
a cashier accepts the counts and finance closes the day. Nothing is left for the
real-time sweeps (deck timers, time charges, jackpot counts) to act on afterwards.

What the count should find is known before the count: the closer is the expected closer
(opener + fills − credits − chip sales + the banked win) and every drop box holds the
expected drop (chip sales for cash, plus the rake at poker), except the one box the
caller names short, so the close finds exactly one exception: that table's drop
(DESIGN §4 "Finance"; § 637a.17 for the rake, § 637a.15(d)-(e) and § 637a.16(d)-(e) for the
jackpot boxes, § 589.11, § 671a.11 and § 579.11 for the banked tables' settlement).

The people are the demo staff of ``manage.py seed_demo``: the dealer deals every table,
the floorperson signs, the cashier prepares slips and accepts counts, security carries
slips and removes boxes, two count team members who never worked a table count and sign,
finance closes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone

from casino.actors import Actor, actor_of
from casino.domain.errors import ConflictError, DomainError
from casino.domain.gaming_day import gaming_day_bounds, gaming_day_of
from casino.domain.money import MoneyError, format_money, parse_money
from casino.eventstore import projections
from casino.eventstore.models import Event
from casino.eventstore.reading import committed_unsettled
from casino.models import Property
from finance import services as fin
from finance.domain.reconcile import TableDayFigures
from finance.domain.table_day import CASH_DENOMINATIONS, total_cents
from finance.figures import table_day_figures
from finance.models import FinanceException, GamingDay
from jackpots.models import Fund, FundCount, PayoutBox
from jackpots.projections import FundsFollower
from jackpots.services import counts as jackpot_counts
from jackpots.services import display_adjust, display_witness
from poker_room.models import Seat
from poker_room.services import hands, seats
from tables.demo import _rules_in_effect, keep_decks_in_play
from tables.management.commands.simulate_banked import TableRunner
from tables.models import Deck, DeckState, GameTable, Round, TableStatus
from tables.selectors import decks_in_play
from tables.services import decks, tables


#: called after each round or hand with the table's name (the command's progress bar)
Tick = Callable[[str], None]


class Refused(Exception):
    """The day cannot be simulated: a stable ``code`` and a sentence saying why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


class Stopped(Refused):
    """A step was refused part-way through the day (the day is left part-played)."""


# --- what is played -----------------------------------------------------------------------

@dataclass(frozen=True)
class SimTable:
    name: str
    game: str
    positions: int
    dealing: str
    shuffler: str

    @property
    def poker(self) -> bool:
        return self.game == "holdem"


#: the simulation's own tables (created on first use, reopened for each day played)
TABLES = (
    SimTable("SIM-HILO-1", "five-card-hi-lo", 6, "hand", "automated"),
    SimTable("SIM-LUNAR-1", "lunar-poker-671a", 5, "automated-shoe", "automated-counting"),
    # a counting shuffler counts the poker decks, so no count interrupts the hands
    SimTable("SIM-HOLDEM-1", "holdem", 10, "hand", "automated-counting"),
    SimTable("SIM-HOLDEM-2", "holdem", 10, "hand", "automated-counting"),
)
DEFAULT_SHORT_TABLE = "SIM-HOLDEM-1"
DEFAULT_SHORT_CENTS = 50_00

#: the trays' opening inventories (cents: pieces): $9,500.00 banked, $3,500.00 poker
BANKED_OPENER = {"10000": 40, "2500": 160, "500": 200, "100": 500}
POKER_OPENER = {"2500": 80, "500": 200, "100": 500}
#: one fill and one credit at every table: $1,000.00 / $500.00 banked, $500.00 / $250.00 poker
BANKED_FILL, BANKED_CREDIT = {"2500": 40}, {"10000": 5}
POKER_FILL, POKER_CREDIT = {"500": 100}, {"2500": 10}
#: chips bought for cash at a banked table: each position at the start, one more later
BANKED_BUY_IN, BANKED_TOP_UP = 200_00, 100_00
#: a tray whose expected contents fall below this is filled back up to its opening
#: inventory, in $500.00 steps (a banked game's big payout can empty a tray in a round)
BANKED_TRAY_LOW, POKER_TRAY_LOW, FILL_STEP = 2_000_00, 1_000_00, 500_00
#: poker: six players buy in for $300.00; one below $24.00 (the most a hand of this
#: calling-station game costs at 4/8 fixed limit) adds $200.00 before the next hand
POKER_PLAYERS, POKER_BUY_IN, POKER_TOP_UP, POKER_LOW = 6, 300_00, 200_00, 24_00
#: the largest shortage: less than the smallest table's opening chip sales (5 x $200.00)
MOST_SHORT_CENTS = 1_000_00
#: chips counted into trays and drop boxes, largest first (cents)
TRAY_CHIPS = (10000, 2500, 500, 100, 25)
#: when things happen in the simulated day
OPEN_AFTER_START = timedelta(minutes=10)
CLOSE_BEFORE_END = timedelta(minutes=30)
COUNT_AFTER_END = timedelta(minutes=10)
#: how long the jackpot count waits for the jackpots follower to reach the head
FOLLOWER_WAIT_SECONDS = 10.0


def pieces(cents: int, denominations: tuple[int, ...], what: str) -> dict[str, int]:
    """``cents`` as pieces, largest denominations first; an amount no piece can make up
    (below the smallest) is refused rather than rounded."""
    out: dict[str, int] = {}
    left = cents
    for d in sorted(denominations, reverse=True):
        n, left = divmod(left, d)
        if n:
            out[str(d)] = n
    if left or cents < 0:
        raise Refused("not_countable", f"{what} of {format_money(cents)} cannot be made up "
                      f"of pieces of {', '.join(format_money(d) for d in denominations)}")
    return out


# --- the options ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """What to play: the day, rounds per banked table, hands per poker table, the table
    whose drop box is short and by how much (or none)."""

    day: date
    rounds: int = 12
    hands: int = 12
    short_table: str | None = DEFAULT_SHORT_TABLE
    short_cents: int = DEFAULT_SHORT_CENTS
    seed: int | None = None


def parse_short(value: str | None) -> tuple[str | None, int]:
    """``TABLE:AMOUNT`` (e.g. ``SIM-HOLDEM-1:50.00``), or ``none``; default the first poker
    table $50.00 short. Whole dollars (bills missing from the box), at most $1,000.00."""
    if value is None:
        return DEFAULT_SHORT_TABLE, DEFAULT_SHORT_CENTS
    if value.strip().lower() == "none":
        return None, 0
    name, sep, amount = value.partition(":")
    names = [t.name for t in TABLES]
    if not sep or name not in names:
        raise Refused("invalid_short", f"--short is TABLE:AMOUNT with TABLE one of "
                      f"{', '.join(names)} (e.g. {DEFAULT_SHORT_TABLE}:50.00), or none")
    try:
        cents = parse_money(amount)
    except MoneyError as exc:
        raise Refused("invalid_short", exc.message) from None
    if cents <= 0 or cents % 100 or cents > MOST_SHORT_CENTS:
        raise Refused("invalid_short", "the shortage is whole dollars (bills missing from "
                      f"the box), from $1.00 to {format_money(MOST_SHORT_CENTS)}")
    return name, cents


# --- the people -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Crew:
    dealer: Actor
    floor: Actor
    cashier: Actor
    security: Actor
    counter: Actor
    counter2: Actor
    finance: Actor
    #: who files and approves a Rules Submission when a game has none in effect
    people: dict[str, Actor]


CREW = {"dealer": "demo_dealer", "floor": "demo_floorperson", "cashier": "demo_cashier",
        "security": "demo_security", "counter": "demo_count_team",
        "counter2": "demo_count_team_2", "finance": "demo_finance",
        "admin": "demo_admin", "compliance": "demo_compliance",
        "approver": "demo_compliance_2"}


def crew_of(prop: Property) -> Crew:
    """The demo staff of ``prop``; refused (``no_demo_staff``) when seed_demo has not run."""
    users = {u.username: u for u in get_user_model().objects.filter(
        username__in=CREW.values(), staff__property=prop, is_active=True)}
    missing = sorted(set(CREW.values()) - set(users))
    if missing:
        raise Refused("no_demo_staff", f"{', '.join(missing)} not found: run "
                      "`manage.py seed_demo` first")
    a = {role: actor_of(users[name]) for role, name in CREW.items()}
    return Crew(dealer=a["dealer"], floor=a["floor"], cashier=a["cashier"],
                security=a["security"], counter=a["counter"], counter2=a["counter2"],
                finance=a["finance"], people=a)


# --- which day ------------------------------------------------------------------------------

def current_day(prop: Property, now: datetime | None = None) -> date:
    return gaming_day_of(now or timezone.now(), time_zone=prop.time_zone,
                         start_hour=prop.gaming_day_start_hour)


def check_day(prop: Property, day: date) -> None:
    """Refuse a day that has not ended (``gaming_day_not_ended``), one closed already
    (``gaming_day_closed``), or one with anything played or recorded at a table
    (``gaming_day_played``): the simulation plays a day of its own."""
    today = current_day(prop)
    if day >= today:
        raise Refused("gaming_day_not_ended", f"the gaming day {day} has not ended (the "
                      f"current one is {today}); simulate an ended day, e.g. "
                      f"{today - timedelta(days=1)}")
    row = GamingDay.objects.filter(property=prop, gaming_day=day).first()
    if row is not None and row.state == "closed":
        raise Refused("gaming_day_closed", f"the gaming day {day} is closed already")
    start, end = gaming_day_bounds(day, time_zone=prop.time_zone,
                                   start_hour=prop.gaming_day_start_hour)
    if row is not None or table_day_figures(prop, day) or Round.objects.filter(
            table__property=prop, opened_at__gte=start, opened_at__lt=end).exists():
        raise Refused("gaming_day_played", f"the gaming day {day} has play recorded "
                      "already; simulate another day (--day)")


# --- one table ------------------------------------------------------------------------------

@dataclass
class Played:
    """One table of the simulated day."""

    spec: SimTable
    table: GameTable
    day: date
    rounds: int = 0
    hands: int = 0
    rebuys: int = 0
    #: fills beyond the planned one, made when the tray ran low
    low_tray_fills: int = 0


def _table(spec: SimTable, crew: Crew) -> GameTable:
    """The simulation's table, configured on first use, its dealer assigned, open, with
    its decks in play."""
    admin, floor = crew.people["admin"], crew.floor
    prop = admin.property
    table = GameTable.objects.filter(property=prop, name=spec.name).first()
    if table is None:
        table = tables.table_configure(actor=admin, name=spec.name, game=spec.game,
                                       positions=spec.positions, dealing_method=spec.dealing,
                                       shuffler=spec.shuffler)
    if table.dealer_id != crew.dealer.user_id:
        tables.table_assign_dealer(actor=floor, table_id=table.pk,
                                   dealer=crew.dealer.username)
    table = GameTable.objects.get(pk=table.pk)
    if table.current_round_id:
        raise Refused("round_in_progress", f"table {spec.name} has a round in progress")
    if table.status == TableStatus.CLOSED:
        tables.table_open(actor=floor, table_id=table.pk)
    keep_decks_in_play(GameTable.objects.get(pk=table.pk), crew.dealer, floor, batch="SIM")
    return GameTable.objects.select_related("property", "dealer").get(pk=table.pk)


def _inventory(crew: Crew, table: GameTable, slip: str, chips: dict[str, int]) -> None:
    """The dealer records the tray's slip, the floorperson signs it."""
    fin.inventory_record(actor=crew.dealer, table_id=table.pk, slip=slip, pieces=chips)
    fin.inventory_sign(actor=crew.floor, table_id=table.pk, slip=slip)


def _slip(crew: Crew, table: GameTable, kind: str, chips: dict[str, int]) -> None:
    """A fill or credit through every signature: requested by the floorperson, prepared
    by the cashier, carried by security, signed at the table by the dealer."""
    row = fin.slip_request(actor=crew.floor, table_id=table.pk, kind=kind, pieces=chips)
    slip_id = next(k for k, s in row.state["slips"].items() if s["state"] == "requested")
    fin.slip_prepare(actor=crew.cashier, table_id=table.pk, slip_id=slip_id)
    fin.slip_carry(actor=crew.security, table_id=table.pk, slip_id=slip_id)
    fin.slip_complete(actor=crew.dealer, table_id=table.pk, slip_id=slip_id)


def _sell(crew: Crew, table: GameTable, cents: int) -> None:
    fin.chips_sell(actor=crew.dealer, table_id=table.pk, amount_cents=cents)


def keep_tray(p: Played, crew: Crew) -> None:
    """The floorperson has the tray filled when what it should hold (the expected closer:
    opener + fills − credits − chip sales + the banked win) runs low, back up to its
    opening inventory in $500.00 steps."""
    level = figures_of(p.table, p.day).expected_closer_cents
    low = POKER_TRAY_LOW if p.spec.poker else BANKED_TRAY_LOW
    if level is None or level >= low:
        return
    opener = total_cents(POKER_OPENER if p.spec.poker else BANKED_OPENER)
    amount = -(-(opener - level) // FILL_STEP) * FILL_STEP
    _slip(crew, p.table, "fill", pieces(amount, (10000, 2500), f"a fill at {p.spec.name}"))
    p.low_tray_fills += 1


def play_banked(p: Played, crew: Crew, rounds: int, rng: random.Random, tick: Tick) -> None:
    """Chips sold to every position, rounds dealt (tables' TableRunner: the decks counted
    and changed as the chapters want), a fill halfway and one more player buying chips,
    then a credit; a fill whenever the tray runs low."""
    runner = TableRunner(p.table, crew.dealer, crew.floor, rng)
    for _ in range(runner.positions):
        _sell(crew, p.table, BANKED_BUY_IN)
    for n in range(rounds):
        if n == rounds // 2:
            _slip(crew, p.table, "fill", BANKED_FILL)
            _sell(crew, p.table, BANKED_TOP_UP)
        runner.play()
        p.rounds += 1
        keep_tray(p, crew)
        tick(p.spec.name)
    _slip(crew, p.table, "credit", BANKED_CREDIT)


class PokerDealer:
    """Hold'em hands at one table through the poker room's services (the server
    shuffles, the engine deals), the dealer entering each betting round as one batch.

    The players are calling stations: nobody folds or raises; after the flop the first to
    act bets and everyone calls. Every pot so reaches the posted rake cap and the jackpot
    minimums (§ 637a.17(a), § 637a.15(c), § 637a.16(c)), which keeps the day's figures
    easy to follow."""

    def __init__(self, p: Played, crew: Crew) -> None:
        self.p, self.crew = p, crew
        self.table = p.table
        self.stacks: dict[int, int] = {}

    def seat_players(self) -> None:
        for seat in range(1, POKER_PLAYERS + 1):
            if not Seat.objects.filter(table=self.table, seat=seat).exists():
                seats.seat_player(actor=self.crew.dealer, table_id=self.table.pk, seat=seat,
                                  buy_in_cents=POKER_BUY_IN)
                _sell(self.crew, self.table, POKER_BUY_IN)
        self.stacks = {s.seat: s.stack_cents for s in Seat.objects.filter(table=self.table)}

    def _top_up(self) -> None:
        for seat, stack in sorted(self.stacks.items()):
            if stack < POKER_LOW:
                seats.chips_add(actor=self.crew.dealer, table_id=self.table.pk, seat=seat,
                                amount_cents=POKER_TOP_UP)
                _sell(self.crew, self.table, POKER_TOP_UP)
                self.stacks[seat] = stack + POKER_TOP_UP
                self.p.rebuys += 1

    def _start(self) -> Any:
        for _ in range(3):
            try:
                return hands.hand_start(actor=self.crew.dealer, table_id=self.table.pk,
                                        shuffle=True)
            except ConflictError as exc:
                if exc.code not in ("deck_change_due", "second_deck_missing",
                                    "no_deck_in_play", "deck_count_due"):
                    raise
                keep_decks_in_play(GameTable.objects.get(pk=self.table.pk), self.crew.dealer,
                                   self.crew.floor, batch="SIM")
        raise Refused("decks_not_in_play", f"the decks of {self.table.name} could not be "
                      "kept in play")

    @staticmethod
    def decide(hand: Any) -> dict[str, Any]:
        legal = hand.legal_actions()
        acts = legal["actions"]
        if "bet" in acts and hand.board:
            action = "bet"
        elif "check" in acts:
            action = "check"
        else:
            action = "call"
        return {"type": "act", "seat": legal["seat"], "action": action}

    def hand(self) -> None:
        self._top_up()
        ph = self._start()
        while not ph.hand.is_complete:
            local, batch = ph.hand, []
            street = list(local.board)
            while not local.is_complete and local.to_act is not None:
                command = self.decide(local)
                local.execute(command)
                batch.append(command)
                if local.board != street:
                    break
            if not batch:
                raise Refused("hand_stuck", f"a hand at {self.table.name} waits for "
                              "something this dealer does not do")
            ph = hands.hand_command(actor=self.crew.dealer, round_id=ph.round_id,
                                    commands=batch, expected_version=ph.version)
        self.stacks.update(ph.hand.stacks)
        self.p.hands += 1

    def players_leave(self) -> None:
        for s in Seat.objects.filter(table=self.table).order_by("seat"):
            seats.seat_leave(actor=self.crew.dealer, table_id=self.table.pk, seat=s.seat)


def play_poker(p: Played, crew: Crew, hands_n: int, tick: Tick) -> PokerDealer:
    """Six players buy in for cash, hands dealt, a fill halfway, a credit at the end; a
    fill whenever the tray runs low (the players' buy-ins and top-ups come out of it)."""
    dealer = PokerDealer(p, crew)
    dealer.seat_players()
    for n in range(hands_n):
        if n == hands_n // 2:
            _slip(crew, p.table, "fill", POKER_FILL)
        dealer.hand()
        keep_tray(p, crew)
        tick(p.spec.name)
    _slip(crew, p.table, "credit", POKER_CREDIT)
    return dealer


def figures_of(table: GameTable, day: date) -> TableDayFigures:
    return table_day_figures(table.property, day, table_ids=[table.pk])[table.pk][1]


def close_table(p: Played, crew: Crew, day: date) -> None:
    """The closing inventory is what the tray should hold (the expected closer), signed;
    the decks taken out of play and destroyed (603a.16); the table closed."""
    closer = figures_of(p.table, day).expected_closer_cents
    assert closer is not None  # the opener is signed
    _inventory(crew, p.table, "closer", pieces(closer, TRAY_CHIPS, f"{p.spec.name}'s closer"))
    for deck in decks_in_play(p.table):
        decks.deck_remove(actor=crew.floor, deck_id=deck.pk, reason="end-of-day")
    for deck in Deck.objects.filter(table=p.table, state=DeckState.REMOVED):
        decks.deck_destroy(actor=crew.security, deck_id=deck.pk)
    tables.table_close(actor=crew.floor, table_id=p.table.pk)


# --- the jackpot boxes ----------------------------------------------------------------------

def _follower_caught_up(wait_seconds: float = FOLLOWER_WAIT_SECONDS) -> bool:
    """The jackpots follower at the head of the log (the boxes as the contributions
    filled them). On PostgreSQL it reads only settled events: a transaction left open
    anywhere on the server holds it back, so it is given a few seconds."""
    deadline = time.monotonic() + wait_seconds
    while True:
        projections.catch_up(FundsFollower.name)
        if not committed_unsettled():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)


def count_jackpot_boxes(crew: Crew, notes: list[str]) -> int:
    """Every fund's payout boxes counted at the cage (§ 637a.15(d)(2)-(e), § 637a.16(d)(2)-(e)):
    the floorperson accounts for the locked boxes, security carries them, the cashier
    counts each box (what it should hold: no variance) and verifies the total; then
    finance adjusts each displayed amount in the floorperson's presence (§ 637a.15(h)).
    Returns how many counts were made; says in ``notes`` why none were."""
    prop = crew.finance.property
    if not _follower_caught_up():
        notes.append("the jackpot boxes were not counted: the jackpots follower could not "
                     "catch up (a transaction is still open on the database server); count "
                     "them through the jackpots API once it has")
        return 0
    made = 0
    for fund in Fund.objects.filter(property=prop, discontinued=False).order_by("name"):
        if not PayoutBox.objects.filter(property=prop, fund=fund.name).exists():
            continue
        opened = jackpot_counts.count_open(actor=crew.floor, fund=fund.name, place="cage")
        count_id = opened["count_id"]
        jackpot_counts.count_account(actor=crew.floor, fund=fund.name, count_id=count_id)
        jackpot_counts.count_carry(actor=crew.security, fund=fund.name, count_id=count_id)
        total = 0
        boxes = FundCount.objects.get(count_id=count_id).boxes  # as the opening recorded
        for box in boxes:
            table_id, expected = box["table_id"], box["expected_cents"]
            jackpot_counts.count_box(actor=crew.cashier, fund=fund.name, count_id=count_id,
                                     table_id=table_id, counted_cents=expected)
            total += expected
        jackpot_counts.count_verify(actor=crew.cashier, fund=fund.name, count_id=count_id,
                                    counted_cents=total)
        display_adjust(actor=crew.finance, fund=fund.name)
        display_witness(actor=crew.floor, fund=fund.name)
        made += 1
    return made


# --- the drop -------------------------------------------------------------------------------

def count_drop(p: Played, crew: Crew, day: date, short_cents: int) -> None:
    """Security removes the box; a count team member who worked no table counts it by
    denomination (the cash, and at poker the rake chips), less ``short_cents`` of bills;
    a second one signs; the cashier accepts."""
    f = figures_of(p.table, day)
    cash = f.chip_sales_cents - short_cents
    chips = f.rake_cents + f.time_charges_cents if p.spec.poker else 0
    fin.drop_remove(actor=crew.security, table_id=p.table.pk, gaming_day=day)
    fin.drop_count(actor=crew.counter, table_id=p.table.pk, gaming_day=day,
                   cash=pieces(cash, CASH_DENOMINATIONS, f"the cash in {p.spec.name}'s box")
                   or None,
                   chips=pieces(chips, TRAY_CHIPS, f"the chips in {p.spec.name}'s box")
                   or None)
    fin.drop_count_sign(actor=crew.counter2, table_id=p.table.pk, gaming_day=day)
    fin.drop_accept(actor=crew.cashier, table_id=p.table.pk, gaming_day=day)


# --- the day --------------------------------------------------------------------------------

@dataclass
class DayResult:
    day: date
    property: Property
    tables: list[Played]
    events: int
    gaming_day: GamingDay
    exceptions: list[FinanceException]
    jackpot_counts: int
    open_items: list[dict[str, Any]]
    #: what the simulation could not do, for the reader
    notes: list[str] = field(default_factory=list)

    @property
    def rounds(self) -> int:
        return sum(p.rounds for p in self.tables)

    @property
    def hands(self) -> int:
        return sum(p.hands for p in self.tables)


def _travel(moment: datetime) -> Any:
    """This process's clock at ``moment``, ticking on from there."""
    return time_machine.travel(moment, tick=True)


def steps(plan: Plan) -> int:
    """How many rounds and hands the plan deals (the progress bar's total)."""
    banked = sum(1 for t in TABLES if not t.poker)
    return banked * plan.rounds + (len(TABLES) - banked) * plan.hands


def simulate_day(prop: Property, plan: Plan, *, tick: Tick | None = None) -> DayResult:
    """Play ``plan.day`` at ``prop`` and close it. Refused (:class:`Refused`, nothing
    played) for a day that has not ended, was played or is closed, or without the demo
    staff; :class:`Stopped` when a step is refused part-way (the day is left part-played,
    and so refused the next time)."""
    crew = crew_of(prop)
    check_day(prop, plan.day)
    before = Event.objects.count()
    try:
        result = _play(prop, plan, crew, tick or (lambda _name: None))
    except (Refused, DomainError) as exc:
        raise Stopped(exc.code, f"the gaming day {plan.day} was left part-played: "
                      f"{exc.message}") from exc
    result.events = Event.objects.count() - before
    return result


def _play(prop: Property, plan: Plan, crew: Crew, tick: Tick) -> DayResult:
    rng = random.Random(plan.seed)
    start, end = gaming_day_bounds(plan.day, time_zone=prop.time_zone,
                                   start_hour=prop.gaming_day_start_hour)
    played: list[Played] = []
    notes: list[str] = []
    dealers: dict[str, PokerDealer] = {}

    # the day: the tables open and play
    with _travel(start + OPEN_AFTER_START):
        for game in dict.fromkeys(t.game for t in TABLES):
            _rules_in_effect(crew.people, game)
        for spec in TABLES:
            p = Played(spec, _table(spec, crew), plan.day)
            _inventory(crew, p.table, "opener", POKER_OPENER if spec.poker else BANKED_OPENER)
            played.append(p)
        for p in played:
            if p.spec.poker:
                dealers[p.spec.name] = play_poker(p, crew, plan.hands, tick)
            else:
                play_banked(p, crew, plan.rounds, rng, tick)

    # half an hour before the day ends: the players leave, the tables close, the jackpot
    # boxes are counted and the displays adjusted
    with _travel(end - CLOSE_BEFORE_END):
        for p in played:
            if p.spec.poker:
                dealers[p.spec.name].players_leave()
            close_table(p, crew, plan.day)
        counted = count_jackpot_boxes(crew, notes)

    # after the day: the drop boxes removed and counted, the day closed
    now = timezone.now()
    with _travel(max(end + timedelta(seconds=1), min(end + COUNT_AFTER_END, now))):
        for p in played:
            count_drop(p, crew, plan.day,
                       plan.short_cents if p.spec.name == plan.short_table else 0)
        items = fin.open_items(prop, plan.day)
        row = fin.gaming_day_close(actor=crew.finance, gaming_day=plan.day,
                                   with_open_items=bool(items))
    projections.catch_up_all()
    return DayResult(
        day=plan.day, property=prop, tables=played, events=0,
        gaming_day=row, open_items=items, jackpot_counts=counted, notes=notes,
        exceptions=list(FinanceException.objects.filter(property=prop, gaming_day=plan.day)
                        .order_by("recorded_at")))


__all__ = ["DEFAULT_SHORT_CENTS", "DEFAULT_SHORT_TABLE", "DayResult", "Plan", "Refused", "Stopped",
           "TABLES", "check_day", "current_day", "parse_short", "pieces", "simulate_day",
           "steps"]
