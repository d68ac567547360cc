"""The Master Game Report, the poker revenue report and the jackpot fund report, checked
against the small day of :mod:`tests.finance._day` (a Five Card Hi-Lo table whose drop
box is $20.00 short, a Hold'em table with rake and time charges, the two jackpot funds),
every expected figure worked by hand in the docstrings.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client

from casino.actors import actor_of
from finance import reports
from finance import services as finance
from finance.services.close import _close
from tests.finance._day import SmallDay, small_day
from tests.tables import conftest as _tables

pytestmark = pytest.mark.django_db
# the tables app's deck fixtures (tests/finance/conftest.py shares the others)
ready_deck = _tables.ready_deck
deck_in_play = _tables.deck_in_play

#: the Master Game Report's figures a test compares (the rest: labels and links)
FIGURES = ("opener_cents", "closer_cents", "fills_cents", "credits_cents", "drop_cents",
           "win_cents", "hold_percent", "rake_cents", "time_charges_cents", "status")


@pytest.fixture
def day(team, open_table, deck_in_play, poker_table, as_actor) -> Callable[..., SmallDay]:
    """``day(**options)``: the small day of :func:`tests.finance._day.small_day`."""
    def make(**options: Any) -> SmallDay:
        return small_day(team, open_table=open_table, deck_in_play=deck_in_play,
                         poker_table=poker_table, as_actor=as_actor, **options)
    return make


def _report(d: SmallDay, name: str, **params: str) -> reports.Report:
    return reports.build(name, d.team["finance"], d.day, d.day, params)


def _figures(row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(row[k] for k in FIGURES)


# --- the Master Game Report ---------------------------------------------------------------

def test_master_game_final_rows_are_the_signed_closer_and_the_counted_drop(day) -> None:
    """Win = closer − opener + credits − fills + drop (DESIGN §4 "Finance").

    Hi-Lo: 4,985.00 − 5,000.00 + 200.00 − 500.00 + 280.00 (counted) = −35.00; hold
    −35 ÷ 280 = −12.50 %; no rake at a banked table.
    Hold'em: 2,200.00 − 2,500.00 + 0 − 0 + 316.00 = 16.00 = the rake 4.00 + the verified
    time charges 12.00 (§ 637a.17(b)(1), (b)(3)(v)); hold 16 ÷ 316 = 5.063… → 5.06 %.
    """
    d = day()
    report = _report(d, "master-game")
    assert report.version == "final"
    assert [(r["table"], r["game"], r["gaming_day"]) for r in report.rows] == [
        (d.hilo.name, "five-card-hi-lo", d.day.isoformat()),
        (d.poker.name, "holdem", d.day.isoformat())]
    hilo, poker = report.rows
    assert _figures(hilo) == (500_000, 498_500, 50_000, 20_000, 28_000, -3_500, -12.5,
                              None, None, "counted")
    assert _figures(poker) == (250_000, 220_000, 0, 0, 31_600, 1_600, 5.06, 400, 1_200,
                               "counted")


def test_master_game_totals_add_the_tables(day) -> None:
    """Opener 5,000 + 2,500 = 7,500.00; closer 4,985 + 2,200 = 7,185.00; fills 500.00;
    credits 200.00; drop 280 + 316 = 596.00; win −35 + 16 = −19.00; hold −19 ÷ 596 =
    −3.187… → −3.19 %; rake 4.00; time charges 12.00."""
    d = day()
    totals = _report(d, "master-game").totals
    assert totals is not None
    assert (totals["table"], totals["opener_cents"], totals["closer_cents"],
            totals["fills_cents"], totals["credits_cents"], totals["drop_cents"],
            totals["win_cents"], totals["hold_percent"], totals["rake_cents"],
            totals["time_charges_cents"]) == ("Total", 750_000, 718_500, 50_000, 20_000,
                                              59_600, -1_900, -3.19, 400, 1_200)


def test_once_the_count_is_accepted_the_preliminary_drop_is_the_counted_one(day) -> None:
    """One rule for a preliminary row (finance.domain.reconcile.preliminary_row): the
    counted drop once the count is accepted. The Hi-Lo's box counted 280.00 against the
    300.00 of chip sales expected, its closer signed: both versions show drop 280.00, win
    4,985 − 5,000 + 200 − 500 + 280 = −35.00, hold −35 ÷ 280 = −12.50 %. At the Hold'em
    table the count matched: 316.00 in both."""
    d = day()
    final = _report(d, "master-game", version="final")
    prelim = _report(d, "master-game", version="preliminary")
    assert prelim.version == "preliminary"
    assert [(r["drop_cents"], r["win_cents"], r["hold_percent"]) for r in prelim.rows] == [
        (28_000, -3_500, -12.5), (31_600, 1_600, 5.06)]
    assert [(r["drop_cents"], r["win_cents"], r["hold_percent"]) for r in final.rows] == [
        (28_000, -3_500, -12.5), (31_600, 1_600, 5.06)]
    assert prelim.rows[0]["status"] == "counted drop"


def test_before_the_count_the_final_report_leaves_the_drop_blank_and_says_so(day) -> None:
    """The Hi-Lo's closer not recorded, its box not removed. Final: closer, drop, win and
    hold blank, "closer not signed; not counted". Preliminary: the expected closer
    5,000 + 500 − 200 − 300 − 15 = 4,985.00, the expected drop 300.00, win
    4,985 − 5,000 + 200 − 500 + 300 = −15.00, hold −5.00 %."""
    d = day(hilo_closer=False)
    final = _report(d, "master-game")
    prelim = _report(d, "master-game", version="preliminary")
    assert _figures(final.rows[0]) == (500_000, None, 50_000, 20_000, None, None, None,
                                       None, None, "closer not signed; not counted")
    assert _figures(prelim.rows[0]) == (500_000, 498_500, 50_000, 20_000, 30_000, -1_500,
                                        -5.0, None, None, "expected drop; expected closer")
    # the total hold is over the rows with a win and a drop: the Hold'em's alone
    assert (final.totals["win_cents"], final.totals["hold_percent"]) == (1_600, 5.06)


def test_a_count_signed_but_not_accepted_says_so(day) -> None:
    d = day(hilo_count="signed")
    assert _report(d, "master-game").rows[0]["status"] == "count not accepted"


def test_a_closed_day_shows_the_frozen_figures_and_the_count_after_it_as_adjustment(
        day) -> None:
    """The day is closed (with its open items: the Hi-Lo count signed, not accepted) and
    then the cashier accepts the count, $280.00. The close froze the Hi-Lo with no drop
    and no win, "not counted at the close"; the adjustment since: drop counted — →
    $280.00, and the win from nothing to 4,985 − 5,000 + 200 − 500 + 280 = −35.00. The
    Hold'em table, counted before the close, is unchanged (adjustment 0)."""
    d = day(hilo_count="signed")
    # The close refuses the current gaming day (it has not ended); the test is about the
    # report, not the close's timing, so it closes today through the close's own step.
    with transaction.atomic():
        _close(d.team["finance"], d.day, with_open_items=True, role="finance")
    finance.drop_accept(actor=d.team["cashier"], table_id=d.hilo.pk)
    report = _report(d, "master-game")
    hilo, poker = report.rows
    assert (hilo["drop_cents"], hilo["win_cents"], hilo["status"]) == (
        None, None, "not counted at the close")
    assert (hilo["adjustment_win_cents"], hilo["adjustments"]) == (
        -3_500, "drop counted — → $280.00")
    assert (poker["win_cents"], poker["adjustment_win_cents"], poker["adjustments"]) == (
        1_600, 0, "")
    assert report.totals["adjustment_win_cents"] == -3_500
    assert any("closed" in n for n in report.notes)


def test_each_row_links_to_the_rounds_and_hands_behind_it(day) -> None:
    d = day()
    rows = _report(d, "master-game").rows
    assert [r["behind"] for r in rows] == [
        f"/finance/behind/{d.hilo.pk}/{d.day.isoformat()}/",
        f"/finance/behind/{d.poker.pk}/{d.day.isoformat()}/"]


def test_master_game_csv_has_the_header_and_the_rows(day, api_as) -> None:
    """The CSV a person reads (issue 22): headers in words with the unit, money in
    dollars to the cent: the Hi-Lo row $5,000.00 opener … −$35.00 win, −12.5 %."""
    d = day()
    r = api_as("finance").get(
        f"/api/v1/finance/reports/master-game/?first={d.day.isoformat()}&as=csv")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    lines = r.content.decode().splitlines()
    # text quoted, figures bare: a negative win is a number (issue 35: no cell a formula)
    assert lines[0] == (
        '"Table","Game","Gaming day","Opener ($)","Closer ($)","Fills ($)","Credits ($)",'
        '"Drop ($)","Win ($)","Hold %","Rake (percentage + incremental) ($)",'
        '"Time charges ($)","Status","Adjustment to win since the close ($)",'
        '"Adjustments since the close"')
    assert lines[1] == (f'"{d.hilo.name}","five-card-hi-lo","{d.day.isoformat()}",5000.00,'
                        '4985.00,500.00,200.00,280.00,-35.00,-12.50,"","","counted","",""')
    assert lines[2] == (f'"{d.poker.name}","holdem","{d.day.isoformat()}",2500.00,2200.00,'
                        '0.00,0.00,316.00,16.00,5.06,4.00,12.00,"counted","",""')
    assert lines[3].startswith('"Total","","",7500.00,7185.00,500.00,200.00,596.00,'
                               "-19.00,-3.19,4.00,12.00")
    assert len(lines) == 4


def test_master_game_page_shows_dollars_to_a_finance_login(day) -> None:
    d = day()
    client = Client()
    client.force_login(get_user_model().objects.get(pk=d.team["finance"].user_id))
    r = client.get(f"/finance/reports/master-game/?first={d.day.isoformat()}")
    assert r.status_code == 200
    html = r.content.decode()
    assert "Master Game Report" in html
    for shown in ("$5,000.00", "$4,985.00", "$280.00", "-$35.00", "-12.50 %", "$316.00",
                  "$16.00", "-$19.00", "/finance/behind/"):
        assert shown in html, shown


def test_a_dealer_is_refused_the_reports(api_as) -> None:
    r = api_as("dealer").get("/api/v1/finance/reports/master-game/")
    assert r.status_code == 403


def test_an_unknown_version_is_refused_with_its_code(api_as) -> None:
    r = api_as("finance").get("/api/v1/finance/reports/master-game/?version=draft")
    assert (r.status_code, r.json()["code"]) == (400, "invalid_version")


def test_another_property_sees_none_of_the_day(day, make_staff) -> None:
    """Every read is the caller's property: a finance login of another property gets
    empty reports for the same day."""
    from casino.services import property_register

    d = day()
    other = property_register(licence_number="PA-TEST-2", name="Other", system="test")
    outsider = actor_of(make_staff("finance", property=other))
    for name in ("master-game", "poker-revenue", "jackpot-funds"):
        assert reports.build(name, outsider, d.day, d.day).rows == [], name


# --- the poker revenue report ---------------------------------------------------------------

def test_poker_revenue_by_type_637a_17(day) -> None:
    """§ 637a.17(b)(1): two hands, $2.00 of percentage rake each = 4.00; no incremental
    rake; (b)(3): two periods of $12.00, one verified (revenue, (v)) and one pending
    ((iv)). Revenue 4.00 + 0 + 12.00 = 16.00, the pending 12.00 apart."""
    d = day()
    report = _report(d, "poker-revenue")
    assert [{k: v for k, v in r.items() if k != "behind"} for r in report.rows] == [{
        "table": d.poker.name, "game": "holdem", "gaming_day": d.day.isoformat(),
        "hands": 2, "percentage_rake_cents": 400, "incremental_rake_cents": 0,
        "time_charges_cents": 1_200, "revenue_cents": 1_600,
        "time_charges_pending_cents": 1_200}]
    assert report.rows[0]["behind"] == f"/finance/behind/{d.poker.pk}/{d.day.isoformat()}/"
    assert report.totals["revenue_cents"] == 1_600 and report.totals["hands"] == 2


# --- the jackpot fund report ----------------------------------------------------------------

def test_jackpot_funds_day_by_fund_with_the_display_at_each_days_end(day) -> None:
    """Yesterday and today. Yesterday: nothing in either fund, nothing displayed. Today:
    opening 0, contributions 2 hands × $1.00 = 2.00 (§ 637a.15(c), § 637a.16(c)), no
    count, payout or transfer, closing 2.00, one table; the Bad Beat display adjusted to
    2.00 today (§ 637a.15(h)), the High Hand display never adjusted (blank). Totals:
    contributions 4.00, opening 0, closing 4.00."""
    d = day()
    yesterday = d.day - timedelta(days=1)
    report = reports.build("jackpot-funds", d.team["finance"], yesterday, d.day)
    keys = ("fund", "gaming_day", "opening_cents", "contributions_cents", "counted_cents",
            "payouts_cents", "transfers_in_cents", "transfers_out_cents", "closing_cents",
            "displayed_cents", "tables")
    y, t = yesterday.isoformat(), d.day.isoformat()
    assert [tuple(r[k] for k in keys) for r in report.rows] == [
        ("bad-beat", y, 0, 0, 0, 0, 0, 0, 0, None, 0),
        ("bad-beat", t, 0, 200, 0, 0, 0, 0, 200, 200, 1),
        ("high-hand", y, 0, 0, 0, 0, 0, 0, 0, None, 0),
        ("high-hand", t, 0, 200, 0, 0, 0, 0, 200, None, 1)]
    assert report.rows[0]["kind"] == "Bad Beat payout (637a.15)"
    totals = report.totals
    assert (totals["opening_cents"], totals["contributions_cents"],
            totals["closing_cents"]) == (0, 400, 400)
