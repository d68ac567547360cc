"""A table change whose player has left the seat it was asked from (issue 24, item 3) is
taken off the list by every step that reads the calling order: an out-of-turn call does
not count it as passed over, and a table opened by lot never draws it.

Dee Park, seated at T1 seat 1, asks for a table change; Ann Lee is listed after her; Dee
then leaves T1."""

from __future__ import annotations

from typing import Any

import pytest

from poker_floor.models import EntryStatus, ListEntry
from poker_floor.services import calls
from poker_floor.services.moves import table_change_request, table_open_by_lot

pytestmark = pytest.mark.django_db


def _dee_gone(floor: Any) -> tuple[Any, Any, Any, Any]:
    t1, t2 = floor.tables(2)
    floor.seat(t1, 1, name="Dee Park")
    floor.fill(t2, leave=(5,))
    waitlist = floor.waitlist()
    (ann,) = floor.list_players(waitlist, "Ann Lee")
    dee = table_change_request(actor=floor["floor"], waitlist_id=waitlist.pk,
                               table_id=t1.pk, seat=1)
    floor.leave(t1, 1)
    return t2, waitlist, ann, dee


def test_calling_the_first_live_player_needs_no_reason_and_passes_nobody(floor) -> None:
    t2, waitlist, ann, dee = _dee_gone(floor)
    call = calls.call_player(actor=floor["floor"], waitlist_id=waitlist.pk,
                             entry_id=ann.pk, table_id=t2.pk, seat=5)
    assert (call.entry_id, call.reason) == (ann.pk, "")
    assert ListEntry.objects.get(pk=dee.pk).status == EntryStatus.REMOVED


def test_a_table_opened_by_lot_never_draws_a_departed_table_change(floor) -> None:
    t2, waitlist, ann, dee = _dee_gone(floor)
    t3 = floor.table()
    out = table_open_by_lot(actor=floor["floor"], waitlist_id=waitlist.pk, table_id=t3.pk)
    assert [d["entry"] for d in out["draw"]] == [str(ann.pk)]
    assert ListEntry.objects.get(pk=dee.pk).status == EntryStatus.REMOVED
