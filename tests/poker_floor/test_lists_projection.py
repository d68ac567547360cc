"""The lists' read models are a projection of the list streams (poker_floor.projections):
rebuilt from the events they come back the same; an entry whose key is erased is blank
everywhere it is read, and stays blank after a rebuild (issue 24, item 8)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from casino.personal_data import personal_data_erase
from poker_floor.models import Call, ListEntry, Waitlist
from poker_floor.services import calls
from tests.poker_floor._helpers import BUY_IN

pytestmark = pytest.mark.django_db


def _rows() -> list:
    return [sorted(Waitlist.objects.values_list("id", "name", "order", "stream_version")),
            sorted(ListEntry.objects.values_list(
                "id", "status", "name", "phone", "initials", "missed_calls", "erased")),
            sorted(Call.objects.values_list("id", "entry_id", "seat", "state", "reason"))]


def test_a_rebuild_gives_the_same_rows(holdem) -> None:
    f = holdem.floor
    first = calls.call_next(actor=f["floor"], waitlist_id=holdem.waitlist.pk,
                            table_id=holdem.tables[0].pk, seat=9)
    calls.call_seat(actor=f["floor"], call_id=first.pk, buy_in_cents=BUY_IN, paid_with="chips")
    calls.call_player(actor=f["floor"], waitlist_id=holdem.waitlist.pk,
                      entry_id=holdem.entries[2].pk, table_id=holdem.tables[1].pk, seat=9,
                      reason="Bob asked to wait for table 1")
    calls.calls_expire(timezone.now() + timedelta(minutes=6))
    before = _rows()
    call_command("rebuild_projections", "--no-progress")
    assert _rows() == before


def test_an_erased_entry_is_blank_and_stays_blank_after_a_rebuild(holdem) -> None:
    ann = holdem.entries[0]
    personal_data_erase(ann.pk, actor=holdem.floor["compliance"],
                        reason="The player asked for the details to be erased.")
    row = ListEntry.objects.get(pk=ann.pk)
    assert (row.name, row.phone, row.email, row.initials, row.erased) == ("", "", "", "", True)
    call_command("rebuild_projections", "--no-progress")
    row = ListEntry.objects.get(pk=ann.pk)
    assert (row.name, row.phone, row.initials, row.erased) == ("", "", "", True)
    assert ListEntry.objects.get(pk=holdem.entries[1].pk).name == "Bob Stone"
