"""Shufflers and dealing shoes that jam or break, at banked and poker tables (issue 27):
a jam mid-shuffle leaves the cards to be shuffled again (§ 637a.18(q), § 589.13(e),
§ 671a.13(e), § 579.13(d)); a device that cannot be used is covered or signed out of order
before any other method is used at that table (§ 637a.18(r), § 671a.13(g), § 579.13(f));
under the house's control (not a chapter's rule) a floorperson other than whoever reported
it puts it back in service."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from casino.actors import actor_of
from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import read_stream
from tables.domain import deck_steps
from tables.domain.catalogue import get_table_game
from tables.domain.decks import DealingMethod, ShuffleMethod, Shuffler, TableSetup, check_shuffle
from tables.models import DeckState, GameTable
from tables.services import decks, tables
from tests.conftest import token_client
from tests.console.conftest import console_client  # noqa: F401  (the console's signed-in client)
from tests.tables._api import ok, problem

V1 = "/api/v1"

#: a table of each kind and the subsection on a device out of order there
OUT_OF_ORDER = [("holdem", "§ 637a.18(r)"), ("lunar-poker-671a", "§ 671a.13(g)"),
                ("five-card-hi-lo", "§ 579.13(f)")]
#: ... and on a shuffler that jams mid-shuffle
JAM = [("holdem", "§ 637a.18(q)"), ("lunar-poker-671a", "§ 671a.13(e)"),
       ("five-card-hi-lo", "§ 579.13(d)")]


def _setup(game: str, shuffler: str = "automated", **kw: bool) -> TableSetup:
    dealing = "hand" if get_table_game(game).is_poker else "manual-shoe"
    return TableSetup(get_table_game(game), DealingMethod(dealing), Shuffler(shuffler), **kw)


# --- the pure rules ---------------------------------------------------------------------

@pytest.mark.parametrize("game,cite", OUT_OF_ORDER)
@pytest.mark.regulation("637a.18(r)")
def test_by_hand_only_once_the_shuffler_is_out_of_order(game: str, cite: str) -> None:
    """A shuffle by hand at a table whose shuffler is in service is refused; with the
    shuffler recorded out of order, or at a table with none, it is allowed."""
    with pytest.raises(ConflictError) as err:
        check_shuffle(_setup(game), ShuffleMethod.MANUAL)
    assert err.value.code == "shuffler_not_out_of_order", cite
    check_shuffle(_setup(game, shuffler_out_of_order=True), ShuffleMethod.MANUAL)
    check_shuffle(_setup(game, "none"), ShuffleMethod.MANUAL)
    check_shuffle(_setup(game, "automated-counting", shuffler_out_of_order=True),
                  ShuffleMethod.MANUAL)


@pytest.mark.regulation("637a.18(q)")
def test_after_a_jam_the_deck_is_neither_cut_nor_put_in_play() -> None:
    """§ 637a.18(q): the cards are reshuffled; a cut or a deck in play comes after that
    shuffle, never straight after the jam."""
    jammed = deck_steps.DeckSeen("d", "washed", True, [], None, False, jammed=True)
    for step in (lambda: deck_steps.cut(jammed, 20),
                 lambda: deck_steps.put_in_play(jammed, _setup("holdem"), table_id="t",
                                                in_play=[], colour="red",
                                                limits={"poker": 1},
                                                now=datetime.now(UTC))):
        with pytest.raises(ConflictError) as err:
            step()
        assert err.value.code == "reshuffle_required"
    assert deck_steps.shuffle(jammed, _setup("holdem"), ShuffleMethod.AUTOMATED)[0]["type"] \
        == "DeckShuffled"


def test_only_a_shuffler_in_service_jams() -> None:
    """§ 589.13(e): "if an automated card shuffling device is being used"."""
    washed = deck_steps.DeckSeen("d", "washed", True, [], None, False)
    for setup in (_setup("lunar-poker-589", "none"),
                  _setup("lunar-poker-589", shuffler_out_of_order=True)):
        with pytest.raises(ConflictError) as err:
            deck_steps.shuffle_jammed(washed, setup, "")
        assert err.value.code == "shuffler_unavailable"
    assert deck_steps.shuffle_jammed(washed, _setup("lunar-poker-589"), "stopped") == [
        {"type": "DeckShuffleJammed", "data": {"note": "stopped"}}]


# --- at the table ------------------------------------------------------------------------

def _washed(crew: dict, table: Any) -> Any:
    """A deck received, inspected, verified, spread and washed at ``table``: next, the
    shuffle."""
    d, f = crew["dealer"], crew["floor"]
    deck = decks.deck_receive(actor=f, table_id=table.pk, back_colour="red", batch="B-1")
    decks.deck_inspect(actor=d, deck_id=deck.pk, defects=[])
    decks.deck_inspection_verify(actor=f, deck_id=deck.pk, accepted=True)
    decks.deck_spread(actor=d, deck_id=deck.pk,
                      players=2 if get_table_game(table.game).is_poker else 1)
    return decks.deck_wash(actor=d, deck_id=deck.pk)


def _refused(command: Any, code: str, *streams: str) -> None:
    """``command`` is refused with ``code`` and appends nothing to ``streams``."""
    before = [read_stream(s) for s in streams]
    with pytest.raises((ConflictError, DomainError)) as err:
        command()
    assert err.value.code == code
    assert [read_stream(s) for s in streams] == before


@pytest.mark.regulation("579.13(f)")
@pytest.mark.django_db
@pytest.mark.parametrize("game,cite", OUT_OF_ORDER)
@pytest.mark.regulation("637a.18(r)")
def test_shuffled_by_hand_only_after_the_shuffler_is_signed_out_of_order(
        game: str, cite: str, crew, open_table) -> None:
    """The table's automated shuffler in service: a shuffle by hand is refused, nothing
    appended; recorded out of order without a cover or sign, refused; covered or signed,
    the cards are shuffled by hand and then cut."""
    table = open_table(game, shuffler="automated")
    deck = _washed(crew, table)
    d = crew["dealer"]
    _refused(lambda: decks.deck_shuffle(actor=d, deck_id=deck.pk, method="manual"),
             "shuffler_not_out_of_order", deck.stream_id, table.stream_id)
    _refused(lambda: tables.table_equipment(actor=d, table_id=table.pk, device="shuffler",
                                            out_of_order=True),
             "out_of_order_sign_required", table.stream_id)
    tables.table_equipment(actor=d, table_id=table.pk, device="shuffler", out_of_order=True,
                           covered_or_signed=True, note="stopped mid-cycle")
    deck = decks.deck_shuffle(actor=d, deck_id=deck.pk, method="manual")
    assert (deck.state, deck.cut_required) == (DeckState.SHUFFLED, True), cite
    _refused(lambda: decks.deck_put_in_play(actor=d, deck_id=deck.pk), "deck_wrong_state",
             deck.stream_id)
    assert decks.deck_cut(actor=d, deck_id=deck.pk, depth=15).state == DeckState.READY
    # and the shuffler, out of order, shuffles nothing
    other = _washed(crew, table)
    _refused(lambda: decks.deck_shuffle(actor=d, deck_id=other.pk, method="automated"),
             "shuffler_unavailable", other.stream_id)


@pytest.mark.django_db
def test_back_in_service_by_a_floorperson_other_than_the_reporter(crew, staff,
                                                                  open_table) -> None:
    """The house's control (EQUIPMENT_RESTORE_SECOND_FLOORPERSON, on by default; no
    chapter's rule): the floorperson who reported the shuffler out of order does not put
    it back (same_person, nothing appended); another floorperson does, and the table
    shuffles in the shuffler again: by hand is refused once more (§ 671a.13(g))."""
    table = open_table("lunar-poker-671a", shuffler="automated")
    floor, second = crew["floor"], staff("floorperson")
    tables.table_equipment(actor=floor, table_id=table.pk, device="shuffler",
                           out_of_order=True, covered_or_signed=True, note="jammed twice")
    report = tables.out_of_order_reports(GameTable.objects.get(pk=table.pk))["shuffler"]
    assert (report["reported_by"], report["role"], report["covered_or_signed"],
            report["note"]) == (floor.username, "floorperson", True, "jammed twice")
    _refused(lambda: tables.table_equipment(actor=floor, table_id=table.pk,
                                            device="shuffler", out_of_order=False),
             "same_person", table.stream_id)
    restored = tables.table_equipment(actor=second, table_id=table.pk, device="shuffler",
                                      out_of_order=False, note="repaired")
    assert restored.shuffler_out_of_order is False
    assert tables.out_of_order_reports(restored) == {}
    last = read_stream(table.stream_id)[-1]
    assert (last.type, last.metadata["actor"]) == ("EquipmentRestored", second.username)
    deck = _washed(crew, table)
    _refused(lambda: decks.deck_shuffle(actor=crew["dealer"], deck_id=deck.pk,
                                        method="manual"),
             "shuffler_not_out_of_order", deck.stream_id)


@pytest.mark.django_db
def test_the_shoe_reported_by_the_dealer_is_restored_by_a_floorperson(crew,
                                                                      open_table) -> None:
    """§ 579.13(f): a shoe out of order, reported by the dealer; the floorperson (not the
    reporter) puts it back, the dealer cannot (a floorperson's step)."""
    from casino.roles import RoleRequired

    table = open_table("five-card-hi-lo", dealing_method="automated-shoe")
    tables.table_equipment(actor=crew["dealer"], table_id=table.pk, device="shoe",
                           out_of_order=True, covered_or_signed=True)
    assert tables.out_of_order_reports(GameTable.objects.get(pk=table.pk))["shoe"][
        "reported_by"] == crew["dealer"].username
    with pytest.raises(RoleRequired):
        tables.table_equipment(actor=crew["dealer"], table_id=table.pk, device="shoe",
                               out_of_order=False)
    assert not tables.table_equipment(actor=crew["floor"], table_id=table.pk, device="shoe",
                                      out_of_order=False).shoe_out_of_order


@pytest.mark.regulation("579.13(d)")
@pytest.mark.django_db
@pytest.mark.parametrize("game,cite", JAM)
@pytest.mark.regulation("637a.18(q)")
def test_a_jam_mid_shuffle_has_the_cards_shuffled_again(game: str, cite: str, crew,
                                                        open_table) -> None:
    """The shuffler jams on a washed deck: recorded, the deck waits for a new shuffle; a
    cut or putting it in play is refused (reshuffle_required, nothing appended); shuffled
    again in the shuffler it needs no cut and goes in play."""
    table = open_table(game, shuffler="automated")
    deck = _washed(crew, table)
    d = crew["dealer"]
    deck = decks.deck_shuffle_jam(actor=d, deck_id=deck.pk, note="stopped mid-cycle")
    assert deck.state == DeckState.WASHED, cite
    assert read_stream(deck.stream_id)[-1].type == "DeckShuffleJammed"
    for step in (lambda: decks.deck_cut(actor=d, deck_id=deck.pk, depth=20),
                 lambda: decks.deck_put_in_play(actor=d, deck_id=deck.pk)):
        _refused(step, "reshuffle_required", deck.stream_id)
    deck = decks.deck_shuffle(actor=d, deck_id=deck.pk, method="automated")
    assert (deck.state, deck.cut_required) == (DeckState.READY, False)
    assert decks.deck_put_in_play(actor=d, deck_id=deck.pk).state == DeckState.IN_PLAY


@pytest.mark.django_db
@pytest.mark.regulation("637a.18(q)", "637a.18(r)")
def test_a_poker_shuffler_that_jams_on_a_ready_deck_then_fails(crew, staff,
                                                               open_table) -> None:
    """§ 637a.18(q): a ready deck shuffled again jams: it is no longer ready (refused in
    play). § 637a.18(r): the shuffler cannot be used; a shuffle by hand waits for it to
    be signed out of order, then the deck is cut (§ 637a.5(b)(2)) and goes in play."""
    table = open_table("omaha-high", shuffler="automated")
    d = crew["dealer"]
    deck = decks.deck_shuffle(actor=d, deck_id=_washed(crew, table).pk, method="automated")
    assert deck.state == DeckState.READY
    deck = decks.deck_shuffle_jam(actor=crew["floor"], deck_id=deck.pk)
    assert deck.state == DeckState.WASHED
    _refused(lambda: decks.deck_put_in_play(actor=d, deck_id=deck.pk), "reshuffle_required",
             deck.stream_id)
    _refused(lambda: decks.deck_shuffle(actor=d, deck_id=deck.pk, method="manual"),
             "shuffler_not_out_of_order", deck.stream_id)
    tables.table_equipment(actor=d, table_id=table.pk, device="shuffler", out_of_order=True,
                           covered_or_signed=True)
    deck = decks.deck_shuffle(actor=d, deck_id=deck.pk, method="manual")
    deck = decks.deck_cut(actor=d, deck_id=deck.pk, depth=12)
    assert decks.deck_put_in_play(actor=d, deck_id=deck.pk).state == DeckState.IN_PLAY
    # a jam needs a shuffler in service: none now
    other = _washed(crew, table)
    _refused(lambda: decks.deck_shuffle_jam(actor=d, deck_id=other.pk),
             "shuffler_unavailable", other.stream_id)


# --- the API and the table's page ---------------------------------------------------------

def _as(actor: Any) -> Any:
    return token_client(get_user_model().objects.get(pk=actor.user_id))


@pytest.mark.django_db
@pytest.mark.regulation("637a.18(q)")
def test_the_api_refuses_by_hand_and_after_a_jam_as_problems(crew, open_table) -> None:
    """§ 637a.18(r): 409 shuffler_not_out_of_order; § 637a.18(q): ``shuffle-jam/`` then
    409 reshuffle_required on the cut, as problem+json."""
    table = open_table("holdem", shuffler="automated")
    deck = _washed(crew, table)
    dealer = _as(crew["dealer"])
    url = f"{V1}/decks/{deck.pk}"
    problem(dealer.post(f"{url}/shuffle/", {"method": "manual"}, format="json"), 409,
            "shuffler_not_out_of_order")
    assert ok(dealer.post(f"{url}/shuffle-jam/", {"note": "jammed"}, format="json"))[
        "state"] == "washed"
    problem(dealer.post(f"{url}/cut/", {"depth": 20}, format="json"), 409,
            "reshuffle_required")
    floor = _as(crew["floor"])
    ok(floor.post(f"{V1}/tables/{table.pk}/equipment/",
                  {"device": "shuffler", "out_of_order": True, "covered_or_signed": True},
                  format="json"))
    problem(floor.post(f"{V1}/tables/{table.pk}/equipment/",
                       {"device": "shuffler", "out_of_order": False}, format="json"), 409,
            "same_person")


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_table_page_shows_the_device_its_sign_and_who_reported_it(
        crew, open_table, console_client) -> None:
    """§ 637a.18(r): the floor reads that the shuffler is out of order, covered or signed,
    who reported it, what to do meanwhile; a floorperson other than the reporter is
    offered to put it back."""
    table = open_table("holdem", shuffler="automated")
    tables.table_equipment(actor=crew["dealer"], table_id=table.pk, device="shuffler",
                           out_of_order=True, covered_or_signed=True, note="rollers slip")
    floor = console_client("floorperson")
    r = floor.get(f"/console/tables/{table.pk}/")
    assert r.status_code == 200
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.content.decode()))
    assert "The shuffler is out of order and is covered or signed out of order" in text
    assert f"reported by {crew['dealer'].username} (dealer)" in text
    assert "rollers slip" in text
    assert "Shuffle every deck by hand and cut it" in text
    assert "Put the shuffler back in service" in text
    link = re.search(r'href="(/console/do/table_equipment/[^"]+)"', r.content.decode())
    assert link and floor.get(link.group(1).replace("&amp;", "&")).status_code == 200
    # the dealer who reported it is not offered the link (a floorperson's step)
    dealer_page = console_client("dealer").get(f"/console/tables/{table.pk}/")
    assert dealer_page.status_code == 200
    assert "Put the shuffler back in service" not in dealer_page.content.decode()


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_floorperson_who_reported_it_is_not_offered_to_put_it_back(
        open_table, console_client) -> None:
    """The house's control (on by default; no chapter's rule): the floorperson who signed
    the shuffler out of order is not offered the step on the table's page (the service
    would refuse it: same_person); another floorperson is."""
    table = open_table("holdem", shuffler="automated")
    reporter = console_client("floorperson")
    tables.table_equipment(actor=actor_of(reporter.user), table_id=table.pk,
                           device="shuffler", out_of_order=True, covered_or_signed=True)
    page = reporter.get(f"/console/tables/{table.pk}/").content.decode()
    assert "The shuffler is out of order" in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "Put the shuffler back in service" not in page
    other = console_client("floorperson").get(f"/console/tables/{table.pk}/")
    assert "Put the shuffler back in service" in other.content.decode()
