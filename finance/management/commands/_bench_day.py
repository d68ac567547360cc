"""The simulated gaming day ``bench_gaming_day_close`` closes: a room of banked and poker
tables on a bench property of its own, built from REAL events.

Playing half a million events through the services would take the better part of an hour,
so the day is made the way a replay would make it:

1. **Templates, through the services.** On the bench property, one table of each game
   (Five Card Hi-Lo, Lunar Poker 589 and 671a, Hold'em) is configured, opened and given
   its decks by the table services, Hold'em seats six players, and each plays a few rounds
   (``TableRunner`` of ``simulate_banked``) or hands (the server's shuffle, random legal
   decisions: rake and both jackpot contributions on most pots) through the services.
   Every event those commands append is read back from the log: the table's set-up (its
   table, deck and poker-table streams) and, per round, its round stream and the events it
   added to the deck and poker-table streams (``DeckDealtRound``, ``HandDealtAtTable``,
   ``HandSettled``).
2. **Replay.** Every other table is those set-up events with a new table id, name and deck
   ids; every round after the templates is a template round (in turn) with a new round id,
   the table's own decks and the next round number, appended with
   :func:`casino.eventstore.store.append` - one append per stream and person, a whole
   sweep of the room (one round at every table) in one transaction - so the inline
   projections build exactly the rows the close reads: ``RoundOpened`` makes the
   ``tables.Round`` row (its table, deck and rules exist), ``RoundClosed`` adds the round
   to ``tables.TableResult``, the hands' ``RakeTaken`` / ``JackpotContributed`` /
   ``HandCompleted`` go to ``poker_room.RakeDay`` and ``FundContributionDay``. A closed
   round's snapshot (written by the command runner, not a projection) is copied from its
   template's.
3. **Finance, through the services.** Every table's tray and box go through
   :mod:`finance.services`: the opener recorded by the dealer and signed by a floorperson
   before play; after it four chip sales, a fill and a credit (requested, prepared by the
   cage, carried by security, signed at the table), the closer (exactly what the tray
   should hold), and the drop box removed, counted by one of the count team, signed by
   another, accepted by a cashier. One banked table's count is a $100 bill short: the one
   exception the close must find.

Time. ``append`` stamps ``recorded_at`` with ``timezone.now()``, and the read models key
on it (``Round.opened_at`` bounds the close's open rounds, ``table_workers`` bounds who
worked a table by ``recorded_at``), while the finance services accept only the day being
played (chip sales and slips: today; inventory: today or yesterday). So the whole
generation runs under ``time_machine.travel`` to an hour into the bench day (ticking): the
events' ``recorded_at``, their metadata's ``gaming_day`` and every read model agree that
they happened that day, as a live day's would. The close then runs at the real time, once
the day has ended.

The jackpots' async follower is caught up after the generation (and timed): the jackpot
fund report reads the day's contributions from its rows.
"""

from __future__ import annotations

import json
import random
import secrets
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max

#: the games of the day: the banked tables take them in turn
BANKED_GAMES = ("five-card-hi-lo", "lunar-poker-589", "lunar-poker-671a")
POKER_GAME = "holdem"
SHORT_NAMES = {"five-card-hi-lo": "HL", "lunar-poker-589": "LP589",
               "lunar-poker-671a": "LP671A", "holdem": "HOLDEM"}
#: a counting shuffler counts the cards, so no deck count stops the replayed rounds
SETUP = {"banked": ("automated-shoe", "automated-counting"),
         "poker": ("hand", "automated-counting")}
BUY_IN_CENTS = 40_000
PLAYERS = 6
#: the deliberate shortage: one $100 bill missing from one banked table's drop box
SHORTAGE_CENTS = 10_000
#: the chip sales of each table's day (cash into the drop box)
CHIP_SALES = 4
#: the finance events of a table's day (opener 2, sales, fill 4, credit 4, closer 2, drop 4)
FINANCE_EVENTS = 16 + CHIP_SALES
OPENER_CENTS = {"banked": 6_000_000, "poker": 1_000_000}
#: a tray never closes below this: a fill brings it up (a losing banked table)
TRAY_FLOOR_CENTS = 2_000_000
CREDIT_CENTS = 250_000
FILL_CENTS = 500_000
#: chip denominations (cents), largest first, for slips and counts
_CHIPS = (500_000, 100_000, 50_000, 10_000, 2_500, 1_000, 500, 250, 100, 50, 25)
_CASH = (10_000, 5_000, 2_000, 1_000, 500, 200, 100)
CREW_ROLES = {"admin": "admin", "compliance": "compliance", "approver": "compliance",
              "floor": "floorperson", "dealer": "dealer", "security": "security",
              "cashier": "cashier", "counter": "count_team", "counter2": "count_team",
              "finance": "finance"}


def kind_of(game: str) -> str:
    return "poker" if game == POKER_GAME else "banked"


def pieces(cents: int, denominations: tuple[int, ...] = _CHIPS) -> dict[str, int]:
    """``cents`` as the fewest pieces of ``denominations`` (largest first)."""
    out: dict[str, int] = {}
    for d in denominations:
        n, cents = divmod(cents, d)
        if n:
            out[str(d)] = n
    if cents:
        raise ValueError(f"{cents} cents left over: not a whole number of the smallest "
                         "denomination")
    return out


# --- the plan ---------------------------------------------------------------------------

@dataclass
class BenchTable:
    """One table of the day and what the generation knows of it."""

    name: str
    game: str
    template: bool = False
    table_id: str = ""
    deck_ids: list[str] = field(default_factory=list)
    rounds: int = 0                 # rounds (or hands) it plays, templates included
    played: int = 0                 # rounds it has played so far
    banked_win_cents: int = 0       # the house's win from its rounds
    rake_cents: int = 0             # the pot rake of its hands
    short: bool = False

    @property
    def kind(self) -> str:
        return kind_of(self.game)


def plan_tables(n: int) -> list[BenchTable]:
    """A third of the room poker (at least one table), the rest banked, the banked games
    in turn; the first table of each game is its template. The last banked table's box
    is the short one."""
    poker = max(1, round(n / 3))
    banked = n - poker
    out: list[BenchTable] = []
    counts: dict[str, int] = {}
    for i in range(n):
        game = BANKED_GAMES[i % len(BANKED_GAMES)] if i < banked else POKER_GAME
        counts[game] = counts.get(game, 0) + 1
        out.append(BenchTable(name=f"BF-{SHORT_NAMES[game]}-{counts[game]:03d}", game=game,
                              template=counts[game] == 1))
    out[banked - 1].short = True
    return out


# --- the crew ---------------------------------------------------------------------------

def crew_of(prop: Any) -> dict[str, Any]:
    """The bench property's staff as actors (one person per role, two of the count team
    and of compliance), enrolled on first use."""
    from django.contrib.auth import get_user_model

    from casino.actors import actor_of
    from casino.services import staff_bootstrap

    User = get_user_model()
    out = {}
    for key, role in CREW_ROLES.items():
        username = f"bf{prop.pk}_{key}"
        user = User.objects.filter(username=username).first()
        if user is None:
            user = staff_bootstrap(property=prop, username=username,
                                   password=secrets.token_urlsafe(24),
                                   credential_number=f"BF{prop.pk}-{key.upper()}",
                                   roles=[role], system="bench").user
        out[key] = actor_of(user)
    return out


# --- templates: events of real commands, read back from the log -------------------------

def _head() -> int:
    from casino.eventstore.models import Event

    return Event.objects.aggregate(m=Max("position"))["m"] or 0


def _since(position: int) -> list[Any]:
    from casino.eventstore.models import Event

    return list(Event.objects.filter(position__gt=position).order_by("position"))


@dataclass
class Template:
    """A game's events with their ids replaced by tokens: the table's set-up, and each
    played round with what it added to the table's other streams."""

    game: str
    setup: str = ""                                  # JSON text, tokens @T@ @N@ @D0@ ...
    rounds: list[str] = field(default_factory=list)  # JSON text, tokens @R@ @T@ @D0@ ...
    numbers: list[int] = field(default_factory=list)  # each template round's number
    wins: list[int] = field(default_factory=list)     # house win (banked) per round
    rakes: list[int] = field(default_factory=list)    # pot rake (poker) per round
    setup_events: int = 0
    round_events: list[int] = field(default_factory=list)

    def mean_round_events(self) -> float:
        return sum(self.round_events) / len(self.round_events)


def _keyed(events: list[Any], table: BenchTable, round_id: str | None = None
           ) -> tuple[str, int]:
    """The events as ``[stream key, type, schema, data, metadata]`` JSON text, the
    table's, decks' and round's ids (and the table's name) replaced by tokens."""
    rows = []
    for e in events:
        sid = e.stream_id
        if round_id is not None and sid == f"round-{round_id}":
            key = "round"
        elif sid == f"table-{table.table_id}":
            key = "table"
        elif sid == f"poker_table-{table.table_id}":
            key = "poker_table"
        elif sid.startswith("deck-") and sid[5:] in table.deck_ids:
            key = f"deck:{table.deck_ids.index(sid[5:])}"
        elif e.stream_type in ("round", "table", "deck", "poker_table"):
            raise RuntimeError(f"the template {table.name} appended to {sid}, which is not "
                               "its own: the bench cannot replay it")
        else:
            continue  # the Rules Submission's or the staff's own streams: not replayed
        meta = {k: v for k, v in e.metadata.items() if k != "idempotency_key"}
        rows.append([key, e.type, e.schema_version, e.data, meta])
    text = json.dumps(rows)
    text = text.replace(f'"{table.name}"', '"@N@"').replace(table.table_id, "@T@")
    for i, deck in enumerate(table.deck_ids):
        text = text.replace(deck, f"@D{i}@")
    if round_id is not None:
        text = text.replace(round_id, "@R@")
    return text, len(rows)


def template_table(table: BenchTable, crew: dict[str, Any], templates: int,
                   rng: random.Random, step: Callable[[int], None]) -> Template:
    """Configure, open and deck the template table through the services, record its
    opener, play ``templates`` rounds or hands, and read every event back."""
    from tables.demo import keep_decks_in_play
    from tables.models import Deck, DeckState
    from tables.services import tables

    t = Template(table.game)
    dealing, shuffler = SETUP[table.kind]
    before = _head()
    gt = tables.table_configure(actor=crew["admin"], name=table.name, game=table.game,
                                positions=_positions(table.game), dealing_method=dealing,
                                shuffler=shuffler)
    table.table_id = str(gt.pk)
    tables.table_assign_dealer(actor=crew["floor"], table_id=gt.pk,
                               dealer=crew["dealer"].username)
    gt = tables.table_open(actor=crew["floor"], table_id=gt.pk)
    keep_decks_in_play(gt, crew["dealer"], crew["floor"], batch="BENCH")
    table.deck_ids = [str(d) for d in Deck.objects.filter(
        table=gt, state=DeckState.IN_PLAY).order_by("received_at").values_list("pk", flat=True)]
    if table.kind == "poker":
        from poker_room.demo import jackpot_boxes_ready
        from poker_room.services import seats

        # 637a.2(e): the jackpot boxes on the table, or its hands pay into no fund
        jackpot_boxes_ready(gt, crew["floor"])
        for seat in range(1, PLAYERS + 1):
            seats.seat_player(actor=crew["dealer"], table_id=gt.pk, seat=seat,
                              buy_in_cents=BUY_IN_CENTS, paid_with="chips")
    events = _since(before)
    t.setup, t.setup_events = _keyed(events, table)
    step(len(events))
    step(open_tray(table, crew))
    play = _banked_player(table, crew, rng) if table.kind == "banked" \
        else _poker_player(table, crew, rng)
    for _ in range(templates):
        before = _head()
        round_id = play()
        events = _since(before)
        text, n = _keyed(events, table, round_id)
        _add_snapshot(t, text, round_id, table)
        t.round_events.append(n)
        opened = next(e for e in events if e.type == "RoundOpened")
        t.numbers.append(opened.data["number"])
        t.wins.append(sum(e.data["wagered"] - e.data["returned"] for e in events
                          if e.type == "RoundClosed" and "by_wager" in e.data))
        t.rakes.append(sum(e.data["amount"] for e in events if e.type == "RakeTaken"))
        table.played += 1
        table.banked_win_cents += t.wins[-1]
        table.rake_cents += t.rakes[-1]
        step(n)
    return t


def _add_snapshot(t: Template, text: str, round_id: str, table: BenchTable) -> None:
    """The template round's events and its closed row's snapshot, tokens in both."""
    from tables.models import Round

    row = Round.objects.get(pk=round_id)
    snap = json.dumps([row.snapshot, row.snapshot_version]).replace(round_id, "@R@") \
        .replace(table.table_id, "@T@")
    for i, deck in enumerate(table.deck_ids):
        snap = snap.replace(deck, f"@D{i}@")
    t.rounds.append(f'{{"events": {text}, "snapshot": {snap}}}')


def _positions(game: str) -> int:
    from tables.domain.catalogue import get_table_game

    return get_table_game(game).max_positions


def _banked_player(table: BenchTable, crew: dict[str, Any], rng: random.Random
                   ) -> Callable[[], str]:
    from tables.management.commands.simulate_banked import TableRunner
    from tables.models import GameTable, Round

    runner = TableRunner(GameTable.objects.get(pk=table.table_id), crew["dealer"],
                         crew["floor"], rng)

    def play() -> str:
        runner.play(batched=True)
        return str(Round.objects.filter(table_id=table.table_id).order_by("-number")
                   .values_list("pk", flat=True)[0])
    return play


def _poker_player(table: BenchTable, crew: dict[str, Any], rng: random.Random
                  ) -> Callable[[], str]:
    """Hold'em hands: the server shuffles; the players call, check and now and then bet
    or raise (rarely fold), so most pots pass the jackpots' minimums (637a.15(c),
    637a.16(c)) and are raked (637a.17(b))."""
    from poker_room.services import hands

    def decide(hand: Any) -> dict[str, Any]:
        legal = hand.legal_actions()
        acts, roll = legal["actions"], rng.random()
        if "check" in acts:
            action = "bet" if roll < 0.15 and "bet" in acts else "check"
        elif roll < 0.05:
            action = "fold"
        elif roll < 0.15 and "raise" in acts:
            action = "raise"
        else:
            action = "call"
        return {"type": "act", "seat": legal["seat"], "action": action}

    def play() -> str:
        ph = hands.hand_start(actor=crew["dealer"], table_id=table.table_id, shuffle=True)
        while not ph.hand.is_complete:
            local, batch = ph.hand, []
            while not local.is_complete and local.to_act is not None:
                command = decide(local)
                local.execute(command)
                batch.append(command)
            ph = hands.hand_command(actor=crew["dealer"], round_id=ph.round_id,
                                    commands=batch, expected_version=ph.version)
        return str(ph.round_id)
    return play


# --- replay --------------------------------------------------------------------------------

_STREAM_TYPES = {"round": "round", "table": "table", "poker_table": "poker_table"}


class Replay:
    """Appends replayed events: each stream's version kept here, consecutive events of
    one person in one append, the rounds' snapshots written per sweep."""

    def __init__(self) -> None:
        self.versions: dict[str, int] = {}
        self.events = 0

    def put(self, stream_type: str, stream_id: str, rows: list[list[Any]]) -> None:
        from casino.eventstore.store import NewEvent, append, stream_version

        if stream_id not in self.versions:
            self.versions[stream_id] = stream_version(stream_id)
        i = 0
        while i < len(rows):
            meta, j = rows[i][4], i + 1
            while j < len(rows) and rows[j][4] == meta:
                j += 1
            version = self.versions[stream_id]
            append((stream_type, stream_id), version,
                   [NewEvent(r[1], r[3], r[2]) for r in rows[i:j]], meta, savepoint=False)
            self.versions[stream_id] = version + (j - i)
            self.events += j - i
            i = j

    def streams(self, rows: list[list[Any]], table: BenchTable, round_id: str = ""
                ) -> dict[tuple[str, str], list[list[Any]]]:
        out: dict[tuple[str, str], list[list[Any]]] = {}
        for row in rows:
            key = row[0]
            if key.startswith("deck:"):
                stream = ("deck", f"deck-{table.deck_ids[int(key[5:])]}")
            elif key == "round":
                stream = ("round", f"round-{round_id}")
            else:
                stream = (_STREAM_TYPES[key], f"{key}-{table.table_id}")
            out.setdefault(stream, []).append(row)
        return out


def _fill(text: str, table: BenchTable, round_id: str = "") -> str:
    text = text.replace("@T@", table.table_id).replace("@N@", table.name)
    for i, deck in enumerate(table.deck_ids):
        text = text.replace(f"@D{i}@", deck)
    return text.replace("@R@", round_id) if round_id else text


def replay_setup(table: BenchTable, template: Template, replay: Replay) -> None:
    """A new table, its decks and seats: the template's set-up under new ids."""
    table.table_id = str(uuid.uuid4())
    table.deck_ids = [str(uuid.uuid4()) for _ in range(_deck_count(template.setup))]
    rows = json.loads(_fill(template.setup, table))
    for (stype, sid), run in replay.streams(rows, table).items():
        replay.put(stype, sid, run)


def _deck_count(text: str) -> int:
    n = 0
    while f'"deck:{n}"' in text:
        n += 1
    return n


def replay_round(table: BenchTable, template: Template, replay: Replay,
                 later: dict[tuple[str, str], list[list[Any]]], snapshots: list[Any]) -> int:
    """The table's next round: template round ``played % templates`` under a new id and
    the next number. The round's own stream is appended now; what it adds to the deck and
    poker-table streams waits in ``later`` (appended once per sweep, in order)."""
    from tables.models import Round

    k = table.played % len(template.rounds)
    round_id = str(uuid.uuid4())
    number = table.played + 1
    doc = json.loads(_fill(template.rounds[k], table, round_id))
    rows = doc["events"]
    for row in rows:
        if row[1] in ("RoundOpened", "HandDealtAtTable", "DeckDealtRound") \
                and row[3].get("number") == template.numbers[k]:
            row[3]["number"] = number
    for stream, run in replay.streams(rows, table, round_id).items():
        if stream[0] == "round":
            replay.put(*stream, run)
        else:
            later.setdefault(stream, []).extend(run)
    snapshot, version = doc["snapshot"]
    snapshots.append(Round(id=round_id, snapshot=snapshot, snapshot_version=version))
    table.played += 1
    table.banked_win_cents += template.wins[k]
    table.rake_cents += template.rakes[k]
    return len(rows)


# --- finance, through the services ------------------------------------------------------------

def open_tray(table: BenchTable, crew: dict[str, Any]) -> int:
    """The dealer records the opening inventory, a floorperson signs it."""
    from finance.services import tray

    tray.inventory_record(actor=crew["dealer"], table_id=table.table_id, slip="opener",
                          pieces=pieces(OPENER_CENTS[table.kind]))
    tray.inventory_sign(actor=crew["floor"], table_id=table.table_id, slip="opener")
    return 2


def _slip(table: BenchTable, crew: dict[str, Any], kind: str, cents: int) -> None:
    from finance.services import tray

    row = tray.slip_request(actor=crew["floor"], table_id=table.table_id, kind=kind,
                            pieces=pieces(cents))
    slip_id = next(k for k, s in row.state["slips"].items() if s["state"] == "requested")
    tray.slip_prepare(actor=crew["cashier"], table_id=table.table_id, slip_id=slip_id)
    tray.slip_carry(actor=crew["security"], table_id=table.table_id, slip_id=slip_id)
    tray.slip_complete(actor=crew["dealer"], table_id=table.table_id, slip_id=slip_id)


def close_tray(table: BenchTable, crew: dict[str, Any], rng: random.Random) -> int:
    """The table's day after play: chip sales, a fill and a credit, the closer (what the
    tray should hold: opener + fills - credits - chip sales + the banked win), and the
    drop box (the sales' cash, and at poker the rake) removed, counted, signed and
    accepted - a $100 bill short at the short table."""
    from finance.services import drop, tray

    sales = [rng.choice((10_000, 20_000, 50_000, 100_000)) for _ in range(CHIP_SALES)]
    for amount in sales:
        tray.chips_sell(actor=crew["dealer"], table_id=table.table_id, amount_cents=amount)
    win = table.banked_win_cents if table.kind == "banked" else 0
    closer = OPENER_CENTS[table.kind] - CREDIT_CENTS - sum(sales) + win
    short_by = TRAY_FLOOR_CENTS - (closer + FILL_CENTS)  # a losing table needs more
    fill = FILL_CENTS + max(0, -(-short_by // 10_000) * 10_000)  # whole $100 above it
    _slip(table, crew, "fill", fill)
    _slip(table, crew, "credit", CREDIT_CENTS)
    closer += fill
    tray.inventory_record(actor=crew["dealer"], table_id=table.table_id, slip="closer",
                          pieces=pieces(closer))
    tray.inventory_sign(actor=crew["floor"], table_id=table.table_id, slip="closer")
    cash = sum(sales) - (SHORTAGE_CENTS if table.short else 0)
    drop.drop_remove(actor=crew["security"], table_id=table.table_id)
    drop.drop_count(actor=crew["counter"], table_id=table.table_id,
                    cash=pieces(cash, _CASH),
                    chips=pieces(table.rake_cents) if table.rake_cents else None)
    drop.drop_count_sign(actor=crew["counter2"], table_id=table.table_id)
    drop.drop_accept(actor=crew["cashier"], table_id=table.table_id)
    return FINANCE_EVENTS - 2


# --- the day ----------------------------------------------------------------------------------

@dataclass
class Day:
    """What the generation made."""

    tables: list[BenchTable]
    seconds: float
    banked_rounds: int
    poker_hands: int


@contextmanager
def on_the_day_of(day: date) -> Iterator[None]:
    """The clock an hour into the gaming day (and ticking), in the time zone and day
    boundary the bench property is registered with (the settings'): see the module's
    docstring."""
    import time_machine
    from django.conf import settings

    from casino.domain.gaming_day import gaming_day_bounds

    start, _ = gaming_day_bounds(day, time_zone=settings.PROPERTY_TIME_ZONE,
                                 start_hour=settings.GAMING_DAY_START_HOUR)
    with time_machine.travel(start + timedelta(hours=1), tick=True):
        yield


def rounds_per_table(templates: dict[str, Template], tables: int, events: int
                     ) -> dict[str, int]:
    """Rounds (or hands) each table of a game plays so the day comes to about ``events``:
    each table an equal share, less its set-up and finance events."""
    share = events / tables
    return {g: max(1, round((share - t.setup_events - FINANCE_EVENTS)
                            / t.mean_round_events()))
            for g, t in templates.items()}


def generate(prop: Any, crew: dict[str, Any], tables: list[BenchTable], *, events: int,
             templates: int, seed: int | None, progress: bool) -> Day:
    """Make the day (under ``on_the_day``); the tables as played."""
    from tqdm import tqdm

    from casino.eventstore import projections
    from tables.demo import example_rules_in_effect

    rng = random.Random(seed)
    started = time.perf_counter()
    bar = tqdm(total=events, unit="events", desc="the bench day", file=sys.stderr,
               disable=not progress, smoothing=0.05)
    with projections.no_wake(), bar:
        for game in {t.game for t in tables}:
            example_rules_in_effect(crew, game)
        made = {t.game: template_table(t, crew, templates, rng, bar.update)
                for t in tables if t.template}
        per_game = rounds_per_table(made, len(tables), events)
        replay = Replay()
        for t in tables:
            t.rounds = max(per_game[t.game], t.played)
            if not t.template:
                with transaction.atomic():
                    before = replay.events
                    replay_setup(t, made[t.game], replay)
                bar.update(replay.events - before)
                bar.update(open_tray(t, crew))
        for _ in range(max(t.rounds for t in tables)):
            later: dict[tuple[str, str], list[list[Any]]] = {}
            snapshots: list[Any] = []
            before = replay.events
            with transaction.atomic():
                for t in tables:
                    if t.played < t.rounds:
                        replay_round(t, made[t.game], replay, later, snapshots)
                for stream, rows in later.items():
                    replay.put(*stream, rows)
                _save_snapshots(snapshots)
            bar.update(replay.events - before)
        for t in tables:
            bar.update(close_tray(t, crew, rng))
    rounds = {k: sum(t.played for t in tables if t.kind == k) for k in ("banked", "poker")}
    return Day(tables, time.perf_counter() - started, rounds["banked"], rounds["poker"])


def _save_snapshots(rows: list[Any]) -> None:
    from tables.models import Round

    if rows:
        Round.objects.bulk_update(rows, ["snapshot", "snapshot_version"], batch_size=500)
