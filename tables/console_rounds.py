"""A house-banked round's reconstruction in dollars (``/console/rounds/<id>/``, 589.11(f),
671a.11(g), 579.11(l): :func:`tables.services.banked.round_reconstruction`, the API's own
replay) and the banked dispute calculator as a form (``/console/disputes/banked/``:
:func:`tables.services.banked.round_settle_script`, which records nothing)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from casino.actors import Actor
from casino.domain.errors import DomainError
from casino.roles import Role
from casino.scoping import property_row
from tables.console_access import console_page, refusal_words
from tables.domain.catalogue import BANKED_GAMES, get_table_game
from tables.models import GameTable
from tables.selectors import rules_in_force
from tables.services import banked

#: who reads a round's reconstruction: the API's readers (the audit roles and finance)
RECONSTRUCTION_ROLES = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.COMPLIANCE,
                        Role.SECURITY, Role.FINANCE)



def _worded(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Settlement lines with their outcome in words ("second_combination" → "second
    combination"; "open": not settled)."""
    return [{**line, "outcome_text": "not settled" if line["outcome"] == "open"
             else str(line["outcome"]).replace("_", " ")} for line in lines]


@console_page(*RECONSTRUCTION_ROLES)
def round_page(request: HttpRequest, actor: Actor, pk: Any) -> HttpResponse:
    out = banked.round_reconstruction(actor=actor, round_id=pk)
    table = property_row(GameTable.objects.all(), actor, out["table"], what="table")
    return render(request, "tables/console/round.html", {
        "r": out, "lines": _worded(out["lines"]), "table": table,
        "game": get_table_game(out["game"])})


# --- the banked dispute calculator ------------------------------------------------------

EXAMPLE_POSITIONS = json.dumps([
    {"position": 1, "wagers": {"ante": 1000}, "cards": ["Kd", "Qh", "5s", "3d", "2h"],
     "decisions": [{"decision": "play", "high": ["Kd", "Qh", "5s"], "low": ["3d", "2h"]}]},
], indent=1)


class BankedCalculatorForm(forms.Form):
    """The round as it was dealt: the game (its rules are the Rules Submission in force at
    this property), each position's wagers, cards and decisions, the dealer's cards."""

    game = forms.ChoiceField(choices=[(g, get_table_game(g).name) for g in BANKED_GAMES])
    positions = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 10}),
        help_text='Each position as the round script gives it (amounts as whole numbers of '
                  'hundredths: 1000 is $10.00; cards as codes, "Kd" is the king of diamonds), for example: '
                  + EXAMPLE_POSITIONS.replace("\n", " "))
    dealer_cards = forms.CharField(
        label="Dealer's cards", max_length=40,
        help_text='The five cards, e.g. "Ac Ad Ah As 9c".')

    def clean_positions(self) -> Any:
        try:
            value = json.loads(self.cleaned_data["positions"])
        except ValueError as exc:
            raise forms.ValidationError(f"This is not a list of positions in the script's "
                                        f"form: {exc.msg} at character {exc.pos}.") from None
        if not isinstance(value, list):
            raise forms.ValidationError("Give a list of positions, [ … ].")
        return value


def _script(actor: Actor, data: dict[str, Any]) -> dict[str, Any]:
    rules = rules_in_force(actor.property, data["game"])
    if rules is None:
        raise DomainError(f"no Rules Submission for {get_table_game(data['game']).name} is "
                          f"in force at this property", code="no_rules_in_effect")
    return {"game": data["game"], "options": rules.options, "positions": data["positions"],
            "dealer": {"cards": data["dealer_cards"].replace(",", " ").split()}}


@console_page(*banked.DISPUTE_ROLES)
def banked_calculator(request: HttpRequest, actor: Actor) -> HttpResponse:
    """A form in, the settlement out in words and dollars; a refusal as a sentence.
    Nothing is recorded: the calculator settles the script by the same domain."""
    form = BankedCalculatorForm(request.POST or None)
    result = refusal = None
    if request.method == "POST" and form.is_valid():
        try:
            result = banked.round_settle_script(actor=actor,
                                                script=_script(actor, form.cleaned_data))
        except DomainError as exc:
            refusal = refusal_words(exc)
    return render(request, "tables/console/banked_calculator.html", {
        "form": form, "result": result, "refusal": refusal,
        "lines": _worded(result["lines"]) if result else []})
