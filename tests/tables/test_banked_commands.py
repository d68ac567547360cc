"""The banked-game management commands run for real: ``settle_round`` (the dispute
calculator, no database), ``simulate_banked`` (rounds through the services, events
appended, deck control kept) and ``bench_banked``."""

from __future__ import annotations

import io
import itertools
import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

SCRIPTS = Path(__file__).parent / "banked" / "scripts"
FIXTURES = sorted(SCRIPTS.glob("*.json"))
ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, **kw: object) -> dict:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO(), **kw)
    return json.loads(out.getvalue())


# --- settle_round -------------------------------------------------------------------------

@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_settle_round_reproduces_the_hand_worked_fixture(path: Path) -> None:
    """§ 589.12, § 671a.12, § 579.12: each fixture's amounts were worked out by hand."""
    expected = json.loads(path.read_text())["expected"]
    result = run("settle_round", str(path))
    assert result["returned_by_position_cents"] == expected["returned"]
    assert result["house_win_cents"] == expected["house_win_cents"]
    assert result["expected_agrees"] is True
    assert all(line["why"] for line in result["lines"] if line["outcome"] != "open")


def test_settle_round_reads_stdin_and_says_why_with_the_subsection() -> None:
    """§ 589.11(d)(2)(iv): the folded Ante line names the subsection it is settled under."""
    text = (SCRIPTS / "lunar589_draw_then_fold.json").read_text()
    result = run("settle_round", "-", stdin=io.StringIO(text))
    ante = next(ln for ln in result["lines"] if ln["wager"] == "ante")
    assert "589.11(d)(2)(iv)" in ante["why"]
    assert result["house_win_cents"] == result["wagered_cents"] - result["returned_cents"]


def test_settle_round_refuses_bad_json_naming_the_code() -> None:
    with pytest.raises(CommandError, match=r"^invalid_json: stdin line 1 column"):
        run("settle_round", "-", stdin=io.StringIO('{"game": '))


def test_settle_round_refuses_a_script_with_a_card_twice() -> None:
    """§ 589.3(a): one deck; a card cannot be in two hands."""
    script = json.loads((SCRIPTS / "lunar589_fold_and_player_loses.json").read_text())
    script["dealer"]["cards"][0] = script["positions"][0]["cards"][0]
    with pytest.raises(CommandError) as err:
        run("settle_round", "-", stdin=io.StringIO(json.dumps(script)))
    code = str(err.value).split(":")[0]
    assert code and " " not in code and "\n" not in str(err.value)


def test_settle_round_refuses_a_script_that_is_not_a_round() -> None:
    with pytest.raises(CommandError, match=r"^invalid_script: "):
        run("settle_round", "-", stdin=io.StringIO("[1, 2]"))


def test_settle_round_process_exits_1_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "lunar-poker-589", "positions": "x", "dealer": {}}')
    proc = subprocess.run([sys.executable, "manage.py", "settle_round", str(bad)], cwd=ROOT,
                          capture_output=True, text=True, env=os.environ.copy(), timeout=120,
                          check=False)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "invalid_script: script.positions must be a list" in lines[0]
    assert proc.stdout == ""


# --- simulate_banked ------------------------------------------------------------------------

def _closed_totals(crew: dict, table: object) -> list[dict]:
    """The RoundClosed totals of each round at ``table`` as the domain rebuilds them."""
    from tables.models import Round
    from tables.services import banked

    return [banked.round_state(actor=crew["floor"], round_id=r.pk).state.totals
            for r in Round.objects.filter(table=table)]


@pytest.mark.django_db
def test_simulate_banked_appends_events_and_conserves_money(crew, open_table,
                                                           deck_in_play) -> None:
    """§ 589.11(g): the deck is counted after 5 rounds; every cent wagered is returned or
    won by the house, round by round and in the report."""
    from casino.eventstore.models import Event
    from tables.models import DeckStep, GameTable

    table = open_table("lunar-poker-589", dealing_method="manual-shoe", shuffler="none")
    deck_in_play(table, shuffle="manual")
    before = Event.objects.count()
    report = run("simulate_banked", "--table", table.name, "--rounds", "7", "--seed", "5",
                 "--positions", "3", "--no-theory", "--no-progress")
    assert report["rounds"] == 7 and report["events_appended"] == Event.objects.count() - before
    assert report["events_appended"] > 7 * 10
    assert GameTable.objects.get(pk=table.pk).rounds_played == 7
    assert report["decks"]["counted"] == 1
    assert DeckStep.objects.filter(deck__table=table, step="counted").count() == 1
    totals = _closed_totals(crew, table)
    assert len(totals) == 7
    for t in totals:
        assert t["wagered"] == t["returned"] + t["house_win"]
    total = report["total"]
    assert total["wagered_cents"] == sum(t["wagered"] for t in totals)
    assert total["house_win_cents"] == sum(t["house_win"] for t in totals)
    per = report["wagers"]
    assert sum(w["wagered_cents"] for w in per.values()) == total["wagered_cents"]
    assert sum(w["returned_cents"] for w in per.values()) == total["returned_cents"]


@pytest.mark.regulation("579.3(b)", "579.3(c)")
@pytest.mark.django_db
def test_simulate_banked_alternates_decks_and_replaces_an_overdue_one(crew, open_table,
                                                                     deck_in_play) -> None:
    """§ 579.3(b): two decks alternate with an automated shuffler; § 579.3(c): a deck past
    its time limit is replaced before it deals again."""
    from tables.models import Deck, DeckState, Round

    table = open_table("five-card-hi-lo")
    a = deck_in_play(table)
    deck_in_play(table, colour="blue")
    Deck.objects.filter(pk=a.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    report = run("simulate_banked", "--table", table.name, "--rounds", "4",
                 "--positions", "2", "--no-theory", "--no-progress")
    assert report["decks"]["replaced_time_limit"] == 1
    assert Deck.objects.get(pk=a.pk).state == DeckState.REMOVED
    dealt = [r.deck_id for r in Round.objects.filter(table=table).order_by("number")]
    assert a.pk not in dealt
    assert all(x != y for x, y in itertools.pairwise(dealt))
    assert report["wagers"]["play"]["wagered_cents"] > 0


@pytest.mark.django_db
def test_simulate_banked_reports_theory_next_to_the_hold(crew, open_table,
                                                        deck_in_play) -> None:
    """§ 671a.12(b): the Super Wager's exact house edge from paytable_report."""
    table = open_table("lunar-poker-671a", shuffler="automated-counting")
    deck_in_play(table)
    report = run("simulate_banked", "--table", table.name, "--rounds", "2",
                 "--no-progress")
    theory = report["wagers"]["super"]["theory"]
    assert (theory["paytable"], theory["kind"]) == ("671a-super", "exact")
    lo, hi = report["wagers"]["super"]["ci95"]
    assert lo <= report["wagers"]["super"]["hold"] <= hi
    assert report["combined"]["ante+bet"]["theory"]["kind"] == "simulated"


@pytest.mark.django_db
def test_simulate_banked_names_an_unknown_table() -> None:
    with pytest.raises(CommandError, match=r"^table_not_found: "):
        run("simulate_banked", "--table", "NOPE-1", "--rounds", "1")


@pytest.mark.django_db
def test_simulate_banked_refuses_a_poker_table(crew, open_table) -> None:
    table = open_table("holdem")
    with pytest.raises(CommandError, match=r"^not_a_banked_table: "):
        run("simulate_banked", "--table", table.name, "--rounds", "1", "--no-progress")


# --- bench_banked ---------------------------------------------------------------------------

@pytest.mark.django_db
def test_bench_banked_reports_pure_and_service_rates(crew, open_table, deck_in_play) -> None:
    table = open_table("lunar-poker-671a", shuffler="automated-counting")
    deck_in_play(table)
    report = run("bench_banked", "--rounds", "30", "--service-rounds", "2", "--table",
                 table.name, "--no-progress")
    games = {row["game"]: row for row in report["pure_domain"]}
    assert set(games) == {"lunar-poker-589", "lunar-poker-671a", "five-card-hi-lo"}
    for row in games.values():
        assert row["rounds_per_second"] > 0 and row["peer_rounds_per_second"] > 0
        assert row["peer"] == "settle_script replay"
    services = report["services"]
    assert services["database"].split()[0] in ("PostgreSQL", "SQLite")
    assert services["tables"][0]["rounds_per_second"] > 0
