"""The statistical report and the variance and exception report, checked against small
days played through the real services: the small day of :mod:`tests.finance._day` (a Five
Card Hi-Lo table whose drop box is $20.00 short, a Hold'em table with rake and time
charges), days built here for the band, the close and the exceptions; every expected
figure worked by hand in the docstrings.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from casino.actors import Actor
from finance import reports, selectors
from finance.hold_band import table_day_band
from finance.reports.statistical import day_bands
from finance import services as finance
from jackpots.services import counts
from tables.models import GameTable, TableResult
from tables.services import banked, rounds
from tests.finance._csv_headers import CSV_HEADERS
from tests.finance._day import (SmallDay, bad_beat_box_counted_at_cage, count,
                                play_hilo_round, small_day)
from tests.tables import conftest as _tables
from tests.console.conftest import verified_login  # the second factor given

pytestmark = pytest.mark.django_db
# the tables app's deck fixtures (tests/finance/conftest.py shares the others)
ready_deck = _tables.ready_deck
deck_in_play = _tables.deck_in_play

#: a day row's figures a test compares
FIGURES = ("drop_cents", "status", "win_cents", "hold_percent")


@pytest.fixture
def day(team, open_table, deck_in_play, poker_table, as_actor) -> Callable[..., SmallDay]:
    """``day(**options)``: the small day of :func:`tests.finance._day.small_day`."""
    def make(**options: Any) -> SmallDay:
        return small_day(team, open_table=open_table, deck_in_play=deck_in_play,
                         poker_table=poker_table, as_actor=as_actor, **options)
    return make


def _build(name: str, actor: Actor, first: date, last: date | None = None) -> reports.Report:
    return reports.build(name, actor, first, last or first, {})


def _rows(report: reports.Report, period: str = "day", table: str | None = None
          ) -> dict[tuple[str, str, str], tuple[Any, ...]]:
    """``{(day, table, game): figures}`` of the rows of ``period``."""
    return {(r["day"], r["table"], r["game"]): tuple(r[k] for k in FIGURES)
            for r in report.rows if r["period"] == period
            and (table is None or r["table"] == table)}


# --- the statistical report: one day ------------------------------------------------------------

def test_statistical_table_rows_are_the_counted_drop_and_the_final_win(day) -> None:
    """Win = closer − opener + credits − fills + drop (DESIGN §4 "Finance").

    Hi-Lo: drop counted 280.00; win 4,985 − 5,000 + 200 − 500 + 280 = −35.00; hold
    −35 ÷ 280 = −12.50 %. Hold'em: drop 316.00; win 2,200 − 2,500 + 316 = 16.00 (the rake
    4.00 and the verified time charges 12.00, § 637a.17(b)); hold 16 ÷ 316 = 5.063… →
    5.06 %."""
    d = day()
    report = _build("statistical", d.team["finance"], d.day)
    iso = d.day.isoformat()
    assert {k: v for k, v in _rows(report).items() if k[1] != "all tables"} == {
        (iso, d.hilo.name, "five-card-hi-lo"): (28_000, "counted", -3_500, -12.5),
        (iso, d.poker.name, "holdem"): (31_600, "counted", 1_600, 5.06)}


def test_statistical_game_and_property_rows_add_up_the_tables(day) -> None:
    """One table of each game: each game's row is its table's. All games: drop
    280 + 316 = 596.00, win −35 + 16 = −19.00, hold −19 ÷ 596 = −3.187… → −3.19 %; the
    span's totals (one day) are the same."""
    d = day()
    report = _build("statistical", d.team["finance"], d.day)
    iso = d.day.isoformat()
    assert {k: v for k, v in _rows(report, table="all tables").items()} == {
        (iso, "all tables", "five-card-hi-lo"): (28_000, "counted", -3_500, -12.5),
        (iso, "all tables", "holdem"): (31_600, "counted", 1_600, 5.06),
        (iso, "all tables", "all games"): (59_600, "counted", -1_900, -3.19)}
    assert tuple(report.totals[k] for k in FIGURES) == (59_600, "counted", -1_900, -3.19)


def test_an_uncounted_drop_is_the_expected_drop_marked_expected(day) -> None:
    """The Hi-Lo's box removed, not counted: the drop is the chip sales, 300.00,
    "(expected)"; win 4,985 − 5,000 + 200 − 500 + 300 = −15.00 (the round's house win,
    § 579.11(g)(1)); hold −15 ÷ 300 = −5.00 %."""
    d = day(hilo_count="removed")
    report = _build("statistical", d.team["finance"], d.day)
    assert _rows(report, table=d.hilo.name) == {
        (d.day.isoformat(), d.hilo.name, "five-card-hi-lo"): (30_000, "(expected)", -1_500,
                                                              -5.0)}


def test_a_property_row_with_an_expected_part_is_marked_expected(day) -> None:
    """All games: 300 (expected) + 316 = 616.00; win −15 + 16 = 1.00; hold 1 ÷ 616 =
    0.162… → 0.16 %, marked (expected) because one table's drop is."""
    d = day(hilo_count="removed")
    report = _build("statistical", d.team["finance"], d.day)
    assert _rows(report, table="all tables")[(d.day.isoformat(), "all tables",
                                              "all games")] == (61_600, "(expected)", 100,
                                                                0.16)


def test_every_table_row_links_to_the_rounds_and_hands_behind_it(day) -> None:
    d = day()
    report = _build("statistical", d.team["finance"], d.day)
    links = {r["table"]: r.get("behind") for r in report.rows
             if r["period"] == "day" and r["table"] != "all tables"}
    assert links == {d.hilo.name: f"/finance/behind/{d.hilo.pk}/{d.day.isoformat()}/",
                     d.poker.name: f"/finance/behind/{d.poker.pk}/{d.day.isoformat()}/"}


def test_the_chart_plots_the_propertys_hold_by_day(day) -> None:
    """One point for the day: the property's hold, −3.19 % (above); no table outside a
    band."""
    d = day()
    chart = _build("statistical", d.team["finance"], d.day).chart
    assert chart is not None
    assert [(p["label"], p["value"], p["flag"]) for p in chart["points"]] == [
        (d.day.isoformat(), -3.19, False)]


def _page(d: SmallDay, name: str) -> str:
    client = Client()
    verified_login(client, get_user_model().objects.get(pk=d.team["finance"].user_id))
    r = client.get(f"/finance/reports/{name}/?first={d.day.isoformat()}")
    assert r.status_code == 200
    return r.content.decode()


def test_the_page_shows_no_flag_where_no_band_is_defined(day) -> None:
    """A poker table's win is its rake and time charges (§ 637a.17(b)): no band, so its
    flag cell is empty, as are the game and property rows' (they have no band either); a
    red "—" was shown in each. The Hi-Lo table has no Poker Bonus Wager (§ 579.12(d)), so
    no band either."""
    d = day()
    html = _page(d, "statistical")
    flags = re.findall(r'<td class="flag[^"]*">(.*?)</td>', html, re.S)
    assert len(flags) >= 3  # the two tables, their games, the property and the totals
    assert {f.strip() for f in flags} == {""}


def test_the_charts_hold_axis_is_labelled_in_percent(day) -> None:
    """The property's hold for the day is −3.19 % (above); the axis's labels carry "%":
    the top is 0.0 % (the axis always takes in zero) and the bottom −3.2 %."""
    d = day()
    svg = re.search(r"<svg.*?</svg>", _page(d, "statistical"), re.S).group(0)
    labels = re.findall(r'<text x="4"[^>]*>(.*?)</text>', svg)
    assert labels == ["Hold %", "0.0 %", "-3.2 %"]  # the axis's name, then its ticks


def test_a_preliminary_day_without_an_opener_has_one_win_in_both_reports(
        team, open_table, deck_in_play) -> None:
    """Issue 22 (HL-1: "—" on the Master Game Report against $2,980.00 on the statistical
    report): one rule for a preliminary win. A Hi-Lo table plays the § 579.11(g)(1) round
    of tests/finance/_day.py (house win −15.00) with no opening slip, no chip sale, no
    count: the expected drop is 0.00 and the preliminary win the rounds' −15.00 in both
    reports; each says the figures are preliminary."""
    table = open_table("five-card-hi-lo")
    play_hilo_round(team["dealer"], table, deck_in_play(table))
    day = team["finance"].gaming_day()
    stats = _build("statistical", team["finance"], day)
    (row,) = [r for r in stats.rows if r["period"] == "day" and r["table"] == table.name]
    prelim = reports.build("master-game", team["finance"], day, day,
                           {"version": "preliminary"})
    (mg,) = prelim.rows
    assert (row["drop_cents"], row["win_cents"], row["status"]) == (0, -1_500, "(expected)")
    assert (mg["drop_cents"], mg["win_cents"]) == (0, -1_500)
    assert mg["status"] == "no opener: win from the events; expected drop; expected closer"
    assert any(n.startswith("Preliminary:") for n in prelim.notes)
    assert any(n.startswith("Preliminary figures:") for n in stats.notes)
    final = reports.build("master-game", team["finance"], day, day, {})
    assert final.rows[0]["win_cents"] is None  # nothing final yet


def test_a_counted_day_without_a_signed_closer_says_its_win_is_preliminary(day) -> None:
    """§ 579.2(c) (the Hi-Lo's drop box), § 579.11(g)(1) (the round's house win in the
    expected closer). The small day with the Hi-Lo closer left out (and so its box not
    counted) gives "(expected)"; here the Hi-Lo day is counted — 280.00 — but has no closer: its win is
    preliminary, the expected closer 4,985.00 standing in: 4,985 − 5,000 + 200 − 500 +
    280 = −35.00, status "counted, win preliminary". The Master Game Report's preliminary
    version shows the same drop and win (one rule: the counted drop once accepted)."""
    d = day(hilo_closer=False)
    count(d.team, d.hilo, cash={"10000": 2, "2000": 4})
    report = _build("statistical", d.team["finance"], d.day)
    assert _rows(report, table=d.hilo.name) == {
        (d.day.isoformat(), d.hilo.name, "five-card-hi-lo"): (
            28_000, "counted, win preliminary", -3_500, -12.5)}
    prelim = reports.build("master-game", d.team["finance"], d.day, d.day,
                           {"version": "preliminary"})
    (mg,) = [r for r in prelim.rows if r["table"] == d.hilo.name]
    assert (mg["drop_cents"], mg["win_cents"], mg["status"]) == (
        28_000, -3_500, "counted drop; expected closer")


# --- the band -----------------------------------------------------------------------------------

def _quads_against_the_poker_bonus(dealer: Actor, table: GameTable, deck: Any) -> None:
    """Ante 10.00 and Poker Bonus 10.00 at position 1; the player's 9-9-9-9-2 against the
    dealer's J-10-8-6-4. The player plays (Play = Ante, 10.00) and sets 9-9-9 high (27)
    and 9-2 low (11): 27 ≤ 28 and 11 ≥ 10, a loss (§ 579.11(g)(2)): Ante and Play
    collected. Four of a kind on Poker Bonus Paytable A pays 25 to 1 (§ 579.12(d)):
    25 × 10.00 + 10.00 = 260.00 returned. Put up 30.00, returned 260.00, house −230.00;
    on the Poker Bonus alone 10 − 260 = −250.00."""
    rid = rounds.round_open(actor=dealer, table_id=table.pk, deck_id=deck.pk).pk
    for wager in ("ante", "poker_bonus"):
        banked.round_place_wager(actor=dealer, round_id=rid, position=1, wager=wager,
                                 amount=1000)
    banked.round_no_more_bets(actor=dealer, round_id=rid)
    banked.round_deal(actor=dealer, round_id=rid, hands={"1": ["9s", "9d", "9c", "9h", "2d"]},
                      dealer=["Jh", "Tc", "8s", "6d", "4c"])
    banked.round_decide(actor=dealer, round_id=rid, position=1, decision="play")
    banked.round_set_hands(actor=dealer, round_id=rid, position=1, high=["9s", "9d", "9c"],
                           low=["9h", "2d"])
    banked.round_lock_decisions(actor=dealer, round_id=rid)
    banked.round_close_banked(actor=dealer, round_id=rid)


def test_a_banked_day_outside_its_band_is_flagged(team, open_table, deck_in_play) -> None:
    """§ 579.12(d) Paytable A over one Poker Bonus wager of 10.00 (tests/finance/
    test_hold_band.py works it: expected 10 × 196,644 / 2,598,960 = 0.7566 → 0.76; sd
    10 × 1.710793 = 17.11, × 3 = 51.32: band −50.57 to 52.08). The house won −250.00 on
    it (the round above), far below −50.57: flagged. The row shows the band and the win
    it is held against; the table's whole win is −230.00 (no slips: the events' win)."""
    table = open_table("five-card-hi-lo")
    _quads_against_the_poker_bonus(team["dealer"], table, deck_in_play(table))
    finance_ = team["finance"]
    report = _build("statistical", finance_, finance_.gaming_day())
    row = next(r for r in report.rows if r["table"] == table.name)
    assert (row["win_cents"], row["band_win_cents"], row["band_low_cents"],
            row["band_high_cents"], row["outside_band"]) == (-23_000, -25_000, -5_057,
                                                             5_208, True)
    assert report.chart["points"][0]["flag"] is True
    assert any("outside the band" in n for n in report.notes)


def test_a_banked_day_inside_its_band_is_not_flagged(team, open_table, deck_in_play
                                                     ) -> None:
    """The same Poker Bonus wager lost (tests/finance/test_hold_band.py: K-Q-9-3-2 has no
    pair; the house keeps 10.00, inside −50.57 to 52.08)."""
    table = open_table("five-card-hi-lo")
    deck = deck_in_play(table)
    d = team["dealer"]
    rid = rounds.round_open(actor=d, table_id=table.pk, deck_id=deck.pk).pk
    for wager in ("ante", "poker_bonus"):
        banked.round_place_wager(actor=d, round_id=rid, position=1, wager=wager, amount=1000)
    banked.round_no_more_bets(actor=d, round_id=rid)
    banked.round_deal(actor=d, round_id=rid, hands={"1": ["Ks", "Qd", "9c", "3h", "2d"]},
                      dealer=["Jh", "Tc", "8s", "6d", "4c"])
    banked.round_decide(actor=d, round_id=rid, position=1, decision="play")
    banked.round_set_hands(actor=d, round_id=rid, position=1, high=["Ks", "Qd", "9c"],
                           low=["3h", "2d"])
    banked.round_lock_decisions(actor=d, round_id=rid)
    banked.round_close_banked(actor=d, round_id=rid)
    report = _build("statistical", team["finance"], team["finance"].gaming_day())
    row = next(r for r in report.rows if r["table"] == table.name)
    assert (row["band_win_cents"], row["outside_band"]) == (1_000, False)


def test_the_rooms_bands_read_at_once_are_each_tables_own(team, open_table, deck_in_play
                                                          ) -> None:
    """The report reads the bands of the whole room at once (``day_bands``); each is what
    ``finance.hold_band.table_day_band`` answers for its table alone: outside (the quads
    above), and None for a banked table with no round that day."""
    hit, idle = open_table("five-card-hi-lo"), open_table("five-card-hi-lo")
    _quads_against_the_poker_bonus(team["dealer"], hit, deck_in_play(hit))
    today = team["dealer"].gaming_day()
    rows = {str(t.pk): t for t in (hit, idle)}
    assert day_bands(hit.property, rows, today) == {
        str(hit.pk): table_day_band(hit, today), str(idle.pk): None}
    assert day_bands(hit.property, rows, today)[str(hit.pk)]["outside"] is True


def test_a_poker_table_has_no_band_and_the_notes_say_why(day) -> None:
    """§ 637a.17(b): a poker table's win is the rake and time charges; the house banks no
    wager, so no band. The small day's Hi-Lo round has no wager with exact figures (Ante,
    Tie, Play): no band either, and the notes say so."""
    d = day()
    report = _build("statistical", d.team["finance"], d.day)
    flags = {r["table"]: (r["band_low_cents"], r["outside_band"]) for r in report.rows
             if r["period"] == "day" and r["table"] != "all tables"}
    assert flags == {d.hilo.name: (None, None), d.poker.name: (None, None)}
    assert any(n.startswith("Poker tables: no band") for n in report.notes)
    assert any("no wager with exact figures" in n for n in report.notes)


# --- month and year to date, the close ----------------------------------------------------------

def _yesterday_at_hilo(team: dict[str, Actor], table: GameTable, *, count: bool) -> date:
    """Yesterday at the Hi-Lo table: opener 200 × $25 = 5,000.00, closer 201 × $25 =
    5,025.00, both through the services for yesterday's gaming day. The banked result,
    house win 25.00 (put up 100.00, returned 75.00, one round), is a ``TableResult`` row
    inserted directly: no service records a round on an earlier gaming day (a round's
    result counts on the day its close is recorded). Expected closer 5,000 + 25 = 5,025.00:
    no tray variance. With ``count``, the empty box (no chips were sold) is counted: 0.00.
    """
    dealer, floor = team["dealer"], team["floor"]
    yesterday = dealer.gaming_day() - timedelta(days=1)
    for slip, pieces in (("opener", {"2500": 200}), ("closer", {"2500": 201})):
        finance.inventory_record(actor=dealer, table_id=table.pk, slip=slip, pieces=pieces,
                                 gaming_day=yesterday)
        finance.inventory_sign(actor=floor, table_id=table.pk, slip=slip,
                               gaming_day=yesterday)
    TableResult.objects.create(property_id=table.property_id, table=table,
                               gaming_day=yesterday, wager=TableResult.ALL, wagered=10_000,
                               returned=7_500, house_win=2_500, rounds=1)
    if count:
        finance.drop_remove(actor=team["runner"], table_id=table.pk, gaming_day=yesterday)
        finance.drop_count(actor=team["counter"], table_id=table.pk, gaming_day=yesterday)
        finance.drop_count_sign(actor=team["counter2"], table_id=table.pk,
                                gaming_day=yesterday)
        finance.drop_accept(actor=team["cashier"], table_id=table.pk, gaming_day=yesterday)
    return yesterday


def test_month_and_year_to_date_add_up_two_days(day) -> None:
    """Yesterday at the Hi-Lo (above): drop 0.00 counted, win 5,025 − 5,000 + 0 = 25.00,
    no hold (no drop). Today (the small day): Hi-Lo drop 280.00, win −35.00; Hold'em drop
    316.00, win 16.00.

    As of today, when yesterday is in the same month (and year):
    Hi-Lo: drop 0 + 280 = 280.00, win 25 − 35 = −10.00, hold −10 ÷ 280 = −3.571… →
    −3.57 %; Hold'em 316.00, 16.00, 5.06 %; all games: drop 596.00, win −10 + 16 = 6.00,
    hold 6 ÷ 596 = 1.006… → 1.01 %. On the first of a month (or year) the period starts
    today: the small day's own figures (−12.50 %, 5.06 %, −3.19 %)."""
    d = day()
    yesterday = _yesterday_at_hilo(d.team, d.hilo, count=True)
    report = _build("statistical", d.team["finance"], d.day)
    iso = d.day.isoformat()
    two_days = {(iso, d.hilo.name, "five-card-hi-lo"): (28_000, "counted", -1_000, -3.57),
                (iso, d.poker.name, "holdem"): (31_600, "counted", 1_600, 5.06),
                (iso, "all tables", "five-card-hi-lo"): (28_000, "counted", -1_000, -3.57),
                (iso, "all tables", "holdem"): (31_600, "counted", 1_600, 5.06),
                (iso, "all tables", "all games"): (59_600, "counted", 600, 1.01)}
    today_only = {(iso, d.hilo.name, "five-card-hi-lo"): (28_000, "counted", -3_500, -12.5),
                  (iso, d.poker.name, "holdem"): (31_600, "counted", 1_600, 5.06),
                  (iso, "all tables", "five-card-hi-lo"): (28_000, "counted", -3_500,
                                                           -12.5),
                  (iso, "all tables", "holdem"): (31_600, "counted", 1_600, 5.06),
                  (iso, "all tables", "all games"): (59_600, "counted", -1_900, -3.19)}
    same_month = yesterday.month == d.day.month
    same_year = yesterday.year == d.day.year
    assert _rows(report, "month to date") == (two_days if same_month else today_only)
    assert _rows(report, "year to date") == (two_days if same_year else today_only)


def test_the_span_of_two_days_has_a_row_and_a_point_for_each(day) -> None:
    """Yesterday: Hi-Lo drop 0.00 counted, win 25.00, no hold; today −3.19 % (above). The
    span's totals: drop 596.00, win 25 − 19 = 6.00, hold 1.01 %."""
    d = day()
    yesterday = _yesterday_at_hilo(d.team, d.hilo, count=True)
    report = _build("statistical", d.team["finance"], yesterday, d.day)
    assert _rows(report, table=d.hilo.name)[(yesterday.isoformat(), d.hilo.name,
                                             "five-card-hi-lo")] == (0, "counted", 2_500,
                                                                     None)
    assert [(p["label"], p["value"]) for p in report.chart["points"]] == [
        (yesterday.isoformat(), None), (d.day.isoformat(), -3.19)]
    assert tuple(report.totals[k] for k in FIGURES) == (59_600, "counted", 600, 1.01)


def test_a_closed_day_shows_the_figures_its_close_froze(team, open_table) -> None:
    """Yesterday closed by finance with its box not counted (the open item listed): the
    close froze drop 0.00 expected and win 5,025 − 5,000 + 0 = 25.00. A count accepted
    after the close (5 × $20 = 100.00) is an adjustment: the report still shows what the
    close froze."""
    table = open_table("five-card-hi-lo")
    yesterday = _yesterday_at_hilo(team, table, count=False)
    finance.gaming_day_close(actor=team["finance"], gaming_day=yesterday,
                             with_open_items=True)
    _late_count(team, table, yesterday, {"2000": 5})
    report = _build("statistical", team["finance"], yesterday)
    assert _rows(report, table=table.name) == {
        (yesterday.isoformat(), table.name, "five-card-hi-lo"): (0, "(expected)", 2_500,
                                                                 None)}


def _late_count(team: dict[str, Actor], table: GameTable, day: date,
                cash: dict[str, int]) -> None:
    finance.drop_remove(actor=team["runner"], table_id=table.pk, gaming_day=day)
    finance.drop_count(actor=team["counter"], table_id=table.pk, cash=cash, gaming_day=day)
    finance.drop_count_sign(actor=team["counter2"], table_id=table.pk, gaming_day=day)
    finance.drop_accept(actor=team["cashier"], table_id=table.pk, gaming_day=day)


# --- the variance and exception report ----------------------------------------------------------

def _short_tray_yesterday(team: dict[str, Actor], table: GameTable) -> date:
    """Yesterday: opener 200 × $25 = 5,000.00, closer 199 × $25 + 3 × $5 = 4,990.00, no
    round, no chips sold, the empty box counted (0.00 = expected). Expected closer
    5,000.00: the tray is 10.00 short. The close finds one exception: tray, expected
    5,000.00, counted 4,990.00, variance −10.00."""
    dealer, floor = team["dealer"], team["floor"]
    yesterday = dealer.gaming_day() - timedelta(days=1)
    for slip, pieces in (("opener", {"2500": 200}), ("closer", {"2500": 199, "500": 3})):
        finance.inventory_record(actor=dealer, table_id=table.pk, slip=slip, pieces=pieces,
                                 gaming_day=yesterday)
        finance.inventory_sign(actor=floor, table_id=table.pk, slip=slip,
                               gaming_day=yesterday)
    finance.drop_remove(actor=team["runner"], table_id=table.pk, gaming_day=yesterday)
    finance.drop_count(actor=team["counter"], table_id=table.pk, gaming_day=yesterday)
    finance.drop_count_sign(actor=team["counter2"], table_id=table.pk, gaming_day=yesterday)
    finance.drop_accept(actor=team["cashier"], table_id=table.pk, gaming_day=yesterday)
    finance.gaming_day_close(actor=team["finance"], gaming_day=yesterday)
    return yesterday


EXCEPTION_KEYS = ("kind", "day", "table", "figure", "expected_cents", "counted_cents",
                  "variance_cents", "state", "explanation", "explained_by", "signed_off_by",
                  "after_close")


def test_a_tray_shortage_is_listed_open_after_the_close(team, open_table) -> None:
    """The tray 10.00 short (above): one open exception, with the rounds behind it."""
    table = open_table("five-card-hi-lo")
    yesterday = _short_tray_yesterday(team, table)
    report = _build("exceptions", team["finance"], yesterday)
    assert [tuple(r[k] for k in EXCEPTION_KEYS) for r in report.rows] == [
        ("finance", yesterday.isoformat(), table.name, "tray", 500_000, 499_000, -1_000,
         "open", "", "", "", "")]
    assert report.rows[0]["behind"] == f"/finance/behind/{table.pk}/{yesterday.isoformat()}/"
    assert (report.totals["variance_cents"], report.totals["state"]) == (-1_000, "1 open")


def test_an_explained_and_signed_off_exception_names_both_people(team, open_table) -> None:
    """Finance explains; compliance (a second person) signs off; both with their time."""
    table = open_table("five-card-hi-lo")
    yesterday = _short_tray_yesterday(team, table)
    exception_id = selectors.exceptions(team["finance"], yesterday, yesterday)[0].exception_id
    finance.variance_explain(actor=team["finance"], exception_id=exception_id,
                             explanation="a $10 chip paid in error, seen on camera")
    finance.variance_sign_off(actor=team["auditor"], exception_id=exception_id)
    row = _build("exceptions", team["finance"], yesterday).rows[0]
    assert (row["state"], row["explanation"], row["explained_by"], row["signed_off_by"]) == (
        "signed_off", "a $10 chip paid in error, seen on camera", team["finance"].username,
        team["auditor"].username)
    assert row["explained_at"] and row["signed_off_at"]


def test_a_variance_found_after_the_close_is_flagged(team, open_table) -> None:
    """Yesterday closed with its box not counted; the count comes in after: 5 × $20 =
    100.00 against an expected drop of 0.00 (no chips sold): a drop variance of +100.00
    recorded after the close."""
    table = open_table("five-card-hi-lo")
    yesterday = _yesterday_at_hilo(team, table, count=False)
    finance.gaming_day_close(actor=team["finance"], gaming_day=yesterday,
                             with_open_items=True)
    _late_count(team, table, yesterday, {"2000": 5})
    report = _build("exceptions", team["finance"], yesterday)
    assert [tuple(r[k] for k in EXCEPTION_KEYS) for r in report.rows] == [
        ("finance", yesterday.isoformat(), table.name, "drop", 0, 10_000, 10_000, "open",
         "", "", "", "after the close")]


def test_exceptions_of_other_days_are_left_out(team, open_table) -> None:
    table = open_table("five-card-hi-lo")
    yesterday = _short_tray_yesterday(team, table)
    today = yesterday + timedelta(days=1)
    report = _build("exceptions", team["finance"], today)
    assert (report.rows, report.totals) == ([], None)


def test_a_jackpot_box_count_variance_is_listed_with_its_explanation(day) -> None:
    """§ 637a.15(e): the small day put 2 × $1.00 in the Hold'em table's Bad Beat box; the
    cashier counts 1.90 at the cage: variance 1.90 − 2.00 = −0.10, explained by finance.
    """
    d = day()
    team = d.team
    c = bad_beat_box_counted_at_cage(team, d.poker, counted_cents=190)
    counts.variance_explain(actor=team["finance"], fund="bad-beat", count_id=c,
                            explanation="a dime short, found under the box")
    report = _build("exceptions", team["finance"], d.day)
    rows = [tuple(r[k] for k in EXCEPTION_KEYS) for r in report.rows
            if r["kind"] == "jackpot box"]
    assert rows == [("jackpot box", d.day.isoformat(), d.poker.name,
                     "bad-beat payout boxes (cage count)", 200, 190, -10, "explained",
                     "a dime short, found under the box", team["finance"].username, "",
                     "")]


# --- the page and the CSV ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["statistical", "exceptions"])
def test_the_csv_header_is_the_reports_columns_in_words(day, api_as: Callable,
                                                         name: str) -> None:
    """Issue 22: a CSV meant for people heads each column with its words and, for money,
    the unit ("Drop ($)"); never a column key."""
    d = day()
    r = api_as("finance").get(f"/api/v1/finance/reports/{name}/?first={d.day}&as=csv")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    header = next(csv.reader(io.StringIO(r.content.decode())))
    assert header == CSV_HEADERS[name]


def test_the_statistical_page_draws_the_chart(day) -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    d = day()
    client = Client()
    verified_login(client, get_user_model().objects.get(pk=d.team["auditor"].user_id))
    html = client.get(f"/finance/reports/statistical/?first={d.day}").content.decode()
    assert "<svg" in html and "Hold % by gaming day" in html and "-$35.00" in html
