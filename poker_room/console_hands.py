"""A poker hand's history in plain words (``/console/poker/hands/<id>/``, 637a.18(a)): the
hand's steps as :func:`poker_room.services.hand_steps.hand_steps` words them for the API
("Hand over: gross pot $48.00, …"), the same function, with the cards shown with their
suits and named for a screen reader (tables.templatetags.console_cards). And the poker
dispute calculator as a form (``/console/disputes/poker/``,
:func:`poker_room.services.disputes.hand_settle_script`, which records nothing)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from casino.actors import Actor
from casino.domain.errors import DomainError
from casino.domain.money import MoneyError, parse_money
from casino.scoping import property_rows
from poker_room.api.cards import cards_out, command_in
from poker_room.services import disputes, hand_steps
from poker_room.services.histories import HISTORY_READERS
from tables.console_access import console_page, refusal_words
from tables.domain.catalogue import POKER_GAMES, get_table_game
from tables.models import RulesSubmission


@console_page(*HISTORY_READERS)
def hand_page(request: HttpRequest, actor: Actor, pk: Any) -> HttpResponse:
    out = hand_steps.hand_steps(actor=actor, round_id=pk)
    return render(request, "poker_room/console/hand.html", {
        "h": out, "game": get_table_game(out["table"]["game"])})


# --- the poker dispute calculator -------------------------------------------------------

EXAMPLE_COMMANDS = ('[{"type": "deal", "cards": {"1": ["2c", "7d"], "2": ["As", "Ad"]}}, '
                    '{"type": "act", "seat": 1, "action": "call"}, …]')


class RulesChoice(forms.ModelChoiceField):
    def label_from_instance(self, rs: RulesSubmission) -> str:
        return f"{get_table_game(rs.game).name}, version {rs.version_number} ({rs.state})"


class PokerCalculatorForm(forms.Form):
    """The hand as it was dealt: the rules it was dealt under, each seat's stakes, the
    button, and the dealer's commands in order (as a terminal sends them)."""

    rules_submission = RulesChoice(queryset=RulesSubmission.objects.none(),
                                   label="Rules Submission",
                                   help_text="Any version: a dispute may be about a hand "
                                             "dealt under an older one.")
    stacks = forms.CharField(
        label="Table stakes of each seat dealt in", widget=forms.Textarea(attrs={"rows": 4}),
        help_text='One seat a line, "seat: dollars", e.g. "1: 100.00".')
    button = forms.IntegerField(required=False, min_value=1, max_value=10,
                                help_text="The seat with the button (none in stud).")
    straddle = forms.BooleanField(required=False, label="A straddle was posted")
    kill_active = forms.BooleanField(required=False, label="A Kill was in force")
    commands = forms.CharField(
        label="The dealer's commands", widget=forms.Textarea(attrs={"rows": 10}),
        help_text="In order, as the dealer terminal sends them (amounts in hundredths: 1000 is "
                  "$10.00; cards as codes: \"As\" is the ace of spades), e.g. " + EXAMPLE_COMMANDS)

    def __init__(self, *args: Any, actor: Actor, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rules_submission"].queryset = property_rows(
            RulesSubmission.objects.filter(game__in=POKER_GAMES), actor
        ).order_by("game", "-version_number")

    def clean_stacks(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for line in self.cleaned_data["stacks"].splitlines():
            if not line.strip():
                continue
            seat, sep, amount = line.partition(":")
            if not sep or not seat.strip().isdigit():
                raise forms.ValidationError(f'"{line.strip()}" is not "seat: dollars".')
            try:
                out[seat.strip()] = parse_money(amount)
            except MoneyError:
                raise forms.ValidationError(f'"{amount.strip()}" is not an amount of '
                                            f"money (e.g. 100 or 100.00).") from None
        if not out:
            raise forms.ValidationError("Give the stakes of every seat dealt in.")
        return out

    def clean_commands(self) -> list[Any]:
        try:
            value = json.loads(self.cleaned_data["commands"])
        except ValueError as exc:
            raise forms.ValidationError(f"This is not a list of commands: {exc.msg} at "
                                        f"character {exc.pos}.") from None
        if not isinstance(value, list):
            raise forms.ValidationError("Give a list of commands, [ … ].")
        return value


def _script(data: dict[str, Any]) -> dict[str, Any]:
    commands = []
    for i, c in enumerate(data["commands"]):
        try:
            commands.append(command_in(c))  # the cards as the engine takes them
        except DomainError as exc:
            raise disputes.refused(exc, f"commands[{i}]") from None
    return {"rules_submission_id": str(data["rules_submission"].pk), "stacks": data["stacks"],
            "button": data.get("button"), "straddle": data.get("straddle", False),
            "kill_active": data.get("kill_active", False), "commands": commands}


@console_page(*disputes.DISPUTE_ROLES)
def poker_calculator(request: HttpRequest, actor: Actor) -> HttpResponse:
    """A form in, the pots, the awards, the rake and the stakes out in dollars; a refusal as
    a sentence naming the command it stopped at. Nothing is recorded."""
    form = PokerCalculatorForm(request.POST or None, actor=actor)
    result = refusal = None
    if request.method == "POST" and form.is_valid():
        try:
            result = cards_out(disputes.hand_settle_script(actor=actor,
                                                           script=_script(form.cleaned_data)))
        except DomainError as exc:
            refusal = refusal_words(exc) + (f" (at {exc.field})" if exc.field else "")
    stacks = []
    if result:
        stacks = [{"seat": s, "start": result["starting_stacks_cents"][s],
                   "end": result["stacks_cents"][s], "net": result["net_cents"][s]}
                  for s in sorted(result["stacks_cents"], key=int)]
    return render(request, "poker_room/console/poker_calculator.html", {
        "form": form, "result": result, "refusal": refusal, "stacks": stacks})
