"""Fixtures for the tables app: staff as actors, rules in effect, tables with decks in play,
all made through the real services (events appended)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from casino.actors import Actor, actor_of
from tables.domain.rules_options import example_options
from tables.services import decks, rules, tables


@pytest.fixture
def staff(make_staff: Callable) -> Callable[..., Actor]:
    """``staff("dealer")`` → an Actor holding those roles."""
    def make(*roles: str, username: str | None = None) -> Actor:
        return actor_of(make_staff(*roles, username=username))
    return make


@pytest.fixture
def crew(staff: Callable[..., Actor]) -> dict[str, Actor]:
    return {"admin": staff("admin"), "compliance": staff("compliance"),
            "approver": staff("compliance"), "floor": staff("floorperson"),
            "dealer": staff("dealer"), "security": staff("security")}


@pytest.fixture
def put_rules_in_effect(crew: dict[str, Actor]) -> Callable[..., Any]:
    def make(game: str, **changes: Any) -> Any:
        options = {**example_options(game), **changes}
        rs = rules.rules_draft(actor=crew["compliance"], game=game, options=options)
        rules.rules_submit(actor=crew["compliance"], rules_id=rs.pk)
        # the 589 example's Super Wager paytable has a negative house edge (589.6(d)(7)
        # by the letter): acknowledged, as its approval requires
        return rules.rules_approve(actor=crew["approver"], rules_id=rs.pk,
                                   acknowledge_negative_house_edge=True)
    return make


@pytest.fixture
def open_table(crew: dict[str, Actor], put_rules_in_effect: Callable) -> Callable[..., Any]:
    """An open table of ``game`` with rules in effect and the crew's dealer assigned."""
    counter = iter(range(1, 1000))

    def make(game: str, *, dealing_method: str | None = None, shuffler: str | None = None,
             positions: int | None = None) -> Any:
        from tables.domain.catalogue import get_table_game

        g = get_table_game(game)
        put_rules_in_effect(game)
        t = tables.table_configure(
            actor=crew["admin"], name=f"{game[:20]}-{next(counter)}", game=game,
            positions=positions or g.max_positions,
            dealing_method=dealing_method or ("hand" if g.is_poker else "automated-shoe"),
            shuffler=shuffler or ("automated" if g.is_poker else "automated"))
        tables.table_assign_dealer(actor=crew["floor"], table_id=t.pk,
                                   dealer=crew["dealer"].username)
        return tables.table_open(actor=crew["floor"], table_id=t.pk)
    return make


@pytest.fixture
def ready_deck(crew: dict[str, Actor]) -> Callable[..., Any]:
    """A deck taken through receipt, inspection, verification, spread, wash and shuffle
    (and a cut when the shuffle needs one), ready to go in play at ``table``."""
    def make(table: Any, *, colour: str = "red", shuffle: str = "automated") -> Any:
        from tables.domain.catalogue import get_table_game

        d, f = crew["dealer"], crew["floor"]
        deck = decks.deck_receive(actor=f, table_id=table.pk, back_colour=colour, batch="B-1")
        decks.deck_inspect(actor=d, deck_id=deck.pk, defects=[])
        decks.deck_inspection_verify(actor=f, deck_id=deck.pk, accepted=True)
        decks.deck_spread(actor=d, deck_id=deck.pk,
                          players=2 if get_table_game(table.game).is_poker else 1)
        decks.deck_wash(actor=d, deck_id=deck.pk)
        deck = decks.deck_shuffle(actor=d, deck_id=deck.pk, method=shuffle)
        if deck.cut_required:
            deck = decks.deck_cut(actor=d, deck_id=deck.pk, depth=20)
        return deck
    return make


@pytest.fixture
def deck_in_play(crew: dict[str, Actor], ready_deck: Callable) -> Callable[..., Any]:
    def make(table: Any, **kw: Any) -> Any:
        deck = ready_deck(table, **kw)
        return decks.deck_put_in_play(actor=crew["dealer"], deck_id=deck.pk)
    return make
