"""The second floorperson to put a shuffler or shoe back in service is the house's control
(the setting ``EQUIPMENT_RESTORE_SECOND_FLOORPERSON``, on by default), not a chapter's rule:
the chapters (checked in tests/tables/test_equipment.py) require the device covered or
signed out of order before any other method is used, and say nothing of who puts it back.
No regulation marker here: the test checks a property control."""

from __future__ import annotations

import pytest

from casino.domain.errors import ConflictError
from casino.eventstore.store import read_stream
from tables.models import GameTable
from tables.services import tables

pytestmark = pytest.mark.django_db


def _out_of_order(crew, open_table) -> GameTable:
    table = open_table("lunar-poker-671a", shuffler="automated")
    tables.table_equipment(actor=crew["floor"], table_id=table.pk, device="shuffler",
                           out_of_order=True, covered_or_signed=True, note="jammed twice")
    return GameTable.objects.get(pk=table.pk)


def test_with_the_control_on_by_default_the_reporter_is_refused(crew, open_table) -> None:
    """The default: the floorperson who reported the shuffler out of order is refused
    (same_person, a sentence naming the house's control, nothing appended)."""
    table = _out_of_order(crew, open_table)
    before = read_stream(table.stream_id)
    with pytest.raises(ConflictError) as err:
        tables.table_equipment(actor=crew["floor"], table_id=table.pk, device="shuffler",
                               out_of_order=False)
    assert err.value.code == "same_person"
    assert "house" in str(err.value) and "637a" not in str(err.value)
    assert read_stream(table.stream_id) == before
    assert tables.may_put_back_in_service(crew["floor"],
                                          tables.out_of_order_reports(table)["shuffler"]) \
        is False


def test_with_the_control_off_the_reporter_may_put_it_back(crew, open_table,
                                                           settings) -> None:
    """The property turned the control off: the floorperson who reported the shuffler
    out of order puts it back in service, recorded as theirs."""
    settings.EQUIPMENT_RESTORE_SECOND_FLOORPERSON = False
    table = _out_of_order(crew, open_table)
    assert tables.may_put_back_in_service(crew["floor"],
                                          tables.out_of_order_reports(table)["shuffler"])
    restored = tables.table_equipment(actor=crew["floor"], table_id=table.pk,
                                      device="shuffler", out_of_order=False, note="repaired")
    assert restored.shuffler_out_of_order is False
    last = read_stream(table.stream_id)[-1]
    assert (last.type, last.metadata["actor"]) == ("EquipmentRestored", crew["floor"].username)
