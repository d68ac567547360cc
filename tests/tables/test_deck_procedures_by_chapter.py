"""The same deck procedures, chapter by chapter: each of 589.3-5, 671a.3-5, 579.3-5 and
637a.3-5 at a table of its game."""

from __future__ import annotations

import pytest

from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import read_stream
from tables.models import DeckState
from tables.services import decks, rounds

pytestmark = pytest.mark.django_db

GAMES = ["lunar-poker-589", "lunar-poker-671a", "five-card-hi-lo", "holdem"]
BANKED = GAMES[:3]

# What each test checks, cited per chapter (the subsections read alike).
PREP = {"lunar-poker-589": "§ 589.4(a) § 589.4(c) § 589.4(d) § 589.5(a)",
        "lunar-poker-671a": "§ 671a.4(a) § 671a.4(c) § 671a.4(d) § 671a.5(a)",
        "five-card-hi-lo": "§ 579.4(a) § 579.4(c) § 579.4(d) § 579.5(a)",
        "holdem": "§ 637a.4(a) § 637a.4(c) § 637a.4(d) § 637a.5(a)"}
PRE = {"lunar-poker-589": "§ 589.4(e)", "lunar-poker-671a": "§ 671a.4(e)",
       "five-card-hi-lo": "§ 579.4(e)", "holdem": "§ 637a.4(e)"}
RECUT = {"lunar-poker-589": "§ 589.5(e)", "lunar-poker-671a": "§ 671a.5(e)",
         "five-card-hi-lo": "§ 579.5(e)", "holdem": "§ 637a.5(c)"}
QUIET = {"lunar-poker-589": "§ 589.5(f)", "lunar-poker-671a": "§ 671a.5(f)",
         "five-card-hi-lo": "§ 579.5(f)", "holdem": "§ 637a.5(d)"}
ONE_DECK = {"lunar-poker-589": "§ 589.3(a)", "lunar-poker-671a": "§ 671a.3(a)",
            "five-card-hi-lo": "§ 579.3(a)"}
DEVICE = {"lunar-poker-589": "§ 589.5(g)", "lunar-poker-671a": "§ 671a.5(g)",
          "five-card-hi-lo": "§ 579.5(g)"}

# The markers of what each test checks, by game (the chapters above, as markers).
# (the steps of 4(a)-(d) and 5(a) in order are checked in test_lunar_deck_control.py)
WASHED_MARKS = {"lunar-poker-589": pytest.mark.regulation("589.4(c)"),
                "lunar-poker-671a": pytest.mark.regulation("671a.4(c)")}
PRE_MARKS = {"lunar-poker-589": pytest.mark.regulation("589.4(e)"),
             "lunar-poker-671a": pytest.mark.regulation("671a.4(e)")}
RECUT_MARKS = {"lunar-poker-589": pytest.mark.regulation("589.5(e)"),
               "lunar-poker-671a": pytest.mark.regulation("671a.5(e)")}
QUIET_MARKS = {"lunar-poker-589": pytest.mark.regulation("589.5(f)"),
               "lunar-poker-671a": pytest.mark.regulation("671a.5(f)")}
ONE_DECK_MARKS = {"lunar-poker-589": pytest.mark.regulation("589.3(a)"),
                  "lunar-poker-671a": pytest.mark.regulation("671a.3(a)")}
DEVICE_MARKS = {"lunar-poker-589": pytest.mark.regulation("589.5(g)"),
                "lunar-poker-671a": pytest.mark.regulation("671a.5(g)")}


def _by_game(games: list[str], marks: dict[str, pytest.MarkDecorator]) -> list[object]:
    """The games as parameters, each carrying the marker of its chapter's subsections."""
    return [pytest.param(g, marks=marks.get(g, ())) for g in games]


@pytest.mark.regulation("579.4(a)", "579.4(c)", "579.4(d)", "579.5(a)", "637a.4(a)",
                         "637a.4(c)", "637a.5(a)")
@pytest.mark.parametrize("game", GAMES)
def test_each_deck_is_inspected_spread_washed_and_shuffled_before_play(
        game, crew, open_table, ready_deck) -> None:
    cites = PREP[game]
    """4(a) inspection verified, 4(b) spread, 4(c) washed and stacked, 5(a) shuffled; with
    a shuffler both decks go through it (4(d))."""
    table = open_table(game)
    for colour in ("red", "blue"):
        deck = ready_deck(table, colour=colour)
        types = [e.type for e in read_stream(deck.stream_id)]
        assert types[:6] == ["DeckReceived", "DeckInspected", "DeckInspectionVerified",
                             "DeckSpread", "DeckWashed", "DeckShuffled"], cites
        decks.deck_put_in_play(actor=crew["dealer"], deck_id=deck.pk)


@pytest.mark.regulation("579.4(c)", "637a.4(c)", "637a.4(d)")
@pytest.mark.parametrize("game", _by_game(GAMES, WASHED_MARKS))
def test_a_deck_not_yet_washed_cannot_go_in_play(game, crew, open_table) -> None:
    """4(c)-(d): the procedure is completed for each deck before it is used."""
    cites = PREP[game]
    table = open_table(game)
    deck = decks.deck_receive(actor=crew["floor"], table_id=table.pk, back_colour="red",
                              batch="B")
    decks.deck_inspect(actor=crew["dealer"], deck_id=deck.pk)
    decks.deck_inspection_verify(actor=crew["floor"], deck_id=deck.pk, accepted=True)
    with pytest.raises(ConflictError) as err:
        decks.deck_put_in_play(actor=crew["dealer"], deck_id=deck.pk)
    assert err.value.code == "deck_wrong_state", cites


@pytest.mark.regulation("579.4(e)", "637a.4(e)")
@pytest.mark.parametrize("game", _by_game(GAMES, PRE_MARKS))
def test_preinspected_preshuffled_deck_skips_inspection(game, crew, open_table) -> None:
    """4(e): subsections (a)-(d) do not apply to a preinspected, preshuffled deck; it is cut
    except at Five Card Hi-Lo (§ 579.5(c)(2) names only a manual shuffle)."""
    cites = PRE[game]
    table = open_table(game)
    deck = decks.deck_receive(actor=crew["floor"], table_id=table.pk, back_colour="red",
                              batch="PRE", preinspected_preshuffled=True)
    expected = DeckState.READY if game == "five-card-hi-lo" else DeckState.SHUFFLED
    assert deck.state == expected, cites
    assert [e.type for e in read_stream(deck.stream_id)] == ["DeckReceived"]


@pytest.mark.regulation("579.5(e)", "637a.5(c)")
@pytest.mark.parametrize("game", _by_game(GAMES, RECUT_MARKS))
def test_floorperson_may_order_a_recut_before_dealing(game, crew, open_table,
                                                      ready_deck) -> None:
    """5(e) (637a.5(c)): after the cut and before dealing, a floorperson may require a recut."""
    cites = RECUT[game]
    # no automated shuffler: the cards are shuffled by hand (637a.18(r), 579.13(f))
    table = open_table(game, shuffler="none",
                       dealing_method="manual-shoe" if game != "holdem" else "hand")
    deck = ready_deck(table, shuffle="manual")
    with pytest.raises(DomainError) as missing:
        decks.deck_recut(actor=crew["floor"], deck_id=deck.pk, reason="")
    assert missing.value.field == "reason"
    deck = decks.deck_recut(actor=crew["floor"], deck_id=deck.pk, reason="cover card too shallow")
    assert (deck.state, deck.cut_required) == (DeckState.SHUFFLED, True), cites
    with pytest.raises(ConflictError):
        decks.deck_put_in_play(actor=crew["dealer"], deck_id=deck.pk)
    assert decks.deck_cut(actor=crew["dealer"], deck_id=deck.pk, depth=30).state == DeckState.READY


@pytest.mark.regulation("579.5(f)", "637a.5(d)")
@pytest.mark.parametrize("game", _by_game(GAMES, QUIET_MARKS))
def test_after_no_gaming_activity_the_deck_is_spread_again_and_keeps_its_deadline(
        game, crew, open_table, deck_in_play) -> None:
    """5(f) (637a.5(d)): spread again, then washed, shuffled and cut (4(c) and 5)."""
    cites = QUIET[game]
    table = open_table(game)
    deck = deck_in_play(table)
    first_deadline = deck.deadline_at
    decks.deck_spread(actor=crew["dealer"], deck_id=deck.pk,
                      players=2 if game == "holdem" else 1)
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    assert err.value.code == "deck_not_in_play", cites
    decks.deck_wash(actor=crew["dealer"], deck_id=deck.pk)
    decks.deck_shuffle(actor=crew["dealer"], deck_id=deck.pk, method="automated")
    deck = decks.deck_put_in_play(actor=crew["dealer"], deck_id=deck.pk)
    assert deck.deadline_at == first_deadline


@pytest.mark.regulation("579.3(a)")
@pytest.mark.parametrize("game", _by_game(BANKED, ONE_DECK_MARKS))
def test_one_deck_without_a_shuffler(game, crew, open_table, deck_in_play) -> None:
    """3(a): one deck and a cover card, unless an automated shuffler is used (3(b))."""
    cites = ONE_DECK[game]
    table = open_table(game, dealing_method="manual-shoe", shuffler="none")
    deck_in_play(table, shuffle="manual")
    with pytest.raises(ConflictError) as err:
        deck_in_play(table, colour="blue", shuffle="manual")
    assert err.value.code == "too_many_decks_in_play", cites


@pytest.mark.regulation("579.5(g)")
@pytest.mark.parametrize("game", _by_game(BANKED, DEVICE_MARKS))
def test_approved_counting_device_needs_no_cut_and_no_dealer_count(
        game, crew, open_table, deck_in_play) -> None:
    """5(g): with an approved device that shuffles and counts the cards, the cut procedures
    do not apply. We model that device as the shuffler "automated-counting" (the only
    counting device a table can record); its count also replaces the dealer's."""
    cites = DEVICE[game]
    table = open_table(game, shuffler="automated-counting")
    deck = deck_in_play(table, shuffle="automated")
    assert "DeckCut" not in [e.type for e in read_stream(deck.stream_id)], cites
    for _ in range(6):
        r = rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
        rounds.round_close(actor=crew["dealer"], round_id=r.pk)


@pytest.mark.regulation("637a.3(b)")
def test_poker_with_a_shuffler_keeps_the_second_deck_in_it(crew, open_table,
                                                           deck_in_play) -> None:
    """§ 637a.3(b): one deck shuffled and stored in the shuffler while the other is used;
    both count as in play and alternate."""
    table = open_table("holdem", shuffler="automated")
    a, b = deck_in_play(table), deck_in_play(table, colour="blue")
    for deck in (a, b, a):
        r = rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
        rounds.round_close(actor=crew["dealer"], round_id=r.pk)
