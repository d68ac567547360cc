"""Lists (issue 24, item 1): opened per poker game, players added in order with their
details sealed in the events (item 8), the bad input of the issue refused with its code
and nothing appended."""

from __future__ import annotations

from datetime import timedelta

import pytest

from casino.domain.errors import DomainError
from casino.models import Event, PersonalDataKey
from casino.personal_data import unseal
from poker_floor.models import EntryStatus, ListEntry, Waitlist
from poker_floor.services import lists
from tests.poker_floor._helpers import event_count, list_events, list_types

pytestmark = pytest.mark.django_db


def _refused(code: str, fn, **kw) -> DomainError:  # noqa: ANN001
    before = event_count()
    with pytest.raises(DomainError) as err:
        fn(**kw)
    assert err.value.code == code
    assert event_count() == before
    return err.value


def test_a_list_is_opened_for_a_poker_game_named_by_its_stakes(floor) -> None:
    wl = floor.waitlist("holdem", open_table_at=6)
    # the example Hold'em submission: $4/$8 fixed limit (tables.domain.rules_options)
    assert wl.name == "$4.00/$8.00 fixed limit Hold'em"
    assert (wl.game, wl.open_table_at, wl.order) == ("holdem", 6, [])
    assert list_types(wl) == ["WaitlistOpened"]


def test_a_second_list_of_one_game_is_refused(floor) -> None:
    floor.waitlist("holdem")
    _refused("waitlist_exists", lists.waitlist_open, actor=floor["floor"], game="holdem")
    assert Waitlist.objects.count() == 1


def test_a_list_of_a_banked_game_is_refused(floor) -> None:
    _refused("list_not_poker", lists.waitlist_open, actor=floor["floor"], game="five-card-hi-lo")


def test_a_dealer_may_not_open_a_list(floor) -> None:
    floor.rules("holdem")
    before = event_count()
    with pytest.raises(Exception) as err:
        lists.waitlist_open(actor=floor["dealer"], game="holdem")
    assert getattr(err.value, "default_code", None) == "role_required"
    assert event_count() == before


def test_players_are_kept_in_the_order_added(floor) -> None:
    wl = floor.waitlist()
    a, b, c = floor.list_players(wl, "Ann Lee", "Bob Stone", "Cy Young")
    assert floor.reload(wl).order == [str(a.pk), str(b.pk), str(c.pk)]
    assert list_types(wl) == ["WaitlistOpened"] + ["PlayerListed"] * 3


def test_an_entry_keeps_the_details_for_the_floor_and_initials_for_everyone(floor) -> None:
    wl = floor.waitlist()
    e = floor.list_player(wl, "  John   Smith ", phone="(212) 555-0199",
                          email="john@example.com")
    assert (e.name, e.phone, e.email, e.initials) == (
        "John Smith", "+12125550199", "john@example.com", "J.S.")
    assert (e.status, e.kind, e.source) == (EntryStatus.WAITING, "player", "floor")


def test_initials_given_are_kept(floor) -> None:
    wl = floor.waitlist()
    assert floor.list_player(wl, "JS").initials == "JS"


def test_the_event_holds_no_name_phone_or_email_in_clear(floor) -> None:
    wl = floor.waitlist()
    e = floor.list_player(wl, "Zebulon Quartermaine", phone="617-555-0142",
                          email="zq@example.org")
    raw = Event.objects.get(stream_id=f"waitlist-{wl.pk}", type="PlayerListed")
    text = str(raw.data) + str(raw.metadata)
    for secret in ("Zebulon", "Quartermaine", "6175550142", "617-555-0142", "zq@example",
                   "Z.Q."):
        assert secret not in text
    assert unseal(raw.data["details"]) == {"name": "Zebulon Quartermaine",
                                           "phone": "+16175550142",
                                           "email": "zq@example.org"}
    key = PersonalDataKey.objects.get(subject=e.pk)
    assert key.kind == "list_entry"
    # kept FLOOR_RETENTION_DAYS (30 by default) from the listing, then erased
    assert timedelta(days=29, hours=23) < key.retain_until - e.listed_at <= timedelta(days=30)


def test_a_player_may_be_on_several_lists(floor) -> None:
    holdem, omaha = floor.waitlist("holdem"), floor.waitlist("omaha-high")
    floor.list_player(holdem, "Ann Lee", phone="201-555-0123")
    floor.list_player(omaha, "Ann Lee", phone="201-555-0123")
    assert ListEntry.objects.filter(name="Ann Lee").count() == 2


def test_a_player_added_twice_is_refused(floor) -> None:
    wl = floor.waitlist()
    floor.list_player(wl, "Ann Lee", phone="201-555-0123")
    _refused("already_listed", lists.player_list, actor=floor["floor"], waitlist_id=wl.pk,
             name="ann lee", phone="+1 201 555 0123")


def test_the_same_name_without_contact_twice_is_refused(floor) -> None:
    wl = floor.waitlist()
    floor.list_player(wl, "AL")
    _refused("already_listed", lists.player_list, actor=floor["floor"], waitlist_id=wl.pk,
             name="al")


def test_the_same_name_with_another_phone_is_another_player(floor) -> None:
    wl = floor.waitlist()
    floor.list_player(wl, "Ann Lee", phone="201-555-0123")
    floor.list_player(wl, "Ann Lee", phone="212-555-0199")
    assert len(floor.reload(wl).order) == 2


def test_a_player_taken_off_may_be_listed_again(floor) -> None:
    wl = floor.waitlist()
    e = floor.list_player(wl, "Ann Lee", phone="201-555-0123")
    lists.player_delist(actor=floor["floor"], waitlist_id=wl.pk, entry_id=e.pk,
                        reason="went home")
    again = floor.list_player(wl, "Ann Lee", phone="201-555-0123")
    assert floor.reload(wl).order == [str(again.pk)]


@pytest.mark.parametrize("phone", ["12345", "555-1234", "not a phone", "+999 1"])
def test_a_phone_that_is_not_a_phone_is_refused(floor, phone) -> None:
    wl = floor.waitlist()
    err = _refused("invalid_phone", lists.player_list, actor=floor["floor"],
                   waitlist_id=wl.pk, name="Ann Lee", phone=phone)
    assert err.field == "phone"
    assert not ListEntry.objects.exists()
    assert not PersonalDataKey.objects.exists()


def test_an_email_that_is_not_one_is_refused(floor) -> None:
    wl = floor.waitlist()
    _refused("invalid_email", lists.player_list, actor=floor["floor"], waitlist_id=wl.pk,
             name="Ann Lee", email="ann@")


@pytest.mark.parametrize("name", ["", "   ", "x" * 121, None, 7])
def test_a_name_is_one_to_120_characters(floor, name) -> None:
    wl = floor.waitlist()
    _refused("invalid_player_name", lists.player_list, actor=floor["floor"],
             waitlist_id=wl.pk, name=name)


def test_delisting_needs_a_reason(floor) -> None:
    wl = floor.waitlist()
    e = floor.list_player(wl, "Ann Lee")
    _refused("reason_required", lists.player_delist, actor=floor["floor"],
             waitlist_id=wl.pk, entry_id=e.pk, reason=" ")


def test_delisting_takes_the_player_off_in_order(floor) -> None:
    wl = floor.waitlist()
    a, b, c = floor.list_players(wl, "Ann Lee", "Bob Stone", "Cy Young")
    out = lists.player_delist(actor=floor["floor"], waitlist_id=wl.pk, entry_id=b.pk,
                              reason="asked to be taken off")
    assert out.status == EntryStatus.REMOVED
    assert floor.reload(wl).order == [str(a.pk), str(c.pk)]
    assert list_events(wl)[-1].data == {"entry": str(b.pk), "reason": "asked to be taken off"}


def test_another_propertys_list_is_not_found(floor, make_floor, other_property) -> None:
    wl = floor.waitlist()
    other = make_floor(other_property)
    _refused("waitlist_not_found", lists.player_list, actor=other["floor"],
             waitlist_id=wl.pk, name="Ann Lee")


def test_configure_sets_the_number_that_suggests_a_table(floor) -> None:
    wl = floor.waitlist()
    out = lists.waitlist_configure(actor=floor["supervisor"], waitlist_id=wl.pk,
                                   open_table_at=9)
    assert out.open_table_at == 9
    _refused("invalid_open_table_at", lists.waitlist_configure, actor=floor["floor"],
             waitlist_id=wl.pk, open_table_at=-1)
