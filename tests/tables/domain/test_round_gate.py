"""The round's gate as pure rules (tables.domain.round_gate): what one locked read of the
table decides, without a database."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from casino.domain.errors import ConflictError
from tables.domain.round_gate import (
    DeckInPlay,
    RulesVersion,
    TableAtStart,
    check_deck,
    check_table_free,
    deck_due,
    round_opening,
    rules_in_force,
    rules_required,
)

NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def _deck(name: str, minutes_in_play: int = 60, **changes: object) -> DeckInPlay:
    deck = DeckInPlay(id=name, change_due=False, deadline_at=NOW + timedelta(hours=4),
                      rounds_since_count=0, stream_version=8,
                      entered_play_at=NOW - timedelta(minutes=minutes_in_play))
    return replace(deck, **changes)


def _rules(number: int, state: str = "in_effect", effective_at: datetime | None = None
           ) -> RulesVersion:
    return RulesVersion(f"rules-{number}", number, state, effective_at, {"v": number})


def _table(game: str = "holdem", decks: tuple[DeckInPlay, ...] = (), **changes: object
           ) -> TableAtStart:
    table = TableAtStart(
        id="t-1", name="P-1", game=game, status="open", dealer_id=7, positions=10,
        current_round_id=None, rounds_played=4, last_deck_id=None, dealing_method="hand",
        shuffler="automated", shuffler_out_of_order=False, shoe_out_of_order=False,
        rules=(_rules(1),), decks=decks or (_deck("red", 90), _deck("blue", 60)))
    return replace(table, **changes)


def _code(fn, *args) -> str:  # noqa: ANN001
    with pytest.raises(ConflictError) as err:
        fn(*args)
    return err.value.code


def test_rules_in_force_is_the_newest_of_the_one_in_effect_and_the_due_approved() -> None:
    """As tables.selectors.rules_in_force: an approved version whose time has come is in
    force before its timer records it; one not yet due is not."""
    v1, due, later = (_rules(1), _rules(2, "approved", NOW - timedelta(seconds=1)),
                      _rules(3, "approved", NOW + timedelta(hours=1)))
    assert rules_in_force([v1, due, later], NOW) == due
    assert rules_in_force([v1, later], NOW) == v1
    assert rules_in_force([later], NOW) is None
    assert _code(rules_required, _table(rules=()), NOW) == "no_rules_in_effect"


def test_a_closed_table_or_a_round_in_progress_refuses() -> None:
    assert _code(check_table_free, _table(status="closed")) == "table_closed"
    assert _code(check_table_free, _table(current_round_id="r-1")) == "round_in_progress"


def test_the_deck_due_is_the_one_not_used_last() -> None:
    """§ 637a.3(a), § 589.3(b)(3): the decks alternate; the first put in play deals first."""
    table = _table()
    assert deck_due(table).id == "red"
    assert deck_due(replace(table, last_deck_id="red")).id == "blue"
    empty = replace(table, decks=())
    assert _code(deck_due, empty) == "no_deck_in_play"


@pytest.mark.parametrize(("table", "deck", "code"), [
    (_table(), None, "deck_not_in_play"),
    (_table(), _deck("red", change_due=True), "deck_change_due"),
    # § 637a.3(c): the deadline itself counts, before the timer fires
    (_table(), _deck("red", deadline_at=NOW), "deck_change_due"),
    # § 637a.7(e)(4)(i): counted every 5 rounds
    (_table(), _deck("red", rounds_since_count=5), "deck_count_due"),
    # § 589.9(a)(1): a banked game dealt by hand needs a working shuffler
    (_table("lunar-poker-589", (_deck("red"),), shuffler_out_of_order=True), _deck("red"),
     "hand_dealing_needs_shuffler"),
    # § 589.3(a): a banked table without a working shuffler keeps one deck
    (_table("lunar-poker-589", dealing_method="manual-shoe", shuffler="none"), _deck("red"),
     "too_many_decks_in_play"),
    # § 637a.3(a): poker keeps two decks in play
    (_table(decks=(_deck("red"),)), _deck("red"), "second_deck_missing"),
    (_table(last_deck_id="red"), _deck("red", 90), "wrong_deck"),
])
def test_the_deck_checks_in_their_order(table: TableAtStart, deck: DeckInPlay | None,
                                        code: str) -> None:
    assert _code(check_deck, table, deck, NOW) == code


def test_a_counting_shuffler_counts_for_the_dealer() -> None:
    """§ 637a.7(e)(4)(ii): a working counting shuffler replaces the dealer's count."""
    table = _table(shuffler="automated-counting")
    check_deck(table, _deck("red", 90, rounds_since_count=9), NOW)


def test_a_banked_round_opens_its_domain_on_the_same_event() -> None:
    """§ 589.11(f): the round records the version in force, its deck and number, and the
    banked domain's opening (its options and the table's positions)."""
    from tables.domain.rules_options import example_options

    game = "lunar-poker-589"
    rules = RulesVersion("rules-1", 1, "in_effect", None, example_options(game))
    table = _table(game, (_deck("red"),), dealing_method="automated-shoe", positions=5,
                   rules=(rules,))
    o = round_opening(table, rules, table.decks[0], "round-1")
    assert (o.number, o.opened["deck_id"], o.opened["rules_version_number"]) == (5, "red", 1)
    assert o.opened["max_positions"] == 5 and "options" in o.opened
    assert o.deck_dealt == {"round_id": "round-1", "number": 5}
    poker = round_opening(_table(), _rules(1), _deck("red"), "round-2")
    assert "options" not in poker.opened and poker.opened["shuffler"] == "automated"
