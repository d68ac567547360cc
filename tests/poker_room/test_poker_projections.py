"""The poker room's read models are projections: dropped and rebuilt from the events by
``rebuild_projections`` they come back the same (DESIGN §3)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from poker_room.models import PokerTable, RakeDay, Seat
from tests.poker_room._play import play_hand, poker_table_ready

pytestmark = pytest.mark.django_db


def _rows() -> tuple:
    seats = sorted((str(s.table_id), s.seat, s.stack_cents, s.status, s.player_name)
                   for s in Seat.objects.all())
    tables = sorted((str(t.table_id), t.button_seat, t.kill_active, t.hands_dealt,
                     t.current_hand_id, t.stream_version) for t in PokerTable.objects.all())
    days = sorted((str(d.table_id), d.gaming_day, d.hands, d.percentage_rake_cents,
                   d.time_charges_cents, tuple(sorted(d.contributions.items())))
                  for d in RakeDay.objects.all())
    return seats, tables, days


def test_rebuilt_seats_tables_and_rake_ledger_equal_the_live_ones(open_table, crew) -> None:
    """§ 637a.17(b)(1): the rake ledger of every hand, § 637a.8(b) the table stakes after
    each hand, rebuilt from the events alone."""
    table = open_table("holdem")
    poker_table_ready(table, crew, players=4)
    for n in range(3):
        play_hand(table, crew, seed=n, batched=bool(n % 2))
    before = _rows()
    assert before[2] and before[2][0][2] == 3  # three hands in the ledger
    call_command("rebuild_projections", "--no-progress")
    assert _rows() == before
