"""Every chapter 637a game plays through the dealer terminal's API (637a.9(a), 637a.10-
637a.21): a hand dealt by the engine from a recorded shuffle, every player checking or
calling, standing pat, posting the Forced Bet, to the showdown. The chips are conserved:
what the players lost is the rake in the drop box and the contributions to the funds."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from casino.domain.cards import format_card
from poker_room.models import RakeDay, Seat
from poker_room.services import hands
from tables.domain.catalogue import POKER_GAMES

pytestmark = pytest.mark.django_db


def _decide(h: dict, dealer, hand_id: str) -> dict:
    legal = h["legal_actions"]
    acts = legal["actions"]
    if "discard" in acts:  # Super Seven-card Stud: each player discards two (637a.10(m))
        seat = legal["seats"][0]
        engine = hands.hand_load(actor=dealer, round_id=hand_id).hand
        return {"type": "discard", "seat": seat,
                "cards": [format_card(c) for c in engine.cards(seat)[:2]]}
    if "draw" in acts:
        return {"type": "draw", "seat": legal["seat"], "discard": []}
    if "bring_in" in acts:
        return {"type": "act", "seat": legal["seat"], "action": "bring_in"}
    return {"type": "act", "seat": legal["seat"],
            "action": "check" if "check" in acts else "call"}


@pytest.mark.regulation("637a.9(a)")
@pytest.mark.parametrize("game", POKER_GAMES)
def test_every_game_plays_through_the_api(game: str, crew, poker_table: Callable,
                                          as_actor: Callable) -> None:
    """§ 637a.9(a), § 637a.10-§ 637a.21: $100 each for three players; no chip is lost."""
    setup = poker_table(game)
    table = setup["table"]
    client = as_actor(crew["dealer"])
    for seat in (1, 2, 3):
        assert client.post(f"/api/v1/poker-tables/{table.pk}/seats/take/",
                           {"seat": seat, "buy_in_cents": 10_000, "paid_with": "chips"},
                           format="json"
                           ).status_code == 201
    deck = [format_card(c) for c in range(52)]
    random.Random(game).shuffle(deck)
    r = client.post(f"/api/v1/poker-tables/{table.pk}/hands/",
                    {"deck_id": str(setup["decks"][0].pk), "deck": deck}, format="json")
    assert r.status_code == 201, r.json()
    h = r.json()
    for _ in range(80):
        if h["over"]:
            break
        r = client.post(f"/api/v1/hands/{h['round_id']}/command/",
                        {"command": _decide(h, crew["dealer"], h["round_id"]),
                         "expected_version": h["version"]}, format="json")
        assert r.status_code == 200, (game, r.json())
        h = r.json()
    assert h["over"], game
    day = RakeDay.objects.get(table=table)
    paid = day.percentage_rake_cents + day.incremental_rake_cents + sum(
        day.contributions.values())
    assert sum(Seat.objects.filter(table=table).values_list("stack_cents", flat=True)
               ) + paid == 30_000
    assert day.hands == 1
