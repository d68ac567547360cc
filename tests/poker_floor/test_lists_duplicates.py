"""A player already on a list is refused a second entry (409 ``already_listed``, nothing
appended; review #10): the same phone or the same e-mail is the same player whatever
name is given; the same name (any case) is the same player when either entry has no
phone or e-mail to tell them apart."""

from __future__ import annotations

import pytest

from casino.domain.errors import ConflictError
from poker_floor.services import lists
from tests.poker_floor._helpers import event_count

pytestmark = pytest.mark.django_db


def _refused(floor, wl, **details) -> None:  # noqa: ANN001
    before = event_count()
    with pytest.raises(ConflictError) as err:
        lists.player_list(actor=floor["floor"], waitlist_id=wl.pk, **details)
    assert err.value.code == "already_listed"
    assert event_count() == before
    assert len(floor.reload(wl).order) == 1


def test_the_same_phone_under_another_name_is_refused(floor) -> None:
    wl = floor.waitlist()
    floor.list_player(wl, "Ann Lee", phone="201-555-0123")
    _refused(floor, wl, name="Annie", phone="(201) 555-0123")


def test_the_same_email_under_another_name_is_refused(floor) -> None:
    wl = floor.waitlist()
    floor.list_player(wl, "Ann Lee", email="ann@example.com")
    _refused(floor, wl, name="A. Lee", email="ANN@example.com")


def test_the_same_name_listed_first_without_contact_is_refused(floor) -> None:
    wl = floor.waitlist()
    floor.list_player(wl, "Ann Lee")
    _refused(floor, wl, name="ANN LEE", phone="201-555-0123")


def test_the_same_name_listed_first_with_contact_is_refused_without(floor) -> None:
    wl = floor.waitlist()
    floor.list_player(wl, "Ann Lee", email="ann@example.com")
    _refused(floor, wl, name="ann lee")


def test_another_name_with_another_contact_is_another_player(floor) -> None:
    wl = floor.waitlist()
    floor.list_player(wl, "Ann Lee", phone="201-555-0123", email="ann@example.com")
    floor.list_player(wl, "Ann Lee", phone="212-555-0199", email="al@example.org")
    assert len(floor.reload(wl).order) == 2
