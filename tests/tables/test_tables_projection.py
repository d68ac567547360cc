"""The tables read models are projections: dropped and rebuilt from the events, they come
back the same."""

from __future__ import annotations

import pytest
from django.forms.models import model_to_dict

from casino.eventstore import projections
from tables.models import Deck, DeckStep, GameTable, Round, RulesSubmission
from tables.services import decks, rounds

pytestmark = pytest.mark.django_db


def _snapshot() -> dict:
    def rows(model: type) -> list[dict]:
        return sorted((model_to_dict(o, fields=[f.name for f in model._meta.fields
                                                if f.name != "id" or model is not DeckStep])
                       for o in model.objects.all()), key=repr)
    return {m.__name__: rows(m) for m in (RulesSubmission, GameTable, Deck, DeckStep, Round)}


def test_rebuild_reproduces_every_row(crew, open_table, deck_in_play) -> None:
    table = open_table("holdem")
    a, b = deck_in_play(table), deck_in_play(table, colour="blue")
    r = rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=a.pk)
    rounds.round_close(actor=crew["dealer"], round_id=r.pk)
    decks.deck_count(actor=crew["dealer"], deck_id=b.pk, cards=51)
    open_table("five-card-hi-lo")
    before = _snapshot()
    assert before["Round"] and before["DeckStep"]
    projections.rebuild("tables")
    assert _snapshot() == before
