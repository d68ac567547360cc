"""One table's finance day as people do it: the table opened with its decks in play, the
tray's slips signed, chips sold for cash, fills and credits through every signature, the
tray kept filled, the closer signed and the table closed, and the drop box removed,
counted, signed and accepted (DESIGN §4 "Finance")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from finance import services as fin
from finance.domain.reconcile import TableDayFigures
from finance.domain.table_day import CASH_DENOMINATIONS, total_cents
from finance.figures import table_day_figures
from finance.simulation.crew import Crew
from finance.simulation.plan import (
    BANKED_OPENER,
    BANKED_TRAY_LOW,
    FILL_STEP,
    POKER_OPENER,
    POKER_TRAY_LOW,
    Refused,
    SimTable,
    pieces,
)
from tables.demo import keep_decks_in_play
from tables.models import Deck, DeckState, GameTable, TableStatus
from tables.selectors import decks_in_play
from tables.services import decks, tables

#: chips counted into trays and drop boxes, largest first (cents)
TRAY_CHIPS = (10000, 2500, 500, 100, 25)


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
