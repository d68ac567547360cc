"""``evaluate_hands`` and ``bench_hands`` management commands (no database)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def run(lines: list[str], *args: str) -> tuple[list[dict], CommandError | None]:
    out = io.StringIO()
    err = None
    try:
        call_command("evaluate_hands", *args, stdin=io.StringIO("\n".join(lines) + "\n"),
                     stdout=out)
    except CommandError as exc:
        err = exc
    return [json.loads(line) for line in out.getvalue().splitlines()], err


def test_evaluates_each_line():
    """§ 637a.12(k) Omaha and § 637a.21(k) Badugi through the command."""
    rows, err = run(['{"game": "omaha-hilo8", "hole": "AsKsQdJd", "board": "2c3c4h9sTs"}',
                     '{"game": "badugi", "cards": "As2d3h4c"}'])
    assert err is None
    assert [r["line"] for r in rows] == [1, 2]
    assert rows[0]["result"]["low"]["qualifies"] is False
    assert rows[1]["result"]["description"] == "Four-card Badugi, 4-3-2-A"


def test_bad_lines_reported_and_processing_continues():
    rows, err = run(['{"game": "badugi", "cards": "As2d3h4c"}',
                     'not json',
                     '{"game": "nope", "cards": "As2d3h4c"}',
                     '',
                     '{"game": "omaha-hilo8", "hole": "AsKsQd", "board": "2c3c4h9sTs"}',
                     '{"cards": "As2d3h4c"}',
                     '[1, 2]',
                     '{"game": "badugi", "cards": "AsAs3h4c"}',
                     '{"game": "badugi", "cards": "As2d3h4c"}'])
    assert err is not None and str(err).startswith("invalid_lines:")
    by_line = {r["line"]: r for r in rows}
    assert by_line[1]["result"]["game"] == "badugi"
    assert by_line[2]["error"]["code"] == "invalid_json"
    assert by_line[3]["error"]["code"] == "unknown_game"
    assert 4 not in by_line  # blank line skipped
    assert by_line[5]["error"] == {
        "code": "wrong_card_count",
        "message": "omaha-hilo8 needs 4 or 5 hole cards and 5 board cards, got 3 hole cards"}
    assert by_line[6]["error"]["code"] == "missing_field"
    assert by_line[7]["error"]["code"] == "invalid_json"
    assert by_line[8]["error"]["code"] == "duplicate_card"
    assert by_line[9]["result"]["rank"] == by_line[1]["result"]["rank"]


def test_reads_a_file(tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_text('{"game": "triple-draw-27", "cards": "7s5d4h3c2c"}\n')
    out = io.StringIO()
    call_command("evaluate_hands", str(path), stdout=out)
    assert json.loads(out.getvalue())["result"]["description"] == "7-5-4-3-2 low"
    with pytest.raises(CommandError, match="^file_unreadable: "):
        call_command("evaluate_hands", str(tmp_path / "missing.jsonl"), stdout=out)


def test_list_games():
    out = io.StringIO()
    call_command("evaluate_hands", "--list-games", stdout=out)
    games = [json.loads(line) for line in out.getvalue().splitlines()]
    by_name = {g["game"]: g for g in games}
    assert by_name["omaha-hilo8"]["fields"] == {"hole": [4, 5], "board": [5]}
    assert by_name["badugi"]["fields"] == {"cards": [4]}
    assert len(games) == 21  # 18 poker games, two Lunar Poker rulebooks, Hi-Lo


def test_bench_hands_small_run():
    out, err = io.StringIO(), io.StringIO()
    call_command("bench_hands", "--hands", "2000", "--peer-hands", "50", "--repeat", "1",
                 stdout=out, stderr=err)
    data = json.loads(out.getvalue())
    for name in ("high7", "omaha_hilo8", "a5_low7", "deuce7_low5", "badugi"):
        r = data["results"][name]
        assert r["ours_per_s"] > 0 and r["pokerkit_per_s"] > 0 and r["ratio_vs_pokerkit"] > 0
    assert data["results"]["high7"]["treys_per_s"] > 0
    with pytest.raises(CommandError, match="^invalid_option: "):
        call_command("bench_hands", "--hands", "0", stdout=out, stderr=err)
